// Package shape infers what an API answers from its documentation alone — its name, description, parameters and its tool's other documented answers — as a ToolBench type template, and what each field of an answer means.
package shape

import (
	"hash/fnv"
	"regexp"
	"sort"
	"strings"

	"github.com/understudy/understudy/toolset"
)

// Options carry what the documentation of the API itself cannot say.
type Options struct {
	// Paths are places its answers must hold a value at, in the deps
	// package's path syntax ("data[].player_id", "[].id", "id"): the
	// leaves of the dependency edges the API is the source of, so that a
	// value later calls take is there to take.
	Paths []string
}

// Infer returns the type template of what the API answers, in
// ToolBench's template_response form ({"data": [{"id": "int", "name":
// "str"}]}) with Leaf values where it knows what a field means (they
// encode as the type names); strings that are no type name are literal
// values. A "Get Player Stats"
// answers a player with stats, a search a list of matching items with
// IDs, a conversion an amount; an API nothing can be told about answers a
// generic object. The result depends on the API and opts alone.
func Infer(a *toolset.API, opts Options) any {
	r := read(a)
	if a.Tool != nil {
		r.camel = camelTool(a.Tool)
	}
	r.forceEnvelope(opts.Paths)
	t := r.build()
	for _, p := range opts.Paths {
		t = ensurePath(t, p, r)
	}
	return t
}

// reading is what an API's name, description and parameters say.
type reading struct {
	api      *toolset.API
	camel    bool
	verb     string
	entity   string // singular noun the answer is about
	parent   string // "league" of "league teams", the entity of "player stats"
	aspect   string // "stats", "history", ...
	aspectAs string // the word the name gives it ("posts" of the "news" aspect)
	list     bool
	search   bool
	intent   string
	domain   string // "sports", "basketball", "finance", "social", ""
	sib      *siblings
	sibDone  bool
	lookup   []string // what the API looks up by: "symbol" of "Get Coin By Symbol"
	styleSum uint32
	// forced is set when dependency paths say where the answer's
	// content is: under the members of wrap ("data", "hotels[]"; none for
	// the answer itself).
	forced bool
	wrap   []string
}

// forceEnvelope takes the envelope from the first dependency path: the
// answer must hold its values where later calls take them.
func (r *reading) forceEnvelope(paths []string) {
	if len(paths) == 0 {
		return
	}
	ps := append([]string(nil), paths...)
	sort.Strings(ps)
	steps := strings.Split(strings.TrimSpace(ps[0]), ".")
	if len(steps) > maxDocDepth {
		return
	}
	r.forced, r.wrap = true, steps[:len(steps)-1]
	r.list = len(r.wrap) > 0 && strings.HasSuffix(r.wrap[len(r.wrap)-1], "[]")
}

var (
	verbs = map[string]string{
		"get": "get", "fetch": "get", "retrieve": "get", "show": "get", "view": "get", "read": "get", "load": "get",
		"lookup": "get", "describe": "get", "obtain": "get", "return": "get", "returns": "get", "gets": "get", "see": "get",
		"list": "list", "browse": "list", "all": "list", "index": "list", "enumerate": "list",
		"search": "search", "find": "search", "query": "search", "filter": "search", "discover": "search", "explore": "search", "autocomplete": "suggest", "suggest": "suggest", "suggestions": "suggest", "autosuggest": "suggest", "complete": "suggest",
		"create": "create", "add": "create", "post": "create", "new": "create", "register": "create", "insert": "create", "submit": "create", "book": "create", "place": "create", "make": "create", "subscribe": "create", "upload": "create", "save": "create", "publish": "create", "start": "create",
		"update": "update", "edit": "update", "put": "update", "patch": "update", "modify": "update", "change": "update", "set": "update", "rename": "update",
		"delete": "delete", "remove": "delete", "cancel": "delete", "unsubscribe": "delete", "destroy": "delete", "clear": "delete", "stop": "delete",
		"convert": "convert", "conversion": "convert", "exchange": "convert", "calculate": "calc", "calc": "calc", "compute": "calc", "estimate": "calc",
		"translate": "translate", "translation": "translate", "detect": "detect", "identify": "detect", "recognize": "detect", "classify": "detect",
		"validate": "validate", "verify": "validate", "check": "validate", "validation": "validate", "verification": "validate", "test": "validate", "is": "validate",
		"generate": "generate", "random": "random", "download": "download", "send": "send", "count": "count", "track": "get",
		"predict": "calc", "analyze": "analyze", "analyse": "analyze", "analysis": "analyze", "summarize": "analyze", "summarise": "analyze",
		"extract": "analyze", "parse": "analyze", "scrape": "analyze", "geocode": "geocode", "geocoding": "geocode", "reverse": "reverse",
	}
	stopWords = map[string]bool{"api": true, "endpoint": true, "the": true, "a": true, "an": true, "v1": true, "v2": true,
		"v3": true, "v4": true, "and": true, "to": true, "my": true, "your": true, "our": true, "this": true, "request": true,
		"call": true, "method": true, "service": true, "deprecated": true, "beta": true, "legacy": true,
		"alpha": true, "experimental": true, "copy": true}
	splitWords  = map[string]bool{"by": true, "for": true, "from": true, "with": true, "using": true, "via": true, "per": true, "near": true, "within": true, "around": true, "in": true, "on": true, "at": true, "of": true}
	listWords   = map[string]bool{"all": true, "list": true, "top": true, "latest": true, "recent": true, "popular": true, "trending": true, "upcoming": true, "new": true, "nearby": true, "best": true, "featured": true, "similar": true, "related": true, "live": true, "today": true, "multiple": true}
	detailWords = map[string]bool{"details": true, "detail": true, "info": true, "information": true, "profile": true, "data": true, "by": true, "single": true, "one": true, "specific": true, "full": true, "overview": true, "basic": true, "current": true}
	// aspects are what an API can answer about an entity besides itself.
	aspects = map[string]string{
		"stats": "stats", "statistics": "stats", "stat": "stats", "career": "stats", "performance": "stats", "metrics": "stats", "analytics": "stats", "insights": "stats", "summary": "stats", "scores": "stats",
		"history": "history", "historical": "history", "prices": "history", "timeseries": "history", "chart": "history", "candles": "history", "candlestick": "history", "ohlc": "history", "ohlcv": "history", "trend": "history", "trends": "history",
		"reviews": "reviews", "ratings": "reviews", "comments": "reviews", "feedback": "reviews", "testimonials": "reviews",
		"photos": "photos", "images": "photos", "pictures": "photos", "gallery": "photos", "media": "photos", "screenshots": "photos",
		"schedule": "schedule", "fixtures": "schedule", "calendar": "schedule", "events": "schedule", "matches": "schedule", "games": "schedule",
		"standings": "standings", "table": "standings", "ranking": "standings", "rankings": "standings", "leaderboard": "standings",
		"roster": "roster", "squad": "roster", "lineup": "roster", "lineups": "roster", "cast": "roster", "crew": "roster", "staff": "roster", "members": "roster", "players": "roster", "employees": "roster",
		"transfers": "transfers", "news": "news", "articles": "news", "headlines": "news", "posts": "news",
		"followers": "followers", "following": "followers", "friends": "followers", "subscribers": "followers",
		"transactions": "transactions", "payments": "transactions", "orders": "transactions", "invoices": "transactions",
		"odds": "odds", "lyrics": "lyrics", "forecast": "forecast",
	}
	genericKeys = map[string]bool{"data": true, "result": true, "results": true, "items": true, "response": true, "records": true,
		"list": true, "hits": true, "payload": true, "body": true, "content": true, "values": true, "value": true, "output": true,
		"objects": true, "entries": true, "rows": true, "docs": true, "documents": true, "page": true, "details": true, "info": true,
		"detail": true, "object": true, "entity": true, "collection": true, "edges": true, "nodes": true, "node": true}
	queryParams = map[string]bool{"q": true, "query": true, "keyword": true, "keywords": true, "search": true, "searchterm": true,
		"term": true, "searchquery": true, "text": true, "prefix": true, "input": true, "s": true, "searchtext": true, "title": true, "name": true}
	pagingParams = map[string]bool{"page": true, "limit": true, "offset": true, "perpage": true, "pagesize": true, "size": true,
		"count": true, "maxresults": true, "pagenumber": true, "start": true, "skip": true, "take": true, "per": true, "num": true,
		"sort": true, "sortby": true, "order": true, "orderby": true, "direction": true, "lang": true, "language": true, "locale": true,
		"format": true, "fields": true, "callback": true, "apikey": true, "key": true, "token": true, "accesstoken": true,
		"pretty": true, "debug": true, "output": true, "includes": true, "include": true, "expand": true, "cursor": true, "next": true}
)

// read works out what an API's name, description and parameters say.
func read(a *toolset.API) *reading {
	r := &reading{api: a}
	if a.Tool != nil {
		h := fnv.New32a()
		h.Write([]byte(a.Tool.StandardizedName))
		r.styleSum = h.Sum32()
		r.domain = domainOf(a.Tool)
	}
	ws := nameWords(a)
	if len(ws) > 0 {
		if v, ok := verbs[ws[0]]; ok && !nounAlone(ws) {
			r.verb = v
			ws = ws[1:]
		}
	}
	// "Coin by Symbol", "Stats of Player", "Teams in League".
	head, tail := ws, []string(nil)
	for i, w := range ws {
		if !splitWords[w] {
			continue
		}
		head, tail = ws[:i], ws[i+1:]
		if w == "of" && len(head) > 0 && len(tail) > 0 {
			// "stats of player" is the player's stats.
			head = append(append([]string{}, tail...), head...)
			tail = nil
		}
		break
	}
	for _, w := range tail {
		if !stopWords[w] && w != "id" {
			r.lookup = append(r.lookup, w)
		}
	}
	var nouns []string
	for _, w := range head {
		switch {
		case listWords[w]:
			r.list = true
		case detailWords[w], stopWords[w]:
		case verbs[w] != "" && len(nouns) == 0 && r.verb == "":
			r.verb = verbs[w]
		default:
			nouns = append(nouns, w)
		}
	}
	r.intent = intentOf(a, ws, r.verb)
	if len(nouns) == 0 {
		nouns = fallbackNouns(a, tail)
	}
	if len(nouns) > 0 {
		last := nouns[len(nouns)-1]
		if asp, ok := aspects[last]; ok && len(nouns) > 1 {
			r.aspect, r.aspectAs = asp, last
			r.parent = Singular(nouns[len(nouns)-2])
			r.entity = r.parent
		} else if asp, ok := aspects[last]; ok && (asp == "stats" || asp == "history" || asp == "forecast" || asp == "lyrics" || asp == "odds" || asp == "standings" && (r.domain == "sports" || r.domain == "basketball")) {
			r.aspect, r.aspectAs = asp, last
			r.entity = entityFromTool(a)
		} else {
			r.entity = Singular(last)
			if isPlural(last) {
				r.list = true
			}
			if len(nouns) > 1 && isPlural(last) && ClassOf(Singular(nouns[len(nouns)-2])) != ClassGeneric && ClassOf(r.entity) != ClassGeneric {
				r.parent = Singular(nouns[len(nouns)-2]) // "league teams"
			}
		}
	}
	switch r.verb {
	case "list", "search", "suggest":
		r.list = true
	}
	for _, p := range a.Params {
		if queryParams[Fold(p.Name)] && p.Kind == toolset.KindString && !strings.EqualFold(p.Name, "name") && !strings.EqualFold(p.Name, "title") {
			r.search = true
		}
	}
	if r.verb == "search" || r.verb == "suggest" {
		r.search = true
	}
	if r.search && r.aspect == "" {
		r.list = true
	}
	if r.entity == "" {
		r.entity = "item"
	}
	return r
}

// nounAlone reports whether a name's first word, which can be a verb, is
// its only noun: "Check Info" is a check's details, "Check Email" checks.
func nounAlone(ws []string) bool {
	if len(ws) < 2 {
		return false
	}
	for _, w := range ws[1:] {
		if !detailWords[w] && !stopWords[w] && w != "id" && !splitWords[w] {
			return false
		}
	}
	return nounVerbs[ws[0]]
}

// nounVerbs are verbs of API names that are nouns as often.
var nounVerbs = map[string]bool{"check": true, "post": true, "book": true, "test": true, "index": true, "place": true,
	"track": true, "count": true, "exchange": true, "conversion": true, "translation": true, "validation": true,
	"verification": true, "analysis": true, "upload": true, "order": true, "record": true, "report": true}

// nameWords are the words of the API's name, or of its path when the
// name says nothing ("endpoint1", "/").
func nameWords(a *toolset.API) []string {
	var ws []string
	for _, w := range Words(a.Name) {
		if !stopWords[w] && !isNumber(w) {
			ws = append(ws, w)
		}
	}
	if len(ws) == 0 && a.Path != "" {
		for _, w := range Words(a.Path) {
			if !stopWords[w] && !isNumber(w) {
				ws = append(ws, w)
			}
		}
	}
	return ws
}

func isNumber(w string) bool {
	for _, r := range w {
		if r < '0' || r > '9' {
			return false
		}
	}
	return w != ""
}

// fallbackNouns names the entity of an API whose name has no noun: what
// it looks up by ("by city"), else the tool's subject.
func fallbackNouns(a *toolset.API, tail []string) []string {
	for _, w := range tail {
		if ClassOf(Singular(w)) != ClassGeneric {
			return []string{w}
		}
	}
	if e := entityFromTool(a); e != "" {
		return []string{e}
	}
	return nil
}

// entityFromTool is the subject of the API's tool: the first noun of its
// name, else of its description, that names a class of things.
func entityFromTool(a *toolset.API) string {
	if a.Tool == nil {
		return ""
	}
	for _, text := range []string{a.Tool.Name, a.Tool.Title, a.Description, firstSentence(a.Tool.Description), a.Tool.Category} {
		for _, w := range Words(text) {
			if s := Singular(w); ClassOf(s) != ClassGeneric {
				return s
			}
		}
	}
	return ""
}

func firstSentence(s string) string {
	if i := strings.IndexAny(s, ".!?\n"); i >= 0 {
		return s[:i]
	}
	return s
}

// intentOf recognises the APIs whose answer is no entity: conversions,
// weather, translation, validation, geocoding, clocks, health checks.
func intentOf(a *toolset.API, ws []string, verb string) string {
	has := func(w ...string) bool {
		for _, x := range ws {
			for _, y := range w {
				if x == y {
					return true
				}
			}
		}
		return false
	}
	tool := ""
	if a.Tool != nil {
		tool = strings.ToLower(a.Tool.Name + " " + a.Tool.Category)
	}
	switch {
	case has("weather", "forecast", "temperature", "climate") || strings.Contains(tool, "weather") && has("current", "daily", "hourly", "now", "today", "conditions"):
		if has("forecast", "daily", "hourly", "weekly") {
			return "forecast"
		}
		return "weather"
	case has("exchange", "rates") && has("rate", "rates") || has("forex", "fx") && !has("news"):
		if verb == "convert" || has("convert", "amount") {
			return "convert"
		}
		return "rates"
	case verb == "convert" || has("convert", "converter", "conversion"):
		return "convert"
	case verb == "translate" || has("translate", "translation"):
		return "translate"
	case verb == "detect" && has("language", "lang"):
		return "detect_language"
	case has("sentiment", "emotion", "toxicity"):
		return "sentiment"
	case verb == "geocode" || has("geocode", "geocoding") && !has("reverse"):
		return "geocode"
	case verb == "reverse" || has("reverse") && has("geocode", "geocoding", "lookup"):
		return "reverse_geocode"
	case has("distance", "route", "directions", "travel") && has("distance", "time", "route", "directions", "matrix"):
		return "distance"
	case has("ip", "geolocation", "geoip", "ipinfo", "iplookup") && !has("rotate", "proxy"):
		return "ip"
	case verb == "validate" || has("validate", "validator", "verify", "verifier", "validation", "verification", "checker", "valid"):
		return "validate"
	case has("timezone", "time", "clock", "datetime") && (verb == "get" || verb == "" || verb == "convert") && !has("prep", "cook", "travel", "series", "timeline", "times", "showtimes", "lap"):
		return "time"
	case has("health", "ping", "heartbeat", "healthcheck", "uptime") || has("status", "version") && len(ws) <= 2 && verb != "update":
		return "health"
	case (verb == "generate" || has("generator", "qr", "qrcode", "barcode", "screenshot", "thumbnail", "avatar")) && has("qr", "qrcode", "barcode", "image", "screenshot", "thumbnail", "avatar", "chart", "logo", "pdf", "banner", "meme", "picture", "photo"):
		return "generate_image"
	case has("define", "definition", "definitions", "dictionary", "synonym", "synonyms", "antonyms", "antonym", "rhymes", "meaning"):
		return "dictionary"
	case verb == "analyze" || has("summarize", "summarise", "summary", "extract", "keywords", "ocr"):
		if has("summary") && verb != "analyze" && verb != "" {
			return ""
		}
		return "analyze"
	case verb == "count" || has("count", "total", "number") && len(ws) <= 3 && !has("phone", "page"):
		return "count"
	case verb == "send" || has("send", "notify", "sms", "email") && verb != "get" && verb != "validate":
		return "send"
	case verb == "delete":
		return "delete"
	case verb == "update" || strings.EqualFold(a.Method, "PUT") || strings.EqualFold(a.Method, "PATCH"):
		return "update"
	case verb == "create" || strings.EqualFold(a.Method, "POST") && verb == "" && !has("search"):
		return "create"
	case strings.EqualFold(a.Method, "DELETE"):
		return "delete"
	}
	return ""
}

// domainOf is the field of knowledge of a tool, which picks the figures
// a "stats" API answers.
func domainOf(t *toolset.Tool) string {
	text := strings.ToLower(t.Name + " " + t.Category + " " + firstSentence(t.Description))
	switch {
	case strings.Contains(text, "basketball") || strings.Contains(text, "nba") || strings.Contains(text, "hoops"):
		return "basketball"
	case strings.Contains(text, "sport") || strings.Contains(text, "football") || strings.Contains(text, "soccer") || strings.Contains(text, "cricket") || strings.Contains(text, "tennis"):
		return "sports"
	case strings.Contains(text, "financ") || strings.Contains(text, "crypto") || strings.Contains(text, "stock") || strings.Contains(text, "trading") || strings.Contains(text, "market"):
		return "finance"
	case strings.Contains(text, "social") || strings.Contains(text, "instagram") || strings.Contains(text, "twitter") || strings.Contains(text, "tiktok"):
		return "social"
	}
	return ""
}

// camelTool reports whether a tool names its fields in camelCase: most
// of its parameter names that have two words are written so.
func camelTool(t *toolset.Tool) bool {
	camel, snake := 0, 0
	for _, a := range t.APIs {
		for _, p := range a.Params {
			switch {
			case strings.ContainsAny(p.Name, "_-"):
				snake++
			case strings.ToLower(p.Name) != p.Name && len(Words(p.Name)) > 1:
				camel++
			}
		}
	}
	return camel > snake
}

// key is a field name in the tool's style.
func (r *reading) key(snake string) string {
	if !r.camel {
		return snake
	}
	return Join(true, strings.Split(snake, "_")...)
}

// object turns fields into a template object in the tool's style.
func (r *reading) object(fs fields) map[string]any {
	out := make(map[string]any, len(fs))
	for _, f := range fs {
		k := r.key(f.name)
		if _, dup := out[k]; !dup {
			out[k] = f.tmpl
		}
	}
	return out
}

// build makes the template.
func (r *reading) build() any {
	intent := r.intent
	if r.forced && r.list {
		intent = "" // dependency paths say it answers a list of things
	}
	switch intent {
	case "weather", "forecast", "rates", "convert", "translate", "detect_language", "sentiment", "geocode",
		"reverse_geocode", "distance", "ip", "validate", "time", "health", "generate_image", "dictionary",
		"analyze", "count", "send", "delete", "update":
		return r.envelope(r.intentObject(), false)
	}
	class := ClassOf(r.entity)
	switch {
	case r.aspect == "stats":
		obj := r.entityObject(class, true)
		obj[r.key("stats")] = r.object(stats(class, r.domain))
		return r.envelope(obj, false)
	case r.aspect != "" && r.aspect != "forecast":
		items, itemClass := r.aspectItems(class)
		if r.forced && r.list {
			// Dependency paths say the answer is the list itself.
			return r.envelope(items, true)
		}
		head := r.object(fields{f("id", ID), f("name", nameKind(class))})
		pf := r.paramFields(itemClass)
		for _, k := range sortedKeys(pf) {
			if l, ok := pf[k].(Leaf); !ok || l.Kind != ID {
				add(head, k, pf[k])
			}
		}
		out := map[string]any{r.key(singularKey(r.entity, r.aspectAs)): head, r.key(r.aspectAs): []any{items}}
		return r.envelope(out, false)
	case r.intent == "create":
		obj := r.entityObject(class, false)
		obj[r.key("status")] = "created"
		obj[r.key("created_at")] = Leaf{DateTime}
		return r.envelope(obj, false)
	case r.list:
		item := r.entityObject(class, false)
		if r.verb == "suggest" {
			item = r.object(fields{f("id", ID), f("name", nameKind(class)), f("type", Word)})
			pf := r.paramFields(class)
			for _, k := range sortedKeys(pf) {
				add(item, k, pf[k])
			}
		}
		return r.envelope(item, true)
	}
	return r.envelope(r.entityObject(class, true), false)
}

// singularKey is the key the subject of an aspect answer goes under.
func singularKey(entity, aspect string) string {
	if entity == "" || entity == "item" {
		return "subject"
	}
	if Plural(entity) == aspect || entity == aspect {
		return "subject"
	}
	return entity
}

// nameKind is how an object of a class is named.
func nameKind(class string) Kind {
	switch class {
	case ClassPerson, ClassUser:
		return PersonName
	case ClassCity:
		return City
	case ClassCountry:
		return Country
	}
	return Name
}

// entityObject is one object of the API's entity: its identifier, the
// fields its tool documents for it elsewhere, those the API's description
// lists, the default fields of its class, and the fields its parameters
// filter on.
func (r *reading) entityObject(class string, detail bool) map[string]any {
	fs := defaults(class, r.domain == "sports" || r.domain == "basketball")
	if id := r.idParam(); id != "" && fs[0].name == "id" {
		// The tool's APIs take this entity's identifier as "checkId":
		// its answers name it so too.
		fs = append(fields{{id, Leaf{ID}}}, fs[1:]...)
	}
	obj := r.object(fs)
	if sib := r.siblings().fieldsOf(r.entity); len(sib) > 0 {
		// What the tool documents for this entity elsewhere is how it
		// names things: it replaces the defaults (a few of them fill a
		// short list), keeping their identifier.
		obj = map[string]any{}
		for _, k := range sortedKeys(sib) {
			obj[k] = sib[k]
		}
		if !hasIDField(obj) {
			obj[r.key(fs[0].name)] = fs[0].tmpl
		}
		for _, d := range fs {
			if len(obj) >= 5 {
				break
			}
			add(obj, r.key(d.name), d.tmpl)
		}
	}
	for _, name := range describedFields(r.api.Description) {
		if len(obj) < 16 {
			add(obj, r.key(name), Leaf{Classify(name, r.entity, "")})
		}
	}
	if r.parent != "" && r.parent != r.entity {
		add(obj, r.key(r.parent), Leaf{Name})
	}
	pf := r.paramFields(class)
	for _, k := range sortedKeys(pf) {
		add(obj, k, pf[k])
	}
	if detail {
		// A detail looked up by something answers it: "Coin by Symbol".
		for _, w := range r.lookup {
			if k := Classify(w, r.entity, ""); k != Text {
				add(obj, r.key(w), Leaf{k})
			}
		}
	}
	return obj
}

// idParam is the name the tool's APIs give the entity's identifier when
// they take it ("checkId", "player_id"), or "".
func (r *reading) idParam() string {
	if r.api.Tool == nil || r.entity == "" {
		return ""
	}
	want := Fold(r.entity) + "id"
	for _, a := range r.api.Tool.APIs {
		for _, p := range a.Params {
			if Fold(p.Name) == want {
				return p.Name
			}
		}
	}
	return ""
}

// add puts a field in an object unless it has one of that name in any
// spelling ("transactionId" is "transaction_id").
func add(obj map[string]any, k string, v any) {
	f := Fold(k)
	for old := range obj {
		if Fold(old) == f {
			return
		}
	}
	obj[k] = v
}

func hasIDField(obj map[string]any) bool {
	for k := range obj {
		switch Classify(k, "", "") {
		case ID, UUID, Symbol, Code, CountryCode, Currency, Slug:
			return true
		}
	}
	return false
}

// paramFields are the fields an answer carries for the parameters that
// filter what it is about (country, genre, season): the faker fills them
// with the arguments. Paging, formatting, query and key parameters are
// not fields.
func (r *reading) paramFields(class string) map[string]any {
	out := map[string]any{}
	for _, p := range r.api.Params {
		fk := Fold(p.Name)
		if pagingParams[fk] || queryParams[fk] && fk != "name" && fk != "title" {
			continue
		}
		k := Classify(p.Name, r.entity, string(p.Kind))
		switch k {
		case ID, UUID, Token, Hash:
			if len(Words(p.Name)) == 1 {
				continue // the answer's own "id"
			}
		case Text, Number, Int, Bool, Limit, Page:
			if k == Bool || p.Kind == toolset.KindObject || p.Kind == toolset.KindArray {
				continue
			}
		}
		if p.Kind == toolset.KindObject || p.Kind == toolset.KindArray {
			continue
		}
		out[r.key(strings.Join(Words(p.Name), "_"))] = Leaf{k}
		if len(out) >= 6 {
			break
		}
	}
	return out
}

// aspectItems are the elements of an aspect list ("Player Transfers").
func (r *reading) aspectItems(class string) (map[string]any, string) {
	switch r.aspect {
	case "history":
		if class == ClassInstrument || r.domain == "finance" {
			return r.object(fields{f("date", Date), f("open", Price), f("high", Price), f("low", Price), f("close", Price), f("volume", Volume)}), ClassInstrument
		}
		return r.object(fields{f("date", Date), f("value", Number), f("change", Change)}), ClassGeneric
	case "reviews":
		return r.object(defaults(ClassReview, false)), ClassReview
	case "photos":
		return r.object(defaults(ClassImage, false)), ClassImage
	case "schedule":
		if r.domain == "sports" || r.domain == "basketball" || class == ClassTeam || class == ClassLeague || class == ClassPerson {
			return r.object(defaults(ClassMatch, true)), ClassMatch
		}
		return r.object(defaults(ClassEvent, false)), ClassEvent
	case "standings":
		return r.object(defaults(ClassStanding, true)), ClassStanding
	case "roster":
		return r.object(defaults(ClassPerson, r.domain == "sports" || r.domain == "basketball" || class == ClassTeam)), ClassPerson
	case "transfers":
		return r.object(defaults(ClassTransfer, true)), ClassTransfer
	case "news":
		return r.object(defaults(ClassArticle, false)), ClassArticle
	case "followers":
		return r.object(defaults(ClassUser, false)), ClassUser
	case "transactions":
		return r.object(defaults(ClassOrder, false)), ClassOrder
	case "odds":
		return r.object(fields{f("bookmaker", Name), f("home", Rate), f("draw", Rate), f("away", Rate), f("updated_at", DateTime)}), ClassGeneric
	case "lyrics":
		return r.object(fields{f("line", Description), f("time", Duration)}), ClassGeneric
	}
	return r.object(defaults(ClassGeneric, false)), ClassGeneric
}

// intentObject is the answer of an API recognised by what it does.
func (r *reading) intentObject() map[string]any {
	place := fields{f("name", City), f("country", Country), f("lat", Lat), f("lon", Lon), f("timezone", TimeZone)}
	var fs fields
	switch r.intent {
	case "weather":
		return r.object(fields{{"location", r.object(place)}, {"current", r.object(fields{f("temperature", Temperature), f("feels_like", Temperature), f("humidity", Humidity), f("wind_speed", Wind), f("pressure", Pressure), f("condition", Word), f("updated_at", DateTime)})}})
	case "forecast":
		return r.object(fields{{"location", r.object(place)}, fl("forecast", r.object(fields{f("date", Date), f("max_temp", Temperature), f("min_temp", Temperature), f("condition", Word), f("precipitation", Humidity), f("wind_speed", Wind)}))})
	case "rates":
		return r.object(fields{f("base", Currency), f("date", Date), {"rates", map[string]any{"EUR": Leaf{Rate}, "GBP": Leaf{Rate}, "JPY": Leaf{Rate}, "CHF": Leaf{Rate}, "CAD": Leaf{Rate}}}})
	case "convert":
		fs = fields{f("from", Currency), f("to", Currency), f("amount", Price), f("result", Price), f("rate", Rate), f("date", Date)}
		if !currencyish(r.api) {
			fs = fields{f("from", Word), f("to", Word), f("value", Number), f("result", Number), f("factor", Number)}
		}
		for _, p := range r.api.Params {
			fs = append(fs, fieldDef{strings.Join(Words(p.Name), "_"), Leaf{Classify(p.Name, "", string(p.Kind))}})
		}
	case "translate":
		fs = fields{f("translated_text", Description), f("source_language", Language), f("target_language", Language), f("confidence", Probability)}
	case "detect_language":
		fs = fields{f("language", Language), f("confidence", Probability), f("is_reliable", Bool)}
	case "sentiment":
		fs = fields{f("sentiment", Word), f("score", Probability), f("confidence", Probability)}
	case "geocode":
		return r.object(fields{fl("results", r.object(fields{f("place_id", ID), f("formatted_address", Address), f("city", City), f("country", Country), f("lat", Lat), f("lng", Lon)})), f("status", Status)})
	case "reverse_geocode":
		fs = fields{f("address", Address), f("city", City), f("region", Region), f("country", Country), f("country_code", CountryCode), f("postcode", Zip), f("lat", Lat), f("lng", Lon)}
	case "distance":
		fs = fields{f("origin", Address), f("destination", Address), f("distance_km", Distance), f("duration_minutes", Duration)}
	case "ip":
		fs = fields{f("ip", IP), f("country", Country), f("country_code", CountryCode), f("region", Region), f("city", City), f("lat", Lat), f("lon", Lon), f("timezone", TimeZone), f("isp", Name)}
	case "validate":
		fs = r.validation()
	case "time":
		fs = fields{f("timezone", TimeZone), f("datetime", DateTime), f("utc_offset", Text), f("day_of_week", Word), f("unix_time", Timestamp)}
	case "health":
		fs = fields{f("status", Status), f("version", Version), f("uptime", Duration), f("timestamp", DateTime)}
	case "generate_image":
		fs = fields{f("id", ID), f("url", Image), f("format", Word), f("width", Dimension), f("height", Dimension), f("size", Size), f("created_at", DateTime)}
	case "dictionary":
		return r.object(fields{f("word", Text), fl("definitions", r.object(fields{f("definition", Description), f("part_of_speech", Word), f("example", Description)})), fl("synonyms", Leaf{Word})})
	case "analyze":
		fs = fields{f("title", Title), f("summary", Description), fl("keywords", Leaf{Word}), f("language", Language), f("word_count", Count)}
	case "count":
		fs = fields{f("count", Count), f(r.entity, Word), f("updated_at", DateTime)}
	case "send":
		fs = fields{f("id", ID), f("status", Status), f("sent_at", DateTime)}
		return withLiteral(r.object(fs), r.key("status"), "sent")
	case "delete":
		return withLiteral(r.object(fields{f("id", ID), f("deleted", Bool), f("deleted_at", DateTime)}), r.key("status"), "deleted")
	case "update":
		obj := r.entityObject(ClassOf(r.entity), true)
		obj[r.key("updated_at")] = Leaf{DateTime}
		return withLiteral(obj, r.key("status"), "updated")
	}
	return r.object(fs)
}

func withLiteral(m map[string]any, k string, v any) map[string]any {
	m[k] = v
	return m
}

// currencyish reports whether a conversion is of money.
func currencyish(a *toolset.API) bool {
	text := strings.ToLower(a.Name + " " + a.Description)
	if a.Tool != nil {
		text += " " + strings.ToLower(a.Tool.Name+" "+a.Tool.Category)
	}
	for _, w := range []string{"currenc", "exchange", "forex", "money", "usd", "eur", "crypto", "financ", "fx"} {
		if strings.Contains(text, w) {
			return true
		}
	}
	return false
}

// validation is the answer of a validator: the checked value, whether it
// is valid and why, and what the check found about it.
func (r *reading) validation() fields {
	subject := "value"
	for _, p := range r.api.Params {
		if p.Required && p.Kind == toolset.KindString {
			subject = strings.Join(Words(p.Name), "_")
			break
		}
	}
	fs := fields{f(subject, Text), f("valid", Bool), f("reason", Message), f("score", Probability)}
	text := strings.ToLower(r.api.Name + " " + subject)
	switch {
	case strings.Contains(text, "email") || strings.Contains(text, "mail"):
		fs = append(fs, f("domain", Domain), f("disposable", Bool), f("mx_found", Bool))
	case strings.Contains(text, "phone") || strings.Contains(text, "mobile") || strings.Contains(text, "number"):
		fs = append(fs, f("country", Country), f("country_code", CountryCode), f("carrier", Name), f("line_type", Word), f("international_format", Phone))
	case strings.Contains(text, "url") || strings.Contains(text, "domain") || strings.Contains(text, "website"):
		fs = append(fs, f("domain", Domain), f("registered", Date), f("ssl", Bool))
	case strings.Contains(text, "iban") || strings.Contains(text, "vat") || strings.Contains(text, "card") || strings.Contains(text, "bank"):
		fs = append(fs, f("country_code", CountryCode), f("bank", Name), f("type", Word))
	default:
		fs = append(fs, f("checked_at", DateTime))
	}
	return fs
}

// envelope wraps an answer the way the tool wraps its others (a "data"
// or "results" member, a success flag), or in a style of its own picked
// by the tool's name when none of its answers is documented. A list
// answer has 2 to 5 items and a total.
func (r *reading) envelope(body map[string]any, list bool) any {
	if r.forced {
		// Members as the paths name them, innermost first.
		var inner any = body
		for i := len(r.wrap) - 1; i >= 0; i-- {
			name, isList := strings.CutSuffix(r.wrap[i], "[]")
			if isList {
				inner = []any{inner}
			}
			if name != "" {
				inner = map[string]any{name: inner}
			}
		}
		return inner
	}
	sib := r.siblings()
	wrapper, extra := sib.wrapper, sib.extra
	if wrapper == "" && len(extra) == 0 {
		switch r.styleSum % 4 {
		case 0:
			wrapper = "data"
		case 1:
			wrapper = "results"
			if !list {
				wrapper = ""
			}
		case 2:
			wrapper = r.key(Plural(r.entity))
			if !list {
				wrapper = r.key(r.entity)
			}
			if r.entity == "item" || r.aspect != "" || r.intent != "" {
				wrapper = ""
			}
		case 3:
			wrapper = ""
			extra = map[string]any{r.key("success"): Leaf{Bool}}
		}
	}
	var inner any = body
	if list {
		inner = []any{body}
	}
	if wrapper == "" && len(extra) == 0 && !list {
		return body
	}
	if wrapper == "" && list {
		if len(extra) == 0 {
			return inner
		}
		wrapper = "data"
	}
	out := map[string]any{}
	for k, v := range extra {
		out[k] = v
	}
	if wrapper == "" {
		for k, v := range body {
			out[k] = v
		}
		return out
	}
	out[wrapper] = inner
	if list {
		if _, ok := out[r.key("total")]; !ok {
			out[r.key("total")] = Leaf{Count}
		}
		if r.search {
			out[r.key("query")] = Leaf{Text}
		}
	}
	return out
}

var (
	describedRE = regexp.MustCompile(`(?i)\b(?:with|including|includes|containing|contains|returns?|such as|listing|showing|giving|has|have)\s+(?:the\s+|their\s+|its\s+|his\s+|her\s+|each\s+\w+'s\s+)?([a-z][a-z ,/]{2,160}?)(?:[.;:()]|$| for | of | from | in | by | to | when | if | that | which )`)
	listSepRE   = regexp.MustCompile(`,|\band\b|\bor\b|/`)
)

// describedFields are the fields a description lists: "List the teams
// of a league, with their name, league and city" lists name, league and
// city. Only phrases that read as fields are kept.
func describedFields(desc string) []string {
	var out []string
	seen := map[string]bool{}
	for _, m := range describedRE.FindAllStringSubmatch(desc, 4) {
		parts := listSepRE.Split(m[1], -1)
		if len(parts) < 2 {
			continue // "works with the free plan" lists nothing
		}
		for _, part := range parts {
			ws := Words(part)
			if len(ws) == 0 || len(ws) > 3 {
				continue
			}
			name := strings.Join(ws, "_")
			if seen[name] || stopWords[ws[0]] || ws[0] == "more" || ws[0] == "other" || ws[0] == "all" {
				continue
			}
			switch Classify(name, "", "") {
			case Text, Number, Int, Description, Message:
				if name != "description" && name != "summary" {
					continue
				}
			}
			seen[name] = true
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

// Subject is the singular noun of what an API answers about ("player"
// for "Get Player Stats"; "item" when nothing says).
func Subject(a *toolset.API) string { return read(a).entity }

// IsDetail reports whether an API answers one object of its subject (a
// "Get Player By Id"), rather than a list, an aspect of it ("Get Player
// Stats") or the result of an action.
func IsDetail(a *toolset.API) bool {
	r := read(a)
	return !r.list && r.aspect == "" && r.intent == ""
}

// Intent is what an API does when it answers no entity: "weather",
// "convert", "translate", "validate", "health", ...; "" otherwise.
func Intent(a *toolset.API) string { return read(a).intent }
