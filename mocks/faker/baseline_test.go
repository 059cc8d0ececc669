package faker_test

// The faker as it was before template responses, error-free examples and
// inferred shapes: the baseline the benchmark and the echo measurement
// compare with, in the same run. Not used otherwise.
import (
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/brianvoe/gofakeit/v7"
	"github.com/getkin/kin-openapi/openapi3"

	"github.com/understudy/understudy/mocks/standin"
	"github.com/understudy/understudy/mocks/world"
)

// Limits that keep the faker bounded on any schema, however odd.
const (
	fakeMaxDepth    = 6 // nesting below which objects and arrays come out empty
	fakeMaxItems    = 5 // array length upper bound
	fakeMaxLength   = 256
	fakeMaxExtraKey = 3 // entries generated from additionalProperties
	// fakeMaxNodes bounds the values one schema generates: depth alone does
	// not, since a cyclic schema with a few array properties per level
	// branches exponentially.
	fakeMaxNodes = 2000
)

// baselineFake answers a call of an API that has no stand-in, deterministically
// from c.Seed. With a documented example response it keeps the example's
// shape and types and varies its leaves (numbers, dates, IDs, URLs keep
// looking like what they are); with only a response schema it generates a
// value from the schema, choosing realistic values by property name and
// format; with neither it answers {"status": "success", "data": <args>}.
// In every case argument values are echoed into matching fields, so a search
// for "Tokyo" answers about Tokyo. It never fails.
func baselineFake(w *world.World, c *standin.Call) any {
	g := newFakeGen(w, c.Seed, c.Now, c.Args)
	if c.API != nil {
		for _, p := range c.API.Params {
			d, ok := p.Default.(string)
			v, given := c.Args[p.Name].(string)
			if ok && given && len(d) >= 3 && strings.TrimSpace(v) != "" && !strings.EqualFold(d, v) {
				g.subst = append(g.subst, [2]string{d, strings.TrimSpace(v)})
			}
		}
		if ex := c.API.ExampleResponse; len(ex) > 0 {
			var v any
			dec := json.NewDecoder(strings.NewReader(string(ex)))
			dec.UseNumber()
			if err := dec.Decode(&v); err == nil && v != nil {
				return g.vary(v, "", 0)
			}
		}
		if s := c.API.Response(); schemaSaysMore(s) {
			return g.gen(s, "", 0)
		}
	}
	data := make(map[string]any, len(c.Args))
	for k, v := range c.Args {
		data[k] = v
	}
	return map[string]any{"status": "success", "data": data}
}

// schemaSaysMore reports whether a schema says more than "some object".
func schemaSaysMore(s *openapi3.Schema) bool {
	if s == nil {
		return false
	}
	if len(s.Properties) > 0 || s.Items != nil || len(s.AllOf)+len(s.OneOf)+len(s.AnyOf) > 0 || len(s.Enum) > 0 || s.Example != nil || s.AdditionalProperties.Schema != nil {
		return true
	}
	if s.Type == nil {
		return false
	}
	for _, t := range s.Type.Slice() {
		if t != "object" && t != "null" {
			return true
		}
	}
	return false
}

// fakeGen is one call's generator: a seeded faker plus what it echoes.
type fakeGen struct {
	f     *gofakeit.Faker
	w     *world.World
	now   time.Time
	byKey map[string]any // normalised argument name → value
	query string         // the argument that reads like a search
	// anchor is the city coordinates and place names are drawn around: the
	// one the arguments name, or one picked by the seed.
	anchor *world.City
	// named says the arguments name the anchor city, so documented
	// coordinates and currencies move to it.
	named bool
	subst [][2]string // documented default → given value
	nodes int         // values generated from a schema so far
}

// fakeQueryArgs are argument names that carry what a call is about, best first.
var fakeQueryArgs = []string{"q", "query", "keyword", "keywords", "search", "searchterm", "term", "text", "prefix", "city", "location", "destination", "address", "name", "title", "topic"}

func newFakeGen(w *world.World, seed uint64, now time.Time, args map[string]any) *fakeGen {
	if seed == 0 {
		seed = 0x5eed // gofakeit treats 0 as "seed from the system"
	}
	g := &fakeGen{f: gofakeit.New(seed), w: w, now: now, byKey: map[string]any{}}
	if g.now.IsZero() {
		g.now = time.Date(2025, time.June, 2, 9, 0, 0, 0, time.UTC)
	}
	names := make([]string, 0, len(args))
	for k := range args {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		if _, taken := g.byKey[fieldKey(k)]; !taken {
			g.byKey[fieldKey(k)] = args[k]
		}
	}
	for _, k := range fakeQueryArgs {
		if s, ok := g.byKey[k].(string); ok && strings.TrimSpace(s) != "" {
			g.query = strings.TrimSpace(s)
			break
		}
	}
	if w != nil {
		if g.query != "" {
			g.anchor, g.named = w.FindCity(g.query)
		}
		if g.anchor == nil {
			for _, k := range []string{"city", "location", "destination", "address"} {
				if s, ok := g.byKey[k].(string); ok {
					if c, ok := w.FindCity(s); ok {
						g.anchor, g.named = c, true
						break
					}
				}
			}
		}
		if g.anchor == nil && len(w.Cities()) > 0 {
			g.anchor = w.Cities()[g.f.IntN(len(w.Cities()))]
		}
	}
	return g
}

// fieldKey folds a field or argument name for matching: "dest_id", "destId"
// and "Dest-ID" are all "destid".
func fieldKey(k string) string {
	var b strings.Builder
	for _, r := range k {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

var (
	fakeQueryKeys = map[string]bool{"q": true, "query": true, "keyword": true, "keywords": true, "search": true, "searchterm": true, "searchquery": true, "term": true}
	fakeCityKeys  = map[string]bool{"city": true, "cityname": true, "town": true, "location": true, "locationname": true, "destination": true}
	// fakeKeepKeys are fields whose documented value is protocol, not content.
	fakeKeepKeys = map[string]bool{"status": true, "statuscode": true, "code": true, "errorcode": true, "success": true, "ok": true, "error": true, "message": true, "version": true, "apiversion": true, "page": true, "pagenumber": true, "currentpage": true, "perpage": true, "pagesize": true, "limit": true, "offset": true, "type": true, "kind": true, "unit": true, "units": true, "currency": true, "currencycode": true, "lang": true, "language": true, "locale": true, "market": true, "timezone": true, "format": true, "method": true, "mimetype": true, "contenttype": true}
)

// echo returns the argument value a string field with this key should carry.
func (g *fakeGen) echo(kn string) (string, bool) {
	if kn == "" {
		return "", false
	}
	switch v := g.byKey[kn].(type) {
	case string:
		if strings.TrimSpace(v) != "" {
			return strings.TrimSpace(v), true
		}
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64), true
	case json.Number:
		return v.String(), true
	}
	if fakeQueryKeys[kn] && g.query != "" {
		return g.query, true
	}
	if fakeCityKeys[kn] && g.anchor != nil && g.query != "" {
		if c, ok := g.w.FindCity(g.query); ok {
			return c.Name, true
		}
	}
	return "", false
}

// echoNumber returns the numeric argument a number field with this key should carry.
func (g *fakeGen) echoNumber(kn string) (float64, bool) {
	switch v := g.byKey[kn].(type) {
	case float64:
		return v, !math.IsNaN(v) && !math.IsInf(v, 0)
	case json.Number:
		f, err := v.Float64()
		return f, err == nil
	}
	return 0, false
}

// ---- varying a documented example ----

func (g *fakeGen) vary(v any, key string, depth int) any {
	kn := fieldKey(key)
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		out := make(map[string]any, len(x))
		for _, k := range keys {
			out[k] = g.vary(x[k], k, depth+1)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = g.vary(e, key, depth+1)
		}
		return out
	case string:
		return g.varyString(kn, x)
	case json.Number:
		return g.varyNumber(kn, string(x))
	case float64:
		return g.varyNumber(kn, strconv.FormatFloat(x, 'f', -1, 64))
	case int:
		return g.varyNumber(kn, strconv.Itoa(x))
	case int64:
		return g.varyNumber(kn, strconv.FormatInt(x, 10))
	}
	return v // bool, nil: flipping them would change meaning
}

func (g *fakeGen) varyNumber(kn, lit string) any {
	if n, ok := g.echoNumber(kn); ok && kn != "" {
		return n
	}
	f, err := strconv.ParseFloat(lit, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return json.Number("0")
	}
	integer := !strings.ContainsAny(lit, ".eE")
	decimals := 0
	if i := strings.IndexByte(lit, '.'); i >= 0 && !strings.ContainsAny(lit, "eE") {
		decimals = min(len(lit)-i-1, 6)
	}
	switch {
	case isLatField(kn) && f >= -90 && f <= 90:
		if g.named {
			f = g.anchor.Lat
		}
		return fakeRound(g.nearLat(f), max(decimals, 4))
	case isLonField(kn) && f >= -180 && f <= 180:
		if g.named {
			f = g.anchor.Lon
		}
		return fakeRound(g.nearLon(f), max(decimals, 4))
	case integer && isTimeField(kn) && (len(lit) == 10 || len(lit) == 13):
		// Unix seconds or milliseconds: move by up to a month, not by 30%.
		unit := int64(1)
		if len(lit) == 13 {
			unit = 1000
		}
		n, _ := strconv.ParseInt(lit, 10, 64)
		return json.Number(strconv.FormatInt(n+int64(g.f.IntRange(-30*86400, 30*86400))*unit, 10))
	case fakeKeepKeys[kn] || kn == "year" || kn == "month" || kn == "day":
		return json.Number(lit)
	case integer && isIDField(kn) && f >= 1:
		digits := len(strings.TrimLeft(lit, "-"))
		return json.Number(g.digits(min(digits, 15)))
	case integer && math.Abs(f) <= 1:
		return json.Number(lit) // flags and tiny counts
	case integer:
		if math.Abs(f) > 1e15 {
			return json.Number(lit)
		}
		n := math.Round(f * (0.7 + 0.6*g.f.Float64()))
		return json.Number(strconv.FormatFloat(n, 'f', 0, 64))
	}
	if keyHas(kn, "rating", "score", "stars") && f >= 0 && f <= 10 {
		hi := 5.0
		if f > 5 {
			hi = 10
		}
		return fakeRound(math.Min(hi, math.Max(0, f+g.f.Float64Range(-1, 1))), max(decimals, 1))
	}
	return fakeRound(f*(0.7+0.6*g.f.Float64()), decimals)
}

// nearLat and nearLon move a coordinate a few kilometres, staying in range.
func (g *fakeGen) nearLat(f float64) float64 {
	return math.Max(-90, math.Min(90, f+g.f.Float64Range(-0.05, 0.05)))
}

func (g *fakeGen) nearLon(f float64) float64 {
	v := f + g.f.Float64Range(-0.05, 0.05)
	if v > 180 {
		v -= 360
	} else if v < -180 {
		v += 360
	}
	return v
}

// fakeRound returns f rounded to d decimals, as a json.Number so that trailing
// digits stay as written.
func fakeRound(f float64, d int) json.Number {
	p := math.Pow(10, float64(d))
	r := math.Round(f*p) / p
	if math.IsNaN(r) || math.IsInf(r, 0) {
		r = 0
	}
	return json.Number(strconv.FormatFloat(r, 'f', -1, 64))
}

var exampleDateLayouts = []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02 15:04:05", time.DateOnly}

func (g *fakeGen) varyString(kn, s string) any {
	if v, ok := g.echo(kn); ok {
		return v
	}
	trimmed := strings.TrimSpace(s)
	if strings.HasPrefix(trimmed, "http://") || strings.HasPrefix(trimmed, "https://") {
		return g.varyURL(g.substitute(s, true))
	}
	if out := g.substitute(s, false); out != s {
		return out
	}
	switch {
	case trimmed == "":
		return s
	case g.named && (kn == "currency" || kn == "currencycode"):
		if _, ok := g.w.Currency(s); ok {
			k, _ := g.w.Country(g.anchor.Country)
			return k.Currency
		}
		return s
	case fakeKeepKeys[kn]:
		return s
	}
	for _, layout := range exampleDateLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			shift := time.Duration(g.f.IntRange(-30, 30))*24*time.Hour + time.Duration(g.f.IntRange(-180, 180))*time.Minute
			if layout == time.DateOnly {
				shift = shift.Truncate(24 * time.Hour)
			}
			return t.Add(shift).Format(layout)
		}
	}
	spaceless := !strings.ContainsFunc(s, unicode.IsSpace)
	switch {
	case spaceless && strings.Count(s, "@") == 1 && strings.Contains(s[strings.IndexByte(s, '@'):], "."):
		return strings.ToLower(g.f.Email())
	case isPhoneField(kn):
		return g.scramble(s, true)
	case spaceless && (isIDField(kn) && utf8.RuneCountInString(s) >= 4 || utf8.RuneCountInString(s) >= 6 && strings.ContainsAny(s, "0123456789")):
		return g.scramble(s, false)
	case fakeCityKeys[kn] && g.w != nil:
		if _, known := g.w.FindCity(s); known && g.anchor != nil {
			return g.anchor.Name
		}
	case isPersonField(kn):
		return g.person(kn)
	}
	return s
}

// substitute replaces documented default values that appear in s with the
// values the call gave: the example was about the default, the answer is
// about the argument. In a URL the value goes in as a slug.
func (g *fakeGen) substitute(s string, slug bool) string {
	for _, sv := range g.subst {
		v := sv[1]
		if slug {
			v = url.PathEscape(strings.ToLower(strings.Join(strings.Fields(v), "-")))
		}
		s = replaceFold(s, sv[0], v)
	}
	return s
}

// replaceFold replaces every case-insensitive occurrence of old in s.
func replaceFold(s, old, new string) string {
	ls, lo := strings.ToLower(s), strings.ToLower(old)
	if len(ls) != len(s) || len(lo) != len(old) || !strings.Contains(ls, lo) {
		return s // case folding changed byte lengths: leave it alone
	}
	var b strings.Builder
	for {
		i := strings.Index(ls, lo)
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i])
		b.WriteString(new)
		s, ls = s[i+len(old):], ls[i+len(old):]
	}
}

// varyURL keeps scheme, host and file extension and re-draws the digits of
// the path and query, so the result still looks like (and parses as) a URL
// of the same site.
func (g *fakeGen) varyURL(s string) string {
	i := strings.Index(s, "://") + 3
	if j := strings.IndexAny(s[i:], "/?#"); j >= 0 {
		return s[:i+j] + g.scrambleDigits(s[i+j:])
	}
	return s
}

// scrambleDigits re-draws the digits of s, leaving percent-escapes intact.
func (g *fakeGen) scrambleDigits(s string) string {
	b := []byte(s)
	for i := 0; i < len(b); i++ {
		switch c := b[i]; {
		case c == '%':
			i += 2
		case c >= '0' && c <= '9':
			b[i] = byte('0' + g.f.IntN(10))
		}
	}
	return string(b)
}

// scramble re-draws the letters and digits of an identifier, keeping each
// character's class (digit, lower, upper; hex letters stay hex), its
// punctuation and its length. digitsOnly leaves letters alone (phone numbers).
func (g *fakeGen) scramble(s string, digitsOnly bool) string {
	hex := true
	for _, r := range s {
		if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'f' || r >= 'A' && r <= 'F' || r == '-') {
			hex = false
			break
		}
	}
	out := []rune(s)
	for i, r := range out {
		switch {
		case r >= '0' && r <= '9':
			d := g.f.IntN(10)
			if i == 0 && r != '0' && d == 0 {
				d = 1 + g.f.IntN(9)
			}
			out[i] = rune('0' + d)
		case digitsOnly:
		case r >= 'a' && r <= 'z':
			if hex {
				out[i] = rune('a' + g.f.IntN(6))
			} else {
				out[i] = rune('a' + g.f.IntN(26))
			}
		case r >= 'A' && r <= 'Z':
			if hex {
				out[i] = rune('A' + g.f.IntN(6))
			} else {
				out[i] = rune('A' + g.f.IntN(26))
			}
		}
	}
	return string(out)
}

func (g *fakeGen) digits(n int) string {
	if n <= 0 {
		n = 1
	}
	b := make([]byte, n)
	for i := range b {
		b[i] = byte('0' + g.f.IntN(10))
	}
	if b[0] == '0' {
		b[0] = byte('1' + g.f.IntN(9))
	}
	return string(b)
}

func (g *fakeGen) person(kn string) string {
	switch {
	case strings.Contains(kn, "first"):
		return g.f.FirstName()
	case strings.Contains(kn, "last") || strings.Contains(kn, "surname"):
		return g.f.LastName()
	case strings.Contains(kn, "user") || strings.Contains(kn, "login") || strings.Contains(kn, "handle"):
		return g.f.Username()
	}
	return g.f.Name()
}

func isLatField(kn string) bool { return kn == "lat" || strings.HasSuffix(kn, "latitude") }

func isLonField(kn string) bool {
	return kn == "lon" || kn == "lng" || kn == "long" || strings.HasSuffix(kn, "longitude")
}

func isIDField(kn string) bool {
	return kn == "id" || strings.HasSuffix(kn, "id") && !strings.HasSuffix(kn, "paid") && !strings.HasSuffix(kn, "valid") ||
		strings.Contains(kn, "uuid") || strings.Contains(kn, "guid") || strings.HasSuffix(kn, "token") || strings.HasSuffix(kn, "hash") || strings.HasSuffix(kn, "cursor")
}

func isTimeField(kn string) bool {
	return keyHas(kn, "time", "date", "created", "updated", "modified", "expires") || strings.HasSuffix(kn, "at")
}

func isPhoneField(kn string) bool {
	return strings.Contains(kn, "phone") || kn == "tel" || kn == "telephone" || strings.Contains(kn, "mobile") || kn == "fax"
}

func isPersonField(kn string) bool {
	switch kn {
	case "author", "firstname", "lastname", "fullname", "surname", "username", "reviewer", "reviewername", "authorname", "owner", "ownername", "contactname", "customername", "login", "handle":
		return true
	}
	return false
}

// ---- generating from a schema ----

// gen generates a value for schema s at field key. Depth bounds recursion,
// so cyclic schemas terminate.
func (g *fakeGen) gen(s *openapi3.Schema, key string, depth int) any {
	kn := fieldKey(key)
	g.nodes++
	if g.nodes > fakeMaxNodes {
		depth = fakeMaxDepth // out of budget: containers come out empty
	}
	if s == nil {
		return g.genString(nil, kn)
	}
	if s.Example != nil && depth <= fakeMaxDepth {
		if b, err := json.Marshal(s.Example); err == nil {
			var v any
			dec := json.NewDecoder(strings.NewReader(string(b)))
			dec.UseNumber()
			if dec.Decode(&v) == nil {
				return g.vary(v, key, depth)
			}
		}
	}
	if len(s.Enum) > 0 {
		return plainJSON(s.Enum[g.f.IntN(len(s.Enum))])
	}
	if s.Const != nil {
		return plainJSON(s.Const)
	}
	// Composition: merge allOf into one object; pick one of oneOf/anyOf.
	if len(s.AllOf) > 0 || len(s.OneOf) > 0 || len(s.AnyOf) > 0 {
		if depth >= fakeMaxDepth {
			return nil
		}
		var parts []any
		own := *s
		own.AllOf, own.OneOf, own.AnyOf = nil, nil, nil
		if schemaSaysMore(&own) {
			parts = append(parts, g.gen(&own, key, depth+1))
		}
		for _, r := range s.AllOf {
			parts = append(parts, g.gen(schemaOf(r), key, depth+1))
		}
		for _, alts := range []openapi3.SchemaRefs{s.OneOf, s.AnyOf} {
			if len(alts) > 0 {
				parts = append(parts, g.gen(schemaOf(alts[g.f.IntN(len(alts))]), key, depth+1))
			}
		}
		return mergeFaked(parts)
	}
	switch fakeType(s, kn) {
	case "object":
		if depth >= fakeMaxDepth {
			return map[string]any{}
		}
		return g.genObject(s, depth)
	case "array":
		if depth >= fakeMaxDepth {
			return []any{}
		}
		lo, hi := 1, fakeMaxItems
		if s.MinItems > 0 {
			lo = int(min(s.MinItems, fakeMaxItems))
		}
		if s.MaxItems != nil {
			hi = int(min(*s.MaxItems, fakeMaxItems))
		}
		if lo > hi {
			lo = hi
		}
		n := lo
		if hi > lo {
			n = g.f.IntRange(lo, hi)
		}
		out := make([]any, n)
		for i := range out {
			out[i] = g.gen(schemaOf(s.Items), key, depth+1)
		}
		return out
	case "integer":
		return g.genNumber(s, kn, true)
	case "number":
		return g.genNumber(s, kn, false)
	case "boolean":
		return g.f.Bool()
	case "null":
		return nil
	}
	return g.genString(s, kn)
}

func (g *fakeGen) genObject(s *openapi3.Schema, depth int) map[string]any {
	out := map[string]any{}
	names := make([]string, 0, len(s.Properties))
	for n := range s.Properties {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		out[n] = g.gen(schemaOf(s.Properties[n]), n, depth+1)
	}
	if len(names) == 0 && s.AdditionalProperties.Schema != nil {
		n := 1 + g.f.IntN(fakeMaxExtraKey)
		for range n {
			k := strings.ToLower(g.f.Noun())
			out[k] = g.gen(schemaOf(s.AdditionalProperties.Schema), k, depth+1)
		}
	}
	return out
}

// fakeType is the JSON type to generate: the first non-null declared type,
// else what the schema's keywords imply, else a guess from the field name.
func fakeType(s *openapi3.Schema, kn string) string {
	if s.Type != nil {
		for _, t := range s.Type.Slice() {
			if t != "null" {
				return t
			}
		}
		if len(s.Type.Slice()) > 0 {
			return "null"
		}
	}
	switch {
	case len(s.Properties) > 0 || s.AdditionalProperties.Schema != nil:
		return "object"
	case s.Items != nil:
		return "array"
	case s.Min != nil || s.Max != nil:
		return "number"
	case isLatField(kn) || isLonField(kn):
		return "number"
	}
	return "string"
}

func schemaOf(r *openapi3.SchemaRef) *openapi3.Schema {
	if r == nil {
		return nil
	}
	return r.Value
}

// mergeFaked combines the values of composed schemas: objects merge (later
// keys win), otherwise the last non-nil value stands.
func mergeFaked(parts []any) any {
	var merged map[string]any
	var last any
	for _, p := range parts {
		if m, ok := p.(map[string]any); ok {
			if merged == nil {
				merged = map[string]any{}
			}
			for k, v := range m {
				merged[k] = v
			}
			continue
		}
		if p != nil {
			last = p
		}
	}
	if merged != nil {
		return merged
	}
	return last
}

// plainJSON turns a schema literal (enum, const) into a JSON value the
// canonical encoder accepts.
func plainJSON(v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	var out any
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.UseNumber()
	if dec.Decode(&out) != nil {
		return nil
	}
	return out
}

func (g *fakeGen) genNumber(s *openapi3.Schema, kn string, integer bool) any {
	if n, ok := g.echoNumber(kn); ok {
		return n
	}
	lo, hi, dec := 1.0, 1000.0, 2
	switch {
	case isLatField(kn):
		lo, hi, dec = -90, 90, 6
		if g.anchor != nil {
			lo, hi = g.anchor.Lat-0.05, g.anchor.Lat+0.05
		}
	case isLonField(kn):
		lo, hi, dec = -180, 180, 6
		if g.anchor != nil {
			lo, hi = g.anchor.Lon-0.05, g.anchor.Lon+0.05
		}
	case keyHas(kn, "price", "amount", "cost", "fare", "total", "salary", "balance", "fee"):
		lo, hi = 5, 1000
	case keyHas(kn, "rating", "score", "stars"):
		lo, hi, dec = 1, 5, 1
	case keyHas(kn, "confidence", "probability"):
		lo, hi, dec = 0, 1, 3
	case keyHas(kn, "percent", "pct", "humidity"):
		lo, hi, dec = 0, 100, 1
	case kn == "year":
		lo, hi = 1990, float64(g.now.Year())
	case kn == "month":
		lo, hi = 1, 12
	case kn == "day":
		lo, hi = 1, 28
	case kn == "hour":
		lo, hi = 0, 23
	case kn == "minute" || kn == "second":
		lo, hi = 0, 59
	case kn == "age":
		lo, hi = 18, 90
	case keyHas(kn, "temp"):
		lo, hi, dec = -10, 40, 1
	case keyHas(kn, "elevation", "altitude"):
		lo, hi = 0, 3000
	case kn == "width" || kn == "height":
		lo, hi = 100, 2000
	case kn == "page":
		lo, hi = 1, 1
	case isIDField(kn):
		lo, hi = 100000, 999999999
	case keyHas(kn, "count", "total", "num", "quantity", "size", "length", "results", "limit"):
		lo, hi = 0, 500
	}
	if s != nil {
		if s.Min != nil && fakeFinite(*s.Min) {
			lo = *s.Min
			if hi < lo {
				hi = lo + 1000
			}
		}
		if s.Max != nil && fakeFinite(*s.Max) {
			hi = *s.Max
			if lo > hi {
				lo = hi - 1000
			}
		}
	}
	lo, hi = math.Max(lo, -1e15), math.Min(hi, 1e15)
	if integer {
		l, h := math.Ceil(lo), math.Floor(hi)
		if l > h {
			return json.Number(strconv.FormatFloat(math.Round(lo), 'f', 0, 64))
		}
		return json.Number(strconv.FormatFloat(l+math.Floor(g.f.Float64()*(h-l+1)), 'f', 0, 64))
	}
	if lo >= hi {
		return fakeRound(lo, dec)
	}
	return fakeRound(g.f.Float64Range(lo, hi), dec)
}

func fakeFinite(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }

func keyHas(kn string, subs ...string) bool {
	for _, s := range subs {
		if strings.Contains(kn, s) {
			return true
		}
	}
	return false
}

func (g *fakeGen) genString(s *openapi3.Schema, kn string) any {
	if v, ok := g.echo(kn); ok {
		return v
	}
	format := ""
	if s != nil {
		format = strings.ToLower(s.Format)
	}
	v := g.stringFor(format, kn)
	if s != nil {
		if s.MaxLength != nil && uint64(utf8.RuneCountInString(v)) > *s.MaxLength {
			v = string([]rune(v)[:*s.MaxLength])
		}
		if need := int(min(s.MinLength, fakeMaxLength)) - utf8.RuneCountInString(v); need > 0 {
			v += strings.ToLower(g.f.LetterN(uint(need)))
		}
	}
	return v
}

func (g *fakeGen) stringFor(format, kn string) string {
	day := g.now.AddDate(0, 0, g.f.IntRange(-30, 30))
	switch format {
	case "date-time":
		return day.Add(time.Duration(g.f.IntN(86400)) * time.Second).UTC().Format(time.RFC3339)
	case "date":
		return day.Format(time.DateOnly)
	case "time":
		return fmt.Sprintf("%02d:%02d:%02d", g.f.IntN(24), g.f.IntN(60), g.f.IntN(60))
	case "email":
		return strings.ToLower(g.f.Email())
	case "uri", "url", "uri-reference", "iri":
		return g.f.URL()
	case "uuid":
		return g.f.UUID()
	case "hostname":
		return g.f.DomainName()
	case "ipv4":
		return g.f.IPv4Address()
	case "ipv6":
		return g.f.IPv6Address()
	case "byte":
		return "aGVsbG8gd29ybGQ="
	}
	city := g.anchor
	switch {
	case strings.Contains(kn, "email"):
		return strings.ToLower(g.f.Email())
	case keyHas(kn, "image", "photo", "thumbnail", "avatar", "logo", "icon", "picture", "thumb"):
		return fmt.Sprintf("https://images.%s/%s.jpg", g.f.DomainName(), strings.ToLower(g.f.LetterN(12)))
	case strings.HasSuffix(kn, "url") || strings.HasSuffix(kn, "uri") || keyHas(kn, "link", "href", "website"):
		return g.f.URL()
	case keyHas(kn, "uuid", "guid"):
		return g.f.UUID()
	case isIDField(kn):
		return strings.ToLower(g.f.LetterN(4)) + g.digits(8)
	case isPhoneField(kn):
		return g.f.PhoneFormatted()
	case isPersonField(kn):
		return g.person(kn)
	case keyHas(kn, "country") && city != nil && g.w != nil:
		k, _ := g.w.Country(city.Country)
		if keyHas(kn, "code", "iso") {
			return k.Alpha2
		}
		return k.Name
	case (fakeCityKeys[kn] || keyHas(kn, "city")) && city != nil:
		return city.Name
	case keyHas(kn, "currency"):
		if city != nil && g.w != nil {
			k, _ := g.w.Country(city.Country)
			return k.Currency
		}
		return "USD"
	case keyHas(kn, "timezone") || kn == "tz":
		if city != nil {
			return city.TimeZone
		}
		return "UTC"
	case kn == "lang" || keyHas(kn, "language", "locale"):
		return "en"
	case keyHas(kn, "address", "street"):
		s := g.f.Street()
		if city != nil {
			s += ", " + city.Name
		}
		return s
	case keyHas(kn, "zip", "postal", "postcode"):
		return g.f.Zip()
	case kn == "state" || keyHas(kn, "region", "province"):
		if city != nil {
			return city.Region
		}
		return g.f.State()
	case keyHas(kn, "company", "organization", "organisation", "brand", "publisher", "vendor", "source"):
		return g.f.Company()
	case keyHas(kn, "description", "summary", "text", "content", "body", "comment", "review", "snippet", "bio", "about", "details", "message"):
		return g.f.Sentence()
	case keyHas(kn, "date"):
		return day.Format(time.DateOnly)
	case keyHas(kn, "time", "timestamp", "created", "updated", "modified") || strings.HasSuffix(kn, "at"):
		return day.Add(time.Duration(g.f.IntN(86400)) * time.Second).UTC().Format(time.RFC3339)
	case keyHas(kn, "color", "colour"):
		return g.f.Color()
	case kn == "ip" || keyHas(kn, "ipaddress"):
		return g.f.IPv4Address()
	case keyHas(kn, "domain", "host"):
		return g.f.DomainName()
	case kn == "status":
		return "success"
	case kn == "version":
		return fmt.Sprintf("%d.%d.%d", 1+g.f.IntN(3), g.f.IntN(10), g.f.IntN(20))
	case kn == "code":
		return strings.ToUpper(g.f.LetterN(3))
	case kn == "name" || kn == "title" || keyHas(kn, "headline", "label"):
		if g.query != "" {
			return g.query + " " + fakeTitle(g.f.Noun())
		}
		if kn == "name" {
			return g.f.Company()
		}
		return strings.TrimSuffix(g.f.Sentence(), ".")
	}
	return g.f.Adjective() + " " + g.f.Noun()
}

func fakeTitle(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if n == 0 {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}
