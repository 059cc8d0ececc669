package faker

import (
	"fmt"
	"strings"

	"github.com/brianvoe/gofakeit/v7"

	"github.com/understudy/understudy/mocks/faker/shape"
)

// Vocabularies of fields whose values are a domain's words.
var (
	hashtags    = []string{"travel", "foodie", "photography", "fitness", "music", "tech", "fashion", "nature", "art", "football", "design", "startup", "crypto", "gaming", "books", "coffee", "summer", "weekend", "love", "instagood"}
	gameTitles  = []string{"Counter-Strike 2", "Dota 2", "League of Legends", "Valorant", "Fortnite", "Rocket League", "Overwatch 2", "Apex Legends", "StarCraft II", "Chess", "FIFA 25", "Street Fighter 6"}
	conferences = []string{"Eastern Conference", "Western Conference"}
	divisions   = []string{"Atlantic", "Central", "Southeast", "Northwest", "Pacific", "Southwest"}
	sentiments  = []string{"positive", "neutral", "negative", "positive", "mixed"}
	weathers    = []string{"Sunny", "Partly cloudy", "Cloudy", "Light rain", "Clear", "Overcast", "Showers"}
	moods       = []string{"happy", "calm", "excited", "sad", "angry", "surprised"}
	vinChars    = "ABCDEFGHJKLMNPRSTUVWXYZ0123456789"
)

func init() {
	words["conference"] = conferences
	words["division"] = divisions
	words["sentiment"] = sentiments
	words["weather"] = weathers
	words["mood"], words["emotion"] = moods, moods
	words["game"] = gameTitles
}

// domainValue is a value of a field of a domain vocabulary.
func (g *gen) domainValue(k shape.Kind, kn string, sc scope, r *gofakeit.Faker) any {
	switch k {
	case shape.Hashtag:
		topic := hashtags[r.IntN(len(hashtags))]
		if w := g.topicWord(); w != "" && r.IntN(2) == 0 {
			topic = w
		}
		return "#" + topic
	case shape.CurrencySign:
		code := g.currencyOf(sc.city)
		if g.w != nil {
			if c, ok := g.w.Currency(code); ok && c.Symbol != "" {
				return c.Symbol
			}
		}
		return pick(r, "$", "€", "£", "¥")
	case shape.Company:
		return g.company(r)
	case shape.VIN:
		var b strings.Builder
		for range 17 {
			b.WriteByte(vinChars[r.IntN(len(vinChars))])
		}
		return b.String()
	case shape.Capital:
		if c := g.country(sc.city); c != nil && c.Capital != "" {
			return c.Capital
		}
		if sc.city != nil {
			return sc.city.Name
		}
		return r.City()
	}
	return g.text(kn, kn, sc, r)
}

// topicWord is a word of the tool's name that says what it is about
// ("recipes" of "Tasty Recipes API"), as a hashtag's text.
func (g *gen) topicWord() string {
	if g.api == nil || g.api.Tool == nil {
		return ""
	}
	for _, w := range shape.Words(g.api.Tool.Name) {
		switch w {
		case "api", "apis", "pro", "plus", "v1", "v2", "v3", "data", "info", "hub", "now", "the", "free", "get", "io", "net", "com":
			continue
		}
		if len(w) >= 4 {
			return w
		}
	}
	return ""
}

// text is the value of a string field the faker knows nothing more
// about: what its name names, in its object's context — a list of bare
// strings under "languages" holds languages, "from" of a conversion is
// a currency, "value" of a record a value.
func (g *gen) text(key, kn string, sc scope, r *gofakeit.Faker) string {
	if ws, ok := words[kn]; ok {
		return ws[r.IntN(len(ws))]
	}
	switch kn {
	case "from", "to", "source", "target", "base", "quote":
		switch {
		case g.currencyish():
			return g.currencyOf(sc.city)
		case shape.ClassOf(sc.entity) == shape.ClassMessage || strings.Contains(g.hostTool(), "mail"):
			return g.person(sc, kn).email(g.host)
		}
		if sc.city != nil {
			return sc.city.Name
		}
	case "value", "val", "data", "result", "output":
		return g.person(sc, "").first + "-" + fmt.Sprint(100+r.IntN(900))
	}
	ws := shape.Words(key)
	entity := sc.entity
	if len(ws) > 0 {
		entity = shape.Singular(ws[len(ws)-1])
	}
	if entity == "" || entity == "item" || entity == "value" || entity == "text" {
		entity = orDefault(g.entity, "item")
	}
	if shape.ClassOf(entity) == shape.ClassLanguage && g.w != nil && len(g.w.Languages()) > 0 {
		return g.w.Languages()[int(mix(sc.seed, key, "language")%uint64(len(g.w.Languages())))].Name
	}
	return g.entityName(entity, sc, r)
}

func (g *gen) currencyish() bool {
	t := strings.ToLower(g.hostTool())
	return strings.Contains(t, "currenc") || strings.Contains(t, "exchange") || strings.Contains(t, "forex") || strings.Contains(t, "convert")
}

// about is a description of an object that names it: what it is, whose
// it is and, for things that have a place, where — from the tool's own
// words, not a stock phrase.
func (g *gen) about(key string, sc scope, r *gofakeit.Faker) string {
	name := g.nameOf(sc)
	what := strings.Join(shape.Words(orDefault(sc.entity, g.entity)), " ")
	if what == "" || what == "item" {
		what = "entry"
	}
	tool := ""
	if g.api != nil && g.api.Tool != nil {
		tool = strings.TrimSpace(g.api.Tool.Name)
	}
	switch sc.entity {
	case "suggestion", "autocomplete", "completion", "prediction":
		return g.suggestion(sc, r)
	}
	switch kn := shape.Fold(key); {
	case kn == "snippet" || kn == "excerpt" || kn == "text" && sc.list:
		subject := name
		if g.reflect && g.query != "" {
			subject = shape.TitleCase(g.query)
		}
		return fmt.Sprintf("%s: %s, with %d related %s.", subject, pick(r, "an overview of what is known", "the latest figures and details", "a summary of the main facts", "the most recent updates"), 2+r.IntN(20), shape.Plural(what))
	}
	where := ""
	if sc.city != nil {
		where = " in " + sc.city.Name
	}
	var s string
	switch shape.ClassOf(sc.entity) {
	case shape.ClassProduct:
		s = fmt.Sprintf("%s, %s %s, ships%s within %d days.", name, strings.ToLower(r.ProductMaterial()), strings.ToLower(r.ProductCategory()), where, 1+r.IntN(6))
	case shape.ClassPlace, shape.ClassHotel:
		s = fmt.Sprintf("%s is %s%s, %d minutes from the centre.", name, article(what), where, 3+r.IntN(40))
	case shape.ClassCompany:
		s = fmt.Sprintf("%s is a %s company headquartered%s, founded in %d.", name, strings.ToLower(words["industry"][r.IntN(len(words["industry"]))]), where, 1950+r.IntN(70))
	default:
		if tool != "" {
			s = fmt.Sprintf("%s, %s as %s lists it%s.", name, article(what), tool, where)
		} else {
			s = fmt.Sprintf("%s, %s%s.", name, article(what), where)
		}
	}
	return s
}

// suggestion is a completion of what was typed: the query and a word more.
func (g *gen) suggestion(sc scope, r *gofakeit.Faker) string {
	q := strings.ToLower(strings.TrimSpace(g.query))
	if q == "" || !g.reflect {
		q = strings.ToLower(r.NounCommon())
	}
	return q + " " + pick(r, "near me", "today", "price", "reviews", "online", "for sale", "2025", "meaning", "map", "tickets")
}
