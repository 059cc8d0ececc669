package faker

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/brianvoe/gofakeit/v7"

	"github.com/understudy/understudy/mocks/faker/shape"
	"github.com/understudy/understudy/mocks/world"
)

// value makes a value of a kind for a field, of the node's type.
func (g *gen) value(k shape.Kind, n *node, key, kn string, sc scope, r *gofakeit.Faker) any {
	typ := n.typ
	if typ == "" {
		typ = k.JSONType()
	}
	if n.format != "" {
		if v, ok := g.formatted(n.format, sc, r); ok {
			return asType(v, typ)
		}
	}
	return asType(g.meaning(k, key, kn, typ, sc, r), typ)
}

// formatted is a value of a schema string format.
func (g *gen) formatted(format string, sc scope, r *gofakeit.Faker) (any, bool) {
	switch format {
	case "date-time":
		return g.dateTime(r, 30).Format(time.RFC3339), true
	case "date":
		return g.dateTime(r, 30).Format(time.DateOnly), true
	case "time":
		return fmt.Sprintf("%02d:%02d:%02d", r.IntN(24), r.IntN(60), r.IntN(60)), true
	case "email":
		p := g.person(sc, "")
		return p.email(g.host), true
	case "uri", "url", "uri-reference", "iri":
		return g.url(sc, "", r), true
	case "uuid":
		return r.UUID(), true
	case "hostname":
		return g.host, true
	case "ipv4":
		return r.IPv4Address(), true
	case "ipv6":
		return r.IPv6Address(), true
	case "byte":
		return "aGVsbG8gd29ybGQ=", true
	}
	return nil, false
}

// meaning makes the value a field of kind k holds.
func (g *gen) meaning(k shape.Kind, key, kn, typ string, sc scope, r *gofakeit.Faker) any {
	city := sc.city
	switch kn {
	case "get", "endpoint":
		if typ == "string" || typ == "" {
			return slugify(shape.Plural(orDefault(g.entity, "item")))
		}
	case "result", "converted", "convertedamount", "convertedvalue", "conversionresult", "newamount", "convertedprice":
		if typ != "string" && typ != "boolean" {
			if v, ok := g.converted(); ok {
				return v
			}
		}
	}
	switch k {
	case shape.ID:
		return g.id(kn, typ, sc, r)
	case shape.UUID:
		return r.UUID()
	case shape.Hash:
		return hexString(r, 40)
	case shape.Token:
		return base62(r, 32)
	case shape.Slug:
		return slugify(g.nameOf(sc))
	case shape.Code:
		if typ != "string" {
			return 200
		}
		return strings.ToUpper(r.LetterN(3))
	case shape.Name:
		return g.name(key, sc, r)
	case shape.PersonName:
		return g.person(sc, personSlot(key)).full()
	case shape.FirstName:
		return g.person(sc, personSlot(key)).first
	case shape.LastName:
		return g.person(sc, personSlot(key)).last
	case shape.Username:
		return g.person(sc, personSlot(key)).username()
	case shape.Email:
		return g.person(sc, personSlot(key)).email(g.host)
	case shape.Phone:
		return g.phone(city, r)
	case shape.Title:
		return g.title(sc, r)
	case shape.Description:
		return g.sentence(key, sc, r)
	case shape.Message:
		switch kn {
		case "error", "errors", "errormessage":
			return ""
		case "message", "msg", "statusmessage":
			if sc.depth <= 1 && sc.id == "" {
				if g.intent == "health" {
					return "pong: the service is up"
				}
				return "Request processed successfully"
			}
		}
		return g.sentence(key, sc, r)
	case shape.Status:
		return g.status(sc, r)
	case shape.Word:
		return g.word(kn, sc, r)
	case shape.Gender:
		return pick(r, "male", "female")
	case shape.City:
		if city != nil {
			return city.Name
		}
		return r.City()
	case shape.Country:
		if c := g.country(city); c != nil {
			return c.Name
		}
		return r.Country()
	case shape.CountryCode:
		if c := g.country(city); c != nil {
			if strings.Contains(kn, "3") {
				return c.Alpha3
			}
			return c.Alpha2
		}
		return r.CountryAbr()
	case shape.Region:
		if city != nil && city.Region != "" {
			return city.Region
		}
		return r.State()
	case shape.Address:
		return g.address(kn, sc, r)
	case shape.Zip:
		return r.Zip()
	case shape.Lat:
		if city != nil {
			return round(city.Lat+r.Float64Range(-0.05, 0.05), 6)
		}
		return round(r.Float64Range(-60, 70), 6)
	case shape.Lon:
		if city != nil {
			return round(city.Lon+r.Float64Range(-0.05, 0.05), 6)
		}
		return round(r.Float64Range(-180, 180), 6)
	case shape.TimeZone:
		if city != nil {
			return city.TimeZone
		}
		return "UTC"
	case shape.Language:
		if shape.ClassOf(sc.entity) == shape.ClassLanguage && g.w != nil && len(g.w.Languages()) > 0 {
			// A list of languages: each object is one language.
			l := g.w.Languages()[int(mix(sc.seed, "language")%uint64(len(g.w.Languages())))]
			switch {
			case strings.Contains(kn, "native"):
				return l.NativeName
			case strings.Contains(kn, "name"):
				return l.Name
			}
			return l.Code
		}
		if c := g.country(city); c != nil && len(c.Languages) > 0 {
			if strings.Contains(kn, "name") && g.w != nil {
				if l, ok := g.w.Language(c.Languages[0]); ok {
					return l.Name
				}
			}
			return c.Languages[0]
		}
		return "en"
	case shape.Currency:
		return g.currencyOf(city)
	case shape.URL:
		return g.url(sc, kn, r)
	case shape.Image:
		ext := "jpg"
		if strings.Contains(kn, "logo") || strings.Contains(kn, "icon") || strings.Contains(kn, "flag") {
			ext = "png"
		}
		return fmt.Sprintf("https://%s/images/%s/%s.%s", g.host, slugify(orDefault(sc.entity, "item")), hexString(r, 16), ext)
	case shape.Domain:
		return slugify(g.company(r)) + "." + pick(r, "com", "io", "net", "org", "co")
	case shape.IP:
		return r.IPv4Address()
	case shape.MIME:
		return pick(r, "application/pdf", "image/png", "image/jpeg", "text/csv", "application/json", "video/mp4")
	case shape.FileName:
		return fmt.Sprintf("%s_%s.%s", strings.ToLower(r.Noun()), strings.ToLower(r.Noun()), pick(r, "pdf", "png", "csv", "docx", "jpg", "zip"))
	case shape.Color:
		if kn == "hex" || strings.HasSuffix(kn, "hex") {
			return r.HexColor()
		}
		return strings.ToLower(r.SafeColor())
	case shape.Version:
		return fmt.Sprintf("%d.%d.%d", 1+r.IntN(4), r.IntN(10), r.IntN(20))
	case shape.Symbol:
		return g.symbol(sc, r)
	case shape.ISBN:
		return isbn13(r)
	case shape.IATA:
		return g.airport(city, r)
	case shape.FlightNumber:
		return fmt.Sprintf("%s%d", strings.ToUpper(r.LetterN(2)), 100+r.IntN(9800))
	case shape.Date:
		return g.dateTime(r, 30).Format(time.DateOnly)
	case shape.DateTime:
		return g.dateTime(r, 30).Format(time.RFC3339)
	case shape.Time:
		return fmt.Sprintf("%02d:%02d", r.IntN(24), 5*r.IntN(12))
	case shape.Timestamp:
		t := g.dateTime(r, 30).Unix()
		if strings.HasSuffix(kn, "ms") || strings.Contains(kn, "milli") {
			return t * 1000
		}
		return t
	case shape.BirthDate:
		age := 18 + r.IntN(50)
		if g.sporty(sc) {
			age = 18 + r.IntN(19)
		}
		return g.now.AddDate(-age, -r.IntN(12), -r.IntN(28)).Format(time.DateOnly)
	case shape.Year:
		switch {
		case strings.Contains(kn, "found") || strings.Contains(kn, "establish") || strings.Contains(kn, "built"):
			return 1850 + r.IntN(170)
		case strings.Contains(kn, "season"):
			return g.now.Year() - r.IntN(2)
		}
		return g.now.Year() - r.IntN(30)
	case shape.Month:
		return 1 + r.IntN(12)
	case shape.Day:
		return 1 + r.IntN(28)
	case shape.Hour:
		return r.IntN(24)
	case shape.Minute:
		return r.IntN(60)
	case shape.Duration:
		return g.duration(kn, typ, sc, r)
	case shape.Price:
		return g.price(kn, sc, r)
	case shape.Rate:
		return g.rate(key, r)
	case shape.Change:
		return round(r.Float64Range(-5, 5), 2)
	case shape.Percent:
		if strings.Contains(kn, "change") {
			return round(r.Float64Range(-10, 10), 2)
		}
		return round(r.Float64Range(0, 100), 1)
	case shape.Probability:
		return round(r.Float64Range(0.5, 1), 3)
	case shape.Rating:
		if strings.Contains(kn, "star") {
			return 2 + r.IntN(4)
		}
		return round(r.Float64Range(3, 5), 1)
	case shape.Score:
		switch {
		case typ == "string" && shape.ClassOf(sc.entity) == shape.ClassMatch:
			return fmt.Sprintf("%d-%d", r.IntN(5), r.IntN(4))
		case strings.Contains(kn, "review") || strings.Contains(kn, "guest"):
			return round(r.Float64Range(6, 10), 1)
		case strings.Contains(kn, "point") || strings.Contains(kn, "pts"):
			return r.IntN(100)
		}
		return round(r.Float64Range(0, 100), 1)
	case shape.Count:
		return g.count(kn, sc, r)
	case shape.Rank:
		if strings.Contains(kn, "number") || strings.Contains(kn, "jersey") || strings.Contains(kn, "shirt") {
			return 1 + r.IntN(99)
		}
		return 1 + r.IntN(50)
	case shape.Page:
		return 1
	case shape.Limit:
		if g.limit > 0 {
			return g.limit
		}
		return 10
	case shape.Age:
		if g.sporty(sc) {
			return 18 + r.IntN(19)
		}
		return 18 + r.IntN(60)
	case shape.Temperature:
		if strings.HasSuffix(kn, "f") || strings.Contains(kn, "fahrenheit") {
			return round(r.Float64Range(40, 95), 1)
		}
		return round(r.Float64Range(4, 32), 1)
	case shape.Humidity:
		return r.IntN(70) + 25
	case shape.Wind:
		return round(r.Float64Range(0, 35), 1)
	case shape.Pressure:
		return 990 + r.IntN(40)
	case shape.Distance:
		return round(r.Float64Range(0.5, 800), 1)
	case shape.Size:
		return 1024 + r.IntN(10<<20)
	case shape.Dimension:
		if personish(sc.entity) {
			if strings.Contains(kn, "height") {
				return 160 + r.IntN(45)
			}
		}
		return 200 + 20*r.IntN(190)
	case shape.Weight:
		if personish(sc.entity) {
			return 55 + r.IntN(50)
		}
		return round(r.Float64Range(0.1, 40), 2)
	case shape.Elevation:
		if city != nil {
			return city.Elevation
		}
		return r.IntN(3000)
	case shape.Population:
		if city != nil && sc.entity != "country" {
			return city.Population
		}
		return 10000 + r.IntN(50000000)
	case shape.Volume:
		return 10000 + r.IntN(900000000)
	case shape.MarketCap:
		return float64(1+r.IntN(999)) * 1e6 * float64(1+r.IntN(1000))
	case shape.Calories:
		return 80 + r.IntN(820)
	case shape.Hashtag, shape.CurrencySign, shape.Company, shape.VIN, shape.Capital:
		return g.domainValue(k, kn, sc, r)
	case shape.Bool:
		return g.boolean(kn, r)
	case shape.Int:
		return r.IntN(1000)
	case shape.Number:
		return round(r.Float64Range(1, 1000), 2)
	}
	return g.text(key, kn, sc, r)
}

// personish reports whether an entity is a person.
func personish(entity string) bool {
	c := shape.ClassOf(entity)
	return c == shape.ClassPerson || c == shape.ClassUser
}

// asType makes a value of a field's type: a number documented as text is
// written as text, an integer rounded.
func asType(v any, typ string) any {
	switch typ {
	case "string":
		switch x := v.(type) {
		case int:
			return strconv.Itoa(x)
		case int64:
			return strconv.FormatInt(x, 10)
		case float64:
			return strconv.FormatFloat(x, 'f', -1, 64)
		case json.Number:
			return x.String()
		case bool:
			return strconv.FormatBool(x)
		}
	case "integer":
		switch x := v.(type) {
		case float64:
			return int64(math.Round(x))
		case json.Number:
			if strings.ContainsAny(x.String(), ".eE") {
				if f, err := x.Float64(); err == nil {
					return int64(math.Round(f))
				}
			}
		case string:
			if f, err := strconv.ParseFloat(x, 64); err == nil {
				return int64(math.Round(f))
			}
			return len(x)
		case bool:
			if x {
				return 1
			}
			return 0
		}
	case "number":
		switch x := v.(type) {
		case int:
			return float64(x)
		case int64:
			return float64(x)
		case string:
			if f, err := strconv.ParseFloat(x, 64); err == nil {
				return f
			}
			return float64(len(x))
		case bool:
			if x {
				return 1.0
			}
			return 0.0
		}
	case "boolean":
		switch x := v.(type) {
		case bool:
			return x
		case string:
			return x != ""
		default:
			return true
		}
	}
	return v
}

// id is an identifier: digits when it is a number or a later call takes
// it as one, else in the tool's style (numeric text, a 24-digit hex
// object id, 11 base-62 characters, or a prefixed key).
func (g *gen) id(kn, typ string, sc scope, r *gofakeit.Faker) any {
	if typ == "integer" || typ == "number" {
		return 100000 + r.IntN(9900000)
	}
	if g.plan.numeric[kn] {
		return strconv.Itoa(100000 + r.IntN(9900000))
	}
	switch g.plan.idStyle {
	case 0:
		return strconv.Itoa(1000000 + r.IntN(98999999))
	case 1:
		return hexString(r, 24)
	case 2:
		return base62(r, 11)
	}
	prefix := "obj"
	if e := sc.entity; e != "" && e != "item" {
		prefix = e
		if len(prefix) > 3 {
			prefix = prefix[:3]
		}
	}
	return prefix + "_" + strings.ToLower(base62(r, 12))
}

const base62Digits = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

func base62(r *gofakeit.Faker, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = base62Digits[r.IntN(len(base62Digits))]
	}
	return string(b)
}

func hexString(r *gofakeit.Faker, n int) string {
	const digits = "0123456789abcdef"
	b := make([]byte, n)
	for i := range b {
		b[i] = digits[r.IntN(16)]
	}
	return string(b)
}

func pick(r *gofakeit.Faker, options ...string) string { return options[r.IntN(len(options))] }

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// round is f rounded to d decimals, as a JSON number with no trailing noise.
func round(f float64, d int) json.Number {
	p := math.Pow(10, float64(d))
	v := math.Round(f*p) / p
	if math.IsNaN(v) || math.IsInf(v, 0) {
		v = 0
	}
	return json.Number(strconv.FormatFloat(v, 'f', -1, 64))
}

// isbn13 is a valid ISBN-13.
func isbn13(r *gofakeit.Faker) string {
	d := []int{9, 7, 8}
	for range 9 {
		d = append(d, r.IntN(10))
	}
	sum := 0
	for i, x := range d {
		if i%2 == 0 {
			sum += x
		} else {
			sum += 3 * x
		}
	}
	d = append(d, (10-sum%10)%10)
	var b strings.Builder
	for _, x := range d {
		b.WriteByte(byte('0' + x))
	}
	return b.String()
}

func slugify(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		switch {
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			b.WriteRune(r)
			dash = false
		case !dash && b.Len() > 0:
			b.WriteByte('-')
			dash = true
		}
	}
	return strings.TrimSuffix(b.String(), "-")
}

// dateTime is a moment within days of the sandbox clock, on the minute.
func (g *gen) dateTime(r *gofakeit.Faker, days int) time.Time {
	return g.now.UTC().Truncate(time.Minute).Add(time.Duration(r.IntRange(-days*24*60, days*24*60)) * time.Minute)
}

func (g *gen) country(c *world.City) *world.Country {
	if c == nil || g.w == nil {
		return nil
	}
	k, ok := g.w.Country(c.Country)
	if !ok {
		return nil
	}
	return k
}

// currencyOf is the currency prices are in: the one the arguments name,
// else the city's country's.
func (g *gen) currencyOf(c *world.City) string {
	if g.currency != "" {
		return g.currency
	}
	if k := g.country(c); k != nil && k.Currency != "" {
		return k.Currency
	}
	return "USD"
}

// price is an amount in the object's currency, in a range the field and
// the entity make plausible (a night in a hotel, a flight, a salary).
func (g *gen) price(kn string, sc scope, r *gofakeit.Faker) any {
	lo, hi := 5.0, 500.0
	switch cls := shape.ClassOf(sc.entity); {
	case strings.Contains(kn, "salary") || strings.Contains(kn, "income") || strings.Contains(kn, "revenue") || cls == shape.ClassJob:
		lo, hi = 30000, 160000
	case strings.Contains(kn, "marketvalue") || strings.Contains(kn, "transfer") || cls == shape.ClassTransfer:
		lo, hi = 500000, 80000000
	case cls == shape.ClassHotel:
		lo, hi = 60, 450
	case cls == shape.ClassFlight:
		lo, hi = 60, 1400
	case cls == shape.ClassInstrument:
		lo, hi = 0.5, 4000
	case sc.entity == "car" || sc.entity == "vehicle":
		lo, hi = 6000, 90000
	case sc.entity == "property" || sc.entity == "house" || sc.entity == "apartment" || sc.entity == "home":
		lo, hi = 90000, 2500000
	}
	cur := g.currencyOf(sc.city)
	perUSD, decimals := 1.0, 2
	if g.w != nil {
		if c, ok := g.w.Currency(cur); ok && c.PerUSD > 0 {
			perUSD, decimals = c.PerUSD, c.Decimals
		}
	}
	return round(r.Float64Range(lo, hi)*perUSD, decimals)
}

// rate is an exchange rate: the world's, when the field is a currency
// code (a "rates" member) and the arguments name a base; else a rate
// between the currencies the arguments name; else a plausible one.
func (g *gen) rate(key string, r *gofakeit.Faker) any {
	base := g.currency
	if base == "" {
		base = "USD"
	}
	if g.w != nil {
		to := strings.ToUpper(key)
		if _, ok := g.w.Currency(to); !ok {
			to = ""
			for _, k := range []string{"to", "tocurrency", "target", "want", "quote"} {
				if s, ok := g.byKey[k].(string); ok {
					if _, ok := g.w.Currency(strings.ToUpper(s)); ok {
						to = strings.ToUpper(s)
						break
					}
				}
			}
			for _, k := range []string{"from", "fromcurrency", "base", "have", "source"} {
				if s, ok := g.byKey[k].(string); ok {
					if _, ok := g.w.Currency(strings.ToUpper(s)); ok {
						base = strings.ToUpper(s)
						break
					}
				}
			}
		}
		if to != "" {
			if v, err := g.w.Rate(base, to); err == nil {
				return round(v, 6)
			}
		}
	}
	return round(r.Float64Range(0.5, 2), 4)
}

// converted is the result of converting the arguments' amount, when they
// name an amount and two currencies the world knows.
func (g *gen) converted() (any, bool) {
	if g.w == nil {
		return nil, false
	}
	var amount float64
	found := false
	for _, k := range []string{"amount", "value", "quantity", "sum", "money"} {
		if f, ok := number(g.byKey[k]); ok {
			amount, found = f, true
			break
		}
	}
	if !found {
		return nil, false
	}
	var from, to string
	for _, k := range []string{"from", "fromcurrency", "base", "have", "source"} {
		if s, ok := g.byKey[k].(string); ok {
			from = strings.ToUpper(s)
			break
		}
	}
	for _, k := range []string{"to", "tocurrency", "target", "want", "quote"} {
		if s, ok := g.byKey[k].(string); ok {
			to = strings.ToUpper(s)
			break
		}
	}
	v, err := g.w.Convert(amount, from, to)
	if err != nil {
		return nil, false
	}
	dec := 2
	if c, ok := g.w.Currency(to); ok {
		dec = c.Decimals
	}
	return round(v, dec), true
}

func (g *gen) count(kn string, sc scope, r *gofakeit.Faker) any {
	switch {
	case strings.Contains(kn, "total") || strings.Contains(kn, "results") || kn == "count" || kn == "hits":
		return 12 + r.IntN(480)
	case strings.Contains(kn, "view") || strings.Contains(kn, "follower") || strings.Contains(kn, "subscriber") || strings.Contains(kn, "play") || strings.Contains(kn, "stream") || strings.Contains(kn, "download") || strings.Contains(kn, "listener") || strings.Contains(kn, "impression"):
		return 1000 + r.IntN(5000000)
	case strings.Contains(kn, "like") || strings.Contains(kn, "share") || strings.Contains(kn, "comment") || strings.Contains(kn, "review") || strings.Contains(kn, "vote"):
		return r.IntN(20000)
	case strings.Contains(kn, "employee") || strings.Contains(kn, "member") || strings.Contains(kn, "capacity") || strings.Contains(kn, "attendance"):
		return 20 + r.IntN(80000)
	case g.sporty(sc):
		return r.IntN(40)
	case strings.Contains(kn, "page"):
		return 1 + r.IntN(30)
	}
	return r.IntN(500)
}

func (g *gen) duration(kn, typ string, sc scope, r *gofakeit.Faker) any {
	cls := shape.ClassOf(sc.entity)
	var seconds int
	switch {
	case cls == shape.ClassMovie || strings.Contains(kn, "runtime"):
		seconds = (80 + r.IntN(100)) * 60
	case cls == shape.ClassSong || cls == shape.ClassAlbum:
		seconds = 120 + r.IntN(240)
	case cls == shape.ClassVideo:
		seconds = 30 + r.IntN(3600)
	case cls == shape.ClassRecipe || strings.Contains(kn, "prep") || strings.Contains(kn, "cook"):
		seconds = (5 + r.IntN(90)) * 60
	default:
		seconds = (1 + r.IntN(180)) * 60
	}
	if typ == "string" {
		h, m, s := seconds/3600, seconds/60%60, seconds%60
		if h > 0 {
			return fmt.Sprintf("%dh %02dm", h, m)
		}
		return fmt.Sprintf("%d:%02d", m, s)
	}
	switch {
	case strings.HasSuffix(kn, "ms") || strings.Contains(kn, "milli"):
		return seconds * 1000
	case strings.Contains(kn, "sec") || cls == shape.ClassSong || cls == shape.ClassVideo || cls == shape.ClassAlbum:
		return seconds
	case strings.Contains(kn, "hour"):
		return max(1, seconds/3600)
	}
	return max(1, seconds/60)
}

func (g *gen) boolean(kn string, r *gofakeit.Faker) bool {
	switch kn {
	case "success", "ok", "valid", "isvalid", "available", "active", "isactive", "enabled", "verified", "deleted", "instock", "open", "isopen", "exists", "found", "mxfound", "deliverable", "ssl", "isreliable":
		return true
	case "error", "failed", "iserror", "disposable", "isdisposable", "deprecated", "blocked", "spam", "isspam", "nsfw", "explicit", "private", "isprivate", "fake", "isfake":
		return false
	}
	return r.IntN(2) == 0
}

func (g *gen) sporty(sc scope) bool {
	if g.api == nil || g.api.Tool == nil {
		return false
	}
	cat := strings.ToLower(g.api.Tool.Category)
	return strings.Contains(cat, "sport") && personish(sc.entity)
}

func (g *gen) phone(c *world.City, r *gofakeit.Faker) string {
	code := "+1"
	if k := g.country(c); k != nil && k.CallingCode != "" {
		code = k.CallingCode
	}
	return fmt.Sprintf("%s %d %03d %04d", code, 2+r.IntN(8), r.IntN(1000), r.IntN(10000))
}

func (g *gen) airport(c *world.City, r *gofakeit.Faker) string {
	if c != nil && len(c.Airports) > 0 {
		return c.Airports[r.IntN(len(c.Airports))]
	}
	return strings.ToUpper(r.LetterN(3))
}

// address is a street address in the object's city, or for a "location"
// the city and its country.
func (g *gen) address(kn string, sc scope, r *gofakeit.Faker) string {
	c := sc.city
	if c == nil {
		return r.Street()
	}
	if shape.ClassOf(sc.entity) == shape.ClassFlight && (kn == "origin" || kn == "destination" || kn == "from" || kn == "to") {
		return g.airport(c, r)
	}
	country := ""
	if k := g.country(c); k != nil {
		country = k.Name
	}
	switch kn {
	case "location", "place", "origin", "destination":
		return c.Name + ", " + country
	}
	return fmt.Sprintf("%d %s, %s, %s", 1+r.IntN(250), r.StreetName()+" "+r.StreetSuffix(), c.Name, country)
}

// url is a link on the tool's host to the object.
func (g *gen) url(sc scope, kn string, r *gofakeit.Faker) string {
	id := sc.id
	if id == "" {
		id = strings.ToLower(base62(r, 10))
	}
	if strings.Contains(kn, "website") || strings.Contains(kn, "homepage") {
		return "https://www." + slugify(g.nameOf(sc)) + ".com"
	}
	return fmt.Sprintf("https://%s/%s/%s", g.host, slugify(shape.Plural(orDefault(sc.entity, "item"))), slugify(id))
}

func (g *gen) symbol(sc scope, r *gofakeit.Faker) string {
	if g.cryptoish() {
		return pick(r, "BTC", "ETH", "SOL", "ADA", "DOT", "LTC", "LINK", "XLM", "AVAX", "MATIC")
	}
	return strings.ToUpper(r.LetterN(uint(3 + r.IntN(2))))
}

func (g *gen) cryptoish() bool {
	if g.api == nil || g.api.Tool == nil {
		return false
	}
	t := strings.ToLower(g.api.Tool.Name + " " + g.api.Tool.Category)
	return strings.Contains(t, "crypto") || strings.Contains(t, "coin") || strings.Contains(t, "blockchain")
}
