package callcheck

import (
	"strings"
	"sync"

	"github.com/understudy/understudy/mocks/world"
)

// "City, Country" names one place whichever way the country is written:
// "Ankara, Turkey" and "Ankara, TR", "Wellington, New Zealand" and
// "Wellington, NZ" are the same value, as a geocoder reads them.

var (
	countriesOnce sync.Once
	countryCodes  map[string]string // normString of a name, alias or code → alpha-2
)

// countryCode is the ISO alpha-2 code a country's name, alias, alpha-2 or
// alpha-3 code stands for, "" when it names no country of the world.
func countryCode(s string) string {
	countriesOnce.Do(func() {
		countryCodes = map[string]string{}
		w, err := world.DefaultWorld()
		if err != nil {
			return
		}
		for _, c := range w.Countries() {
			for _, n := range append([]string{c.Alpha2, c.Alpha3, c.Name, c.OfficialName}, c.Aliases...) {
				if n != "" {
					countryCodes[normString(n)] = c.Alpha2
				}
			}
		}
	})
	return countryCodes[normString(s)]
}

// samePlace tells whether two "City, Country" values name the same city
// in the same country, the country given as a name or an ISO code.
func samePlace(want, got string) bool {
	wc, wk, ok := cutCountry(want)
	if !ok {
		return false
	}
	gc, gk, ok := cutCountry(got)
	if !ok || normString(wc) != normString(gc) {
		return false
	}
	a, b := countryCode(wk), countryCode(gk)
	return a != "" && a == b
}

// cutCountry splits "City, Country" at its last comma.
func cutCountry(s string) (city, country string, ok bool) {
	i := strings.LastIndexByte(s, ',')
	if i <= 0 {
		return "", "", false
	}
	city, country = strings.TrimSpace(s[:i]), strings.TrimSpace(s[i+1:])
	return city, country, city != "" && country != ""
}
