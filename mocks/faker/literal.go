package faker

import (
	"encoding/json"
	"math"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/brianvoe/gofakeit/v7"

	"github.com/understudy/understudy/mocks/faker/shape"
)

// keepKeys are fields whose documented value is protocol, not content.
var keepKeys = map[string]bool{"status": true, "statuscode": true, "code": true, "errorcode": true, "success": true, "ok": true, "error": true, "message": true, "version": true, "apiversion": true, "page": true, "pagenumber": true, "currentpage": true, "perpage": true, "pagesize": true, "limit": true, "offset": true, "type": true, "kind": true, "unit": true, "units": true, "currency": true, "currencycode": true, "lang": true, "language": true, "locale": true, "market": true, "timezone": true, "format": true, "method": true, "mimetype": true, "contenttype": true}

var cityKeys = map[string]bool{"city": true, "cityname": true, "town": true, "location": true, "locationname": true, "destination": true}

// literal varies a documented value: its type and look are kept (a date
// stays a date in its layout, an ID keeps its length and character
// classes, a URL its site), its content is made again.
func (g *gen) literal(n *node, key string, sc scope) any {
	kn := shape.Fold(key)
	r := g.rng(sc.seed, kn)
	kind := n.hint
	switch x := n.lit.(type) {
	case string:
		if !n.hinted {
			kind = shape.Classify(kn, sc.entity, "string")
		}
		return g.varyString(kn, x, kind, sc, r)
	case json.Number:
		if !n.hinted {
			kind = shape.Classify(kn, sc.entity, "number")
		}
		return g.varyNumber(kn, string(x), kind, sc, r)
	case float64:
		if !n.hinted {
			kind = shape.Classify(kn, sc.entity, "number")
		}
		return g.varyNumber(kn, strconv.FormatFloat(x, 'f', -1, 64), kind, sc, r)
	}
	return n.lit // bool, nil: flipping them would change meaning
}

func (g *gen) varyNumber(kn, lit string, kind shape.Kind, sc scope, r *gofakeit.Faker) any {
	if v, ok := g.reflected(kn, "number", shape.Number, sc); ok && kn != "" {
		return v
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
	case kind == shape.Lat && f >= -90 && f <= 90:
		if g.named {
			f = g.anchor.Lat
		}
		return round(math.Max(-90, math.Min(90, f+r.Float64Range(-0.05, 0.05))), max(decimals, 4))
	case kind == shape.Lon && f >= -180 && f <= 180:
		if g.named {
			f = g.anchor.Lon
		}
		v := f + r.Float64Range(-0.05, 0.05)
		if v > 180 {
			v -= 360
		} else if v < -180 {
			v += 360
		}
		return round(v, max(decimals, 4))
	case integer && kind == shape.Timestamp && (len(lit) == 10 || len(lit) == 13):
		// Unix seconds or milliseconds: a moment within a month of the
		// sandbox clock.
		n := g.now.Unix() + int64(r.IntRange(-30*86400, 30*86400))
		if len(lit) == 13 {
			n = n*1000 + int64(r.IntN(1000))
		}
		return json.Number(strconv.FormatInt(n, 10))
	case keepKeys[kn] || kn == "year" || kn == "month" || kn == "day":
		return json.Number(lit)
	case integer && kind == shape.ID && f >= 1:
		digits := len(strings.TrimLeft(lit, "-"))
		return json.Number(digitString(r, min(digits, 15)))
	case integer && math.Abs(f) <= 1:
		return json.Number(lit) // flags and tiny counts
	case integer:
		if math.Abs(f) > 1e15 {
			return json.Number(lit)
		}
		return json.Number(strconv.FormatFloat(math.Round(f*(0.7+0.6*r.Float64())), 'f', 0, 64))
	case kind == shape.Rating || kind == shape.Score:
		if f >= 0 && f <= 10 {
			hi := 5.0
			if f > 5 {
				hi = 10
			}
			return round(math.Min(hi, math.Max(0, f+r.Float64Range(-1, 1))), max(decimals, 1))
		}
	}
	return round(f*(0.7+0.6*r.Float64()), decimals)
}

var exampleDateLayouts = []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02 15:04:05", time.DateOnly}

func (g *gen) varyString(kn, s string, kind shape.Kind, sc scope, r *gofakeit.Faker) any {
	if v, ok := g.reflected(kn, "string", shape.Text, sc); ok {
		return v
	}
	trimmed := strings.TrimSpace(s)
	if strings.HasPrefix(trimmed, "http://") || strings.HasPrefix(trimmed, "https://") {
		return varyURL(g.substitute(s, true), r)
	}
	if out := g.substitute(s, false); out != s {
		return out
	}
	switch {
	case trimmed == "":
		return s
	case g.named && (kn == "currency" || kn == "currencycode"):
		if _, ok := g.w.Currency(s); ok {
			return g.currencyOf(g.anchor)
		}
		return s
	case keepKeys[kn]:
		return s
	}
	for _, layout := range exampleDateLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			// Dates move near the sandbox clock, in the documented layout
			// and zone; a birth or founding date only by days.
			base := g.now.In(t.Location())
			if k := shape.Classify(kn, sc.entity, "string"); k == shape.BirthDate || strings.Contains(kn, "found") || strings.Contains(kn, "release") || strings.Contains(kn, "establish") {
				base = t
			}
			out := base.Add(time.Duration(r.IntRange(-30*24*60, 30*24*60)) * time.Minute)
			if layout == time.DateOnly {
				out = time.Date(out.Year(), out.Month(), out.Day(), 0, 0, 0, 0, time.UTC)
			} else {
				out = out.Truncate(time.Second)
			}
			return out.Format(layout)
		}
	}
	spaceless := !strings.ContainsFunc(s, unicode.IsSpace)
	switch {
	case spaceless && strings.Count(s, "@") == 1 && strings.Contains(s[strings.IndexByte(s, '@'):], "."):
		return g.person(sc, personSlot(kn)).email(g.host)
	case kind == shape.Phone:
		out := scramble(s, true, r)
		if k := g.country(sc.city); k != nil && k.CallingCode != "" && strings.HasPrefix(s, "+") {
			// The country code of the object's city, the rest redrawn.
			if i := strings.IndexAny(out, " -("); i > 0 {
				out = k.CallingCode + out[i:]
			}
		}
		return out
	case spaceless && ((kind == shape.ID || kind == shape.UUID || kind == shape.Hash || kind == shape.Token) && utf8.RuneCountInString(s) >= 4 || utf8.RuneCountInString(s) >= 6 && strings.ContainsAny(s, "0123456789")):
		return scramble(s, false, r)
	case cityKeys[kn] && g.w != nil:
		if _, known := g.w.FindCity(s); known && sc.city != nil {
			return sc.city.Name
		}
	case kind == shape.PersonName || kind == shape.FirstName || kind == shape.LastName || kind == shape.Username:
		return g.meaning(kind, kn, kn, "string", sc, r)
	}
	return s
}

// substitute replaces documented default values that appear in s with the
// values the call gave: the example was about the default, the answer is
// about the argument. In a URL the value goes in as a slug.
func (g *gen) substitute(s string, slug bool) string {
	if !g.reflect {
		return s
	}
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
func varyURL(s string, r *gofakeit.Faker) string {
	i := strings.Index(s, "://") + 3
	if j := strings.IndexAny(s[i:], "/?#"); j >= 0 {
		return s[:i+j] + scrambleDigits(s[i+j:], r)
	}
	return s
}

// scrambleDigits re-draws the digits of s, leaving percent-escapes intact.
func scrambleDigits(s string, r *gofakeit.Faker) string {
	b := []byte(s)
	for i := 0; i < len(b); i++ {
		switch c := b[i]; {
		case c == '%':
			i += 2
		case c >= '0' && c <= '9':
			b[i] = byte('0' + r.IntN(10))
		}
	}
	return string(b)
}

// scramble re-draws the letters and digits of an identifier, keeping each
// character's class (digit, lower, upper; hex letters stay hex), its
// punctuation and its length. digitsOnly leaves letters alone (phone numbers).
func scramble(s string, digitsOnly bool, r *gofakeit.Faker) string {
	hex := true
	for _, c := range s {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' || c == '-') {
			hex = false
			break
		}
	}
	out := []rune(s)
	for i, c := range out {
		switch {
		case c >= '0' && c <= '9':
			d := r.IntN(10)
			if i == 0 && c != '0' && d == 0 {
				d = 1 + r.IntN(9)
			}
			out[i] = rune('0' + d)
		case digitsOnly:
		case c >= 'a' && c <= 'z':
			if hex {
				out[i] = rune('a' + r.IntN(6))
			} else {
				out[i] = rune('a' + r.IntN(26))
			}
		case c >= 'A' && c <= 'Z':
			if hex {
				out[i] = rune('A' + r.IntN(6))
			} else {
				out[i] = rune('A' + r.IntN(26))
			}
		}
	}
	return string(out)
}

// digitString is n digits, the first not 0.
func digitString(r *gofakeit.Faker, n int) string {
	if n <= 0 {
		n = 1
	}
	b := make([]byte, n)
	for i := range b {
		b[i] = byte('0' + r.IntN(10))
	}
	if b[0] == '0' {
		b[0] = byte('1' + r.IntN(9))
	}
	return string(b)
}
