package travel

import (
	"context"
	"sort"
	"strings"

	"github.com/understudy/understudy/mocks/standin"
	"github.com/understudy/understudy/mocks/world"
	"github.com/understudy/understudy/sandbox"
)

// Stand-in for iso_codes (own): ISO 639-1 language codes and ISO 3166-1
// country codes of the core world.

// isoSearchRank says how well a record matches search, ignoring case and
// accents: 0 an exact code, 1 a name starting with it, 2 a name
// containing it, -1 no match. An empty search matches everything at 0.
func isoSearchRank(search string, codes []string, names ...string) int {
	if search == "" {
		return 0
	}
	q := world.Fold(search)
	for _, c := range codes {
		if world.Fold(c) == q {
			return 0
		}
	}
	best := -1
	for _, n := range names {
		f := world.Fold(n)
		switch {
		case strings.HasPrefix(f, q):
			return 1
		case strings.Contains(f, q):
			best = 2
		}
	}
	return best
}

// isoRanked orders matches by rank, keeping code order within a rank.
type isoRanked struct {
	rank int
	v    map[string]any
}

func isoRankedData(rs []isoRanked) []any {
	sort.SliceStable(rs, func(i, j int) bool { return rs[i].rank < rs[j].rank })
	out := make([]any, len(rs))
	for i, r := range rs {
		out[i] = r.v
	}
	return out
}

func handleLanguageCodes(_ context.Context, w *world.World, c *standin.Call) (any, error) {
	search := c.ArgString("search")
	var rs []isoRanked
	for _, l := range w.Languages() {
		if r := isoSearchRank(search, []string{l.Code}, l.Name, l.NativeName); r >= 0 {
			rs = append(rs, isoRanked{r, map[string]any{"code": l.Code, "name": l.Name, "native_name": l.NativeName}})
		}
	}
	data := isoRankedData(rs)
	return map[string]any{"count": len(data), "data": data}, nil
}

func isoCountrySummary(k *world.Country) map[string]any {
	return map[string]any{
		"alpha2":        k.Alpha2,
		"alpha3":        k.Alpha3,
		"numeric":       k.Numeric,
		"name":          k.Name,
		"official_name": k.OfficialName,
		"region":        k.Region,
	}
}

func handleCountryCodes(_ context.Context, w *world.World, c *standin.Call) (any, error) {
	search := c.ArgString("search")
	var rs []isoRanked
	for _, k := range w.Countries() {
		if r := isoSearchRank(search, []string{k.Alpha2, k.Alpha3, k.Numeric}, append([]string{k.Name, k.OfficialName}, k.Aliases...)...); r >= 0 {
			rs = append(rs, isoRanked{r, isoCountrySummary(k)})
		}
	}
	data := isoRankedData(rs)
	return map[string]any{"count": len(data), "data": data}, nil
}

func handleCountryByCode(_ context.Context, w *world.World, c *standin.Call) (any, error) {
	code := strings.ToUpper(c.ArgString("code"))
	valid := len(code) == 2 || len(code) == 3
	for _, r := range code {
		if !(r >= 'A' && r <= 'Z') && !(r >= '0' && r <= '9' && len(code) == 3) {
			valid = false
		}
	}
	if !valid {
		return nil, &sandbox.Rejection{Status: 400, Body: map[string]any{"error": "Invalid country code: use an ISO 3166-1 alpha-2 (PT), alpha-3 (PRT) or numeric (620) code", "code": c.ArgString("code")}}
	}
	k, ok := w.Country(code)
	if !ok || (k.Alpha2 != code && k.Alpha3 != code && k.Numeric != code) {
		return nil, &sandbox.Rejection{Status: 404, Body: map[string]any{"error": "Country not found", "code": code}}
	}
	d := isoCountrySummary(k)
	d["capital"] = k.Capital
	d["subregion"] = k.Subregion
	d["currency"] = k.Currency
	d["calling_code"] = k.CallingCode
	d["tld"] = k.TLD
	langs := []any{}
	for _, code := range k.Languages {
		if l, ok := w.Language(code); ok {
			langs = append(langs, map[string]any{"code": l.Code, "name": l.Name})
		}
	}
	d["languages"] = langs
	zones := make([]any, len(k.TimeZones))
	for i, z := range k.TimeZones {
		zones[i] = z
	}
	d["timezones"] = zones
	return map[string]any{"data": d}, nil
}
