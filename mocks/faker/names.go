package faker

import (
	"fmt"
	"strings"

	"github.com/brianvoe/gofakeit/v7"

	"github.com/understudy/understudy/mocks/faker/shape"
)

// person is one person an object names: the same one in its name, email
// and username fields.
type person struct{ first, last string }

func (p person) full() string { return p.first + " " + p.last }

func (p person) username() string {
	return strings.ToLower(slugify(p.first)+"_"+slugify(p.last)) + fmt.Sprint(len(p.first)*7%100)
}

func (p person) email(host string) string {
	domain := "example.com"
	if i := strings.Index(host, ".p.rapidapi.com"); i > 0 {
		domain = host[:i] + ".com"
	}
	return strings.ReplaceAll(slugify(p.first)+"."+slugify(p.last), "-", "") + "@" + domain
}

// personSlot names the person a field is about: "author_name" and
// "author_email" are the author, "name" and "email" the object itself.
func personSlot(key string) string {
	ws := shape.Words(key)
	var keep []string
	for _, w := range ws {
		switch w {
		case "name", "first", "last", "full", "given", "family", "sur", "email", "mail", "user", "username", "display", "real", "address", "screen", "handle", "nick", "login":
		default:
			keep = append(keep, w)
		}
	}
	return strings.Join(keep, "_")
}

// person is the person of a slot of an object. In a search for people,
// the first result is the person searched for and the others share the
// family name searched for.
func (g *gen) person(sc scope, slot string) person {
	r := g.rng(sc.seed, "\x00person\x00"+slot)
	p := person{r.FirstName(), r.LastName()}
	if g.reflect && g.query != "" && sc.list && slot == "" && personish(sc.entity) && !g.named {
		ws := strings.Fields(shape.TitleCase(g.query))
		if len(ws) > 0 && len(ws) <= 4 {
			p.last = ws[len(ws)-1]
			if len(ws) > 1 && sc.idx == 0 {
				p.first = strings.Join(ws[:len(ws)-1], " ")
			}
		}
	}
	return p
}

// nameOf is the name of the object of a scope, as its "name" field has it.
func (g *gen) nameOf(sc scope) string {
	if personish(sc.entity) {
		return g.person(sc, "").full()
	}
	r := g.rng(sc.seed, "name")
	return g.entityName(sc.entity, sc, r)
}

// name is the value of a name field: the object's own name for "name",
// else the name of what the field says ("home_team", "stadium").
func (g *gen) name(key string, sc scope, r *gofakeit.Faker) string {
	ws := shape.Words(key)
	entity := sc.entity
	if len(ws) > 0 && ws[len(ws)-1] != "name" {
		entity = shape.Singular(ws[len(ws)-1])
	} else if len(ws) > 1 {
		entity = shape.Singular(ws[len(ws)-2])
	}
	if entity == sc.entity && shape.Fold(key) == "name" {
		n := g.nameOf(sc)
		return g.searched(n, sc)
	}
	return g.entityName(entity, sc, r)
}

// searched puts the query in a search result's name: a search for
// "Tokyo" lists things named after Tokyo.
func (g *gen) searched(name string, sc scope) string {
	if !g.reflect || !sc.list || g.query == "" || len(g.query) > 40 {
		return name
	}
	q := shape.TitleCase(g.query)
	if strings.Contains(strings.ToLower(name), strings.ToLower(g.query)) {
		return name
	}
	switch shape.ClassOf(sc.entity) {
	case shape.ClassPerson, shape.ClassUser:
		return name
	case shape.ClassTeam:
		return q + " " + lastWord(name)
	case shape.ClassHotel:
		return q + " " + pickSeeded(sc.seed, "Grand Hotel", "Inn", "Suites", "Plaza Hotel", "Residence")
	}
	return q + " " + lastWord(name)
}

func lastWord(s string) string {
	f := strings.Fields(s)
	if len(f) == 0 {
		return s
	}
	return f[len(f)-1]
}

func pickSeeded(seed uint64, options ...string) string { return options[seed%uint64(len(options))] }

// entityName is a realistic name for a thing of an entity class.
func (g *gen) entityName(entity string, sc scope, r *gofakeit.Faker) string {
	city := "Springfield"
	if sc.city != nil {
		city = sc.city.Name
	}
	country := "National"
	if k := g.country(sc.city); k != nil {
		country = k.Name
	}
	switch entity {
	case "restaurant", "cafe", "bar", "bistro":
		return r.LastName() + "'s " + pick(r, "Kitchen", "Bistro", "Grill", "Trattoria", "Brasserie", "Tavern")
	case "museum":
		return city + " Museum of " + pick(r, "Art", "History", "Science", "Modern Art")
	case "park":
		return r.LastName() + " Park"
	case "airport":
		return city + " International Airport"
	case "station":
		return city + " Central Station"
	case "stadium", "arena", "venue":
		return pick(r, city+" Stadium", r.LastName()+" Arena", city+" Park")
	case "school", "university", "college":
		return "University of " + city
	case "airline":
		return city + " Airways"
	case "bank":
		return city + " " + pick(r, "Savings Bank", "Bank", "Trust")
	case "car", "vehicle":
		return r.CarMaker() + " " + r.CarModel()
	case "coin", "crypto", "cryptocurrency", "token":
		return pick(r, "Bitcoin", "Ethereum", "Solana", "Cardano", "Polkadot", "Litecoin", "Chainlink", "Stellar", "Avalanche", "Polygon")
	case "channel":
		return shape.TitleCase(r.AdjectiveDescriptive()+" "+r.NounConcrete()) + " TV"
	case "source", "outlet", "newspaper", "paper", "media":
		return pick(r, city+" Herald", "The Daily "+shape.TitleCase(r.NounConcrete()), city+" Times", "Global "+shape.TitleCase(r.NounConcrete())+" News", country+" Tribune")
	case "language", "locale", "dialect":
		if g.w != nil && len(g.w.Languages()) > 0 {
			return g.w.Languages()[int(mix(sc.seed, "language")%uint64(len(g.w.Languages())))].Name
		}
		return r.Language()
	}
	switch shape.ClassOf(entity) {
	case shape.ClassPerson, shape.ClassUser:
		return g.person(sc, entity).full()
	case shape.ClassTeam:
		return city + " " + pick(r, "United", "FC", "Rovers", "Lions", "Eagles", "Wolves", "Falcons", "Athletic", "City", "Rangers")
	case shape.ClassLeague:
		return country + " " + pick(r, "Premier League", "Super League", "First Division", "Championship", "Cup")
	case shape.ClassMatch:
		return city + " " + pick(r, "United", "FC", "Rovers") + " vs " + r.City() + " " + pick(r, "Lions", "Eagles", "Athletic")
	case shape.ClassPlace:
		return shape.TitleCase(r.AdjectiveDescriptive() + " " + r.NounConcrete())
	case shape.ClassHotel:
		return pick(r, "Hotel "+r.LastName(), city+" Grand Hotel", "The "+shape.TitleCase(r.Adjective())+" Inn", city+" Plaza")
	case shape.ClassProduct:
		return r.ProductName()
	case shape.ClassMovie:
		return r.MovieName()
	case shape.ClassSong:
		return r.SongName()
	case shape.ClassAlbum, shape.ClassImage:
		return shape.TitleCase(r.AdjectiveDescriptive() + " " + r.NounConcrete())
	case shape.ClassBook:
		return r.BookTitle()
	case shape.ClassVideo:
		return "How to " + strings.ToLower(r.Verb()) + " a " + strings.ToLower(r.Noun())
	case shape.ClassArticle:
		return g.headline(sc, r)
	case shape.ClassCompany:
		return g.company(r)
	case shape.ClassInstrument:
		if g.cryptoish() {
			return g.entityName("coin", sc, r)
		}
		return g.company(r)
	case shape.ClassCurrency:
		if g.w != nil && len(g.w.Currencies()) > 0 {
			return g.w.Currencies()[r.IntN(len(g.w.Currencies()))].Name
		}
	case shape.ClassJob:
		return r.JobTitle()
	case shape.ClassRecipe:
		return shape.TitleCase(r.Dinner())
	case shape.ClassFile:
		return fmt.Sprintf("%s_%s.pdf", strings.ToLower(r.Noun()), strings.ToLower(r.Noun()))
	case shape.ClassFlight:
		return fmt.Sprintf("%s%d", strings.ToUpper(r.LetterN(2)), 100+r.IntN(9800))
	case shape.ClassOrder:
		return fmt.Sprintf("Order #%d", 10000+r.IntN(90000))
	case shape.ClassCity:
		return city
	case shape.ClassCountry:
		return country
	case shape.ClassWord, shape.ClassLabel:
		return shape.TitleCase(r.Noun())
	case shape.ClassEvent:
		return pick(r, city+" "+shape.TitleCase(r.Noun())+" Festival", shape.TitleCase(r.Adjective()+" "+r.Noun())+" Conference", city+" Marathon")
	case shape.ClassLanguage:
		return r.Language()
	}
	if entity != "" && entity != "item" && len(entity) < 24 {
		// A thing of no known kind is named like one: "Check K-482".
		return shape.TitleCase(strings.Join(shape.Words(entity), " ")) + " " + strings.ToUpper(r.LetterN(1)) + "-" + fmt.Sprint(100+r.IntN(900))
	}
	return shape.TitleCase(r.AdjectiveDescriptive() + " " + r.NounConcrete())
}

func (g *gen) company(r *gofakeit.Faker) string { return r.Company() }

// title is the title of the object of a scope: a film's, a book's, a
// headline; the query shows in a search result's.
func (g *gen) title(sc scope, r *gofakeit.Faker) string {
	var t string
	switch shape.ClassOf(sc.entity) {
	case shape.ClassPerson, shape.ClassUser:
		return r.JobTitle()
	case shape.ClassMovie, shape.ClassSong, shape.ClassBook, shape.ClassAlbum, shape.ClassVideo, shape.ClassJob, shape.ClassEvent, shape.ClassRecipe, shape.ClassProduct:
		t = g.entityName(sc.entity, sc, r)
	default:
		t = g.headline(sc, r)
	}
	return g.searched(t, sc)
}

var headlineVerbs = []string{"announces record quarterly results", "opens a new office in %s", "unveils its latest %s",
	"plans expansion to %s", "reports strong growth in %s", "signs a partnership with %s", "wins award for %s",
	"launches a %s program", "hires a new head of %s", "breaks ground on a project in %s"}

// headline is a news headline about the object's city or a company.
func (g *gen) headline(sc scope, r *gofakeit.Faker) string {
	subject := g.company(r)
	if g.reflect && g.query != "" && sc.list {
		subject = shape.TitleCase(g.query)
	} else if sc.city != nil && r.IntN(2) == 0 {
		subject = sc.city.Name + " " + pick(r, "council", "startup", "museum", "airport", "university")
		subject = strings.ToUpper(subject[:1]) + subject[1:]
	}
	v := headlineVerbs[r.IntN(len(headlineVerbs))]
	if strings.Contains(v, "%s") {
		arg := strings.ToLower(r.Noun())
		if sc.city != nil && (strings.Contains(v, "office in") || strings.Contains(v, "expansion") || strings.Contains(v, "project in")) {
			arg = sc.city.Name
		}
		v = fmt.Sprintf(v, arg)
	}
	return subject + " " + v
}

// sentence is a description that says something about the object: what
// it is, where, and a detail, as a review, a bio or a definition reads.
func (g *gen) sentence(key string, sc scope, r *gofakeit.Faker) string {
	kn := shape.Fold(key)
	adj := strings.ToLower(r.AdjectiveDescriptive())
	noun := strings.ToLower(r.NounConcrete())
	city, country := "the city", "the country"
	if sc.city != nil {
		city = sc.city.Name
		if k := g.country(sc.city); k != nil {
			country = k.Name
		}
	}
	switch {
	case strings.Contains(kn, "review") || strings.Contains(kn, "comment") || strings.Contains(kn, "feedback") || shape.ClassOf(sc.entity) == shape.ClassReview:
		return pick(r, "Great value and a "+adj+" experience; would come back.", "The staff were friendly, though the "+noun+" could be better.",
			"Exactly as described. Fast delivery and "+adj+" quality.", "Not bad, but a little "+adj+" for the price.", "Loved it — the "+noun+" was the highlight of our stay in "+city+".")
	case kn == "setup" || kn == "question" && shape.ClassOf(sc.entity) == shape.ClassQuote:
		return "Why did the " + noun + " cross the road?"
	case kn == "punchline" || kn == "answer" && shape.ClassOf(sc.entity) == shape.ClassQuote:
		return "To get to the " + adj + " side."
	case kn == "prompt" || kn == "instruction" || kn == "input":
		return fmt.Sprintf(pick(r, "Summarize the history of the %s.", "Write a haiku about a %s.", "Explain how a %s works.", "List three facts about the %s."), noun)
	case kn == "output" || kn == "completion" || kn == "response" || kn == "reply" || kn == "generatedtext" || kn == "result":
		return fmt.Sprintf("The %s is %s; most people know it from %s, where it first became popular.", noun, article(adj), city)
	case strings.Contains(kn, "joke"):
		return "Why did the " + noun + " cross the road? To get to the " + adj + " side."
	case strings.Contains(kn, "quote") || shape.ClassOf(sc.entity) == shape.ClassQuote:
		return pick(r, "The best way to predict the future is to create it.", "Simplicity is the soul of efficiency.",
			"Well done is better than well said.", "What we think, we become.", "Fortune favours the bold.")
	case strings.Contains(kn, "definition") || strings.Contains(kn, "meaning"):
		a := article(adj)
		return strings.ToUpper(a[:1]) + a[1:] + " " + noun + ", or something resembling one."
	case strings.Contains(kn, "bio") || personish(sc.entity):
		return fmt.Sprintf("%s is %s %s from %s, %s.", g.nameOf(sc), article(adj), orDefault(sc.entity, "person"), city, country)
	case strings.Contains(kn, "translat"):
		if t, ok := g.translation(sc, r); ok {
			return t
		}
	case kn == "reason" && g.intent == "validate":
		return pick(r, "Well formed and deliverable", "Passed every check", "Format valid, domain resolves", "Known and active")
	}
	if shape.ClassOf(sc.entity) == shape.ClassArticle {
		title := g.headline(sc, g.rng(sc.seed, "title"))
		return fmt.Sprintf("%s, a spokesperson said on %s. The news was welcomed in %s.", title, g.now.Weekday(), city)
	}
	return g.about(key, sc, r)
}

// article is a word with its indefinite article: "an old", "a new".
func article(w string) string {
	if w != "" && strings.ContainsRune("aeiou", rune(w[0])) {
		return "an " + w
	}
	return "a " + w
}

// status is an object's status, as its kind of thing has them; an
// answer's own status says it succeeded.
func (g *gen) status(sc scope, r *gofakeit.Faker) string {
	switch {
	case g.intent == "health":
		return "ok"
	case g.intent == "create":
		return "created"
	case g.intent == "update":
		return "updated"
	case g.intent == "delete":
		return "deleted"
	case g.intent == "send":
		return "sent"
	case sc.id == "" && sc.depth <= 2:
		return "success"
	}
	switch shape.ClassOf(sc.entity) {
	case shape.ClassMatch:
		return pick(r, "finished", "scheduled", "live", "finished")
	case shape.ClassOrder:
		return pick(r, "completed", "shipped", "pending", "processing")
	case shape.ClassFlight:
		return pick(r, "scheduled", "on time", "delayed", "landed")
	case shape.ClassMessage:
		return pick(r, "delivered", "sent", "read")
	case shape.ClassJob:
		return pick(r, "open", "closed")
	}
	return pick(r, "active", "active", "inactive", "pending")
}

// words are the values of category-like fields, by field name.
var words = map[string][]string{
	"gender":         {"male", "female"},
	"position":       {"Goalkeeper", "Defender", "Midfielder", "Forward"},
	"cuisine":        {"Italian", "Japanese", "Mexican", "Indian", "French", "Thai", "Lebanese", "Spanish"},
	"genre":          {"Drama", "Comedy", "Thriller", "Documentary", "Science Fiction", "Romance", "Animation"},
	"condition":      {"Sunny", "Partly cloudy", "Cloudy", "Light rain", "Clear", "Overcast", "Showers"},
	"industry":       {"Software", "Retail", "Healthcare", "Finance", "Manufacturing", "Logistics", "Media"},
	"partofspeech":   {"noun", "verb", "adjective", "adverb"},
	"employmenttype": {"Full-time", "Part-time", "Contract", "Internship"},
	"format":         {"png", "jpg", "webp", "svg"},
	"linetype":       {"mobile", "landline", "voip"},
	"sentiment":      {"positive", "neutral", "negative", "positive"},
	"region":         {"Europe", "Asia", "Americas", "Africa", "Oceania"},
	"dayofweek":      {"Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"},
	"level":          {"beginner", "intermediate", "advanced"},
	"role":           {"admin", "member", "editor", "viewer"},
	"plan":           {"free", "basic", "pro", "enterprise"},
	"platform":       {"web", "ios", "android"},
	"unit":           {"metric", "imperial"},
	"season":         {"2024/25", "2023/24"},
	"type":           {"standard", "premium", "basic"},
}

// word is the value of a category-like field.
func (g *gen) word(kn string, sc scope, r *gofakeit.Faker) string {
	if ws, ok := words[kn]; ok {
		if kn == "position" && strings.Contains(strings.ToLower(g.hostTool()), "basket") {
			ws = []string{"Guard", "Forward", "Center"}
		}
		return ws[r.IntN(len(ws))]
	}
	for _, s := range wordsBySuffix {
		if strings.HasSuffix(kn, s.suffix) {
			return s.words[r.IntN(len(s.words))]
		}
	}
	return strings.ToLower(r.NounCommon())
}

var wordsBySuffix = []struct {
	suffix string
	words  []string
}{
	{"category", []string{"news", "sports", "technology", "travel", "food", "business", "health"}},
	{"tag", []string{"popular", "new", "featured", "trending", "classic"}},
	{"status", []string{"active", "pending", "closed"}},
}

func (g *gen) hostTool() string {
	if g.api == nil || g.api.Tool == nil {
		return ""
	}
	return g.api.Tool.Name + " " + g.api.Tool.Category
}

// translation is a phrase in the language the arguments ask for (else
// the object's country's): the phrasebook's translation of the text
// given when it has one, else one of its phrases.
func (g *gen) translation(sc scope, r *gofakeit.Faker) (string, bool) {
	if g.w == nil || len(g.w.Phrasebook()) == 0 {
		return "", false
	}
	entries := g.w.Phrasebook()
	target := ""
	for _, k := range []string{"target", "to", "targetlanguage", "targetlang", "tolang", "tl", "lang", "language", "dest"} {
		if s, ok := g.byKey[k].(string); ok && entries[0][strings.ToLower(s)] != "" {
			target = strings.ToLower(s)
			break
		}
	}
	if target == "" {
		if k := g.country(sc.city); k != nil && len(k.Languages) > 0 && entries[0][k.Languages[0]] != "" && k.Languages[0] != "en" {
			target = k.Languages[0]
		} else {
			target = "es"
		}
	}
	for _, k := range []string{"text", "q", "source", "sourcetext", "input", "query", "sentence"} {
		if s, ok := g.byKey[k].(string); ok {
			for _, e := range entries {
				if strings.EqualFold(e["en"], s) {
					return e[target], true
				}
			}
		}
	}
	return entries[r.IntN(len(entries))][target], true
}
