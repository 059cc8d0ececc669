// Package world is the one consistent world every stand-in draws from:
// cities, countries, currencies and languages, and each scenario's part
// (hotels, news, images, ...), typed and loaded once from fixtures/world.
package world

import (
	"bytes"
	"encoding/json"
	"fmt"
	"github.com/understudy/understudy/internal/fold"
	"io/fs"
	"math"
	"sort"
	"strings"
	"sync"
	"time"
	_ "time/tzdata" // time zones must load on machines without a zoneinfo database
	"unicode"

	"github.com/understudy/understudy/fixtures"
)

// World is the consistent world every stand-in draws from, loaded from the
// fixtures/world file system. The core part (cities, countries, currencies,
// languages) and the parts of each scenario (hotels, news, images, ...) are
// typed fields, all loaded by LoadWorld.
//
// A World is read-only once loaded and safe for concurrent use. Slices and
// records returned by its methods are shared: callers must not modify them.
type World struct {
	fsys fs.FS

	cities     []*City // by id
	countries  []*Country
	currencies []*Currency
	languages  []*Language
	ratesAsOf  string

	cityByID      map[string]*City
	cityByKey     map[string][]*City // folded name/ascii name/alias → cities, most populous first
	cityByAirport map[string]*City
	countryByKey  map[string]*Country
	currencyBy    map[string]*Currency
	languageByKey map[string]*Language

	// The scenario parts, each loaded from its own files.
	Basic    *Basic
	Normals  *Climate
	Holidays *Holidays
	Images   *Images
	News     *News
	Recipes  *Recipes
	Travel   *Travel
}

// City is a real city with true coordinates, time zone and main airports.
type City struct {
	ID        string   `json:"id"`         // stable slug, e.g. "new_york"
	Name      string   `json:"name"`       // English name, e.g. "São Paulo"
	ASCIIName string   `json:"ascii_name"` // e.g. "Sao Paulo"
	Aliases   []string `json:"aliases"`    // other names people use: "NYC", "Lisboa", "City of Light"
	Country   string   `json:"country"`    // ISO 3166-1 alpha-2
	Region    string   `json:"region"`     // state, province or region
	Lat       float64  `json:"lat"`
	Lon       float64  `json:"lon"`
	TimeZone  string   `json:"timezone"` // IANA name
	// Population and Elevation (metres) are recent published figures, rounded.
	Population int64    `json:"population"`
	Elevation  int      `json:"elevation_m"`
	Airports   []string `json:"airports"` // IATA codes of the main airports, busiest first

	loc          *time.Location
	latR, cosLat float64  // latitude in radians and its cosine, for distances
	folded       []string // keys(), folded once: SearchCities runs on every search call
}

// Location returns the city's time zone.
func (c *City) Location() *time.Location { return c.loc }

// Country is an ISO 3166-1 country or territory.
type Country struct {
	Alpha2       string   `json:"alpha2"`
	Alpha3       string   `json:"alpha3"`
	Numeric      string   `json:"numeric"` // three digits, e.g. "620"
	Name         string   `json:"name"`
	OfficialName string   `json:"official_name"`
	Capital      string   `json:"capital"`
	Region       string   `json:"region"` // continent-level: Europe, Americas, Asia, Africa, Oceania
	Subregion    string   `json:"subregion"`
	Currency     string   `json:"currency"`     // ISO 4217
	Languages    []string `json:"languages"`    // ISO 639-1, official first
	CallingCode  string   `json:"calling_code"` // e.g. "+351"
	TimeZones    []string `json:"timezones"`
	TLD          string   `json:"tld"`
	Aliases      []string `json:"aliases"` // other names: "UK", "Holland", "España"
}

// Currency is an ISO 4217 currency with its rate against the US dollar on
// the world's fixed rates date.
type Currency struct {
	Code     string  `json:"code"`
	Numeric  string  `json:"numeric"`
	Name     string  `json:"name"`
	Symbol   string  `json:"symbol"`
	Decimals int     `json:"decimals"` // minor unit digits
	PerUSD   float64 `json:"per_usd"`  // units of this currency for 1 USD
}

// Language is an ISO 639-1 language.
type Language struct {
	Code       string `json:"code"`
	Name       string `json:"name"`        // English name
	NativeName string `json:"native_name"` // endonym
}

// The core world files, relative to the world file system's root.
const (
	CitiesFile     = "cities.json"
	CountriesFile  = "countries.json"
	CurrenciesFile = "currencies.json"
	LanguagesFile  = "languages.json"
)

// WorldError is a failure to load the world; it names the file.
type WorldError struct {
	File string
	Err  error
}

func (e *WorldError) Error() string { return fmt.Sprintf("world %s: %v", e.File, e.Err) }

func (e *WorldError) Unwrap() error { return e.Err }

// NotFoundError reports a lookup of something the world does not hold.
type NotFoundError struct {
	Kind string // "city", "country", "currency", "language"
	Key  string
}

func (e *NotFoundError) Error() string { return fmt.Sprintf("unknown %s %q", e.Kind, e.Key) }

// LoadWorld loads the core world from fsys (rooted at fixtures/world), checks
// that it is consistent, then loads every registered world part.
func LoadWorld(fsys fs.FS) (*World, error) {
	w := &World{fsys: fsys}
	var cities struct {
		Cities []*City `json:"cities"`
	}
	var countries struct {
		Countries []*Country `json:"countries"`
	}
	var currencies struct {
		Base       string      `json:"base"`
		AsOf       string      `json:"as_of"`
		Currencies []*Currency `json:"currencies"`
	}
	var languages struct {
		Languages []*Language `json:"languages"`
	}
	for _, f := range []struct {
		name string
		v    any
	}{{CitiesFile, &cities}, {CountriesFile, &countries}, {CurrenciesFile, &currencies}, {LanguagesFile, &languages}} {
		if err := readJSON(fsys, f.name, f.v); err != nil {
			return nil, err
		}
	}
	if currencies.Base != "USD" {
		return nil, &WorldError{File: CurrenciesFile, Err: fmt.Errorf("base is %q, want \"USD\"", currencies.Base)}
	}
	if _, err := time.Parse(time.DateOnly, currencies.AsOf); err != nil {
		return nil, &WorldError{File: CurrenciesFile, Err: fmt.Errorf("as_of: %w", err)}
	}
	w.ratesAsOf = currencies.AsOf
	if err := w.indexLanguages(languages.Languages); err != nil {
		return nil, err
	}
	if err := w.indexCurrencies(currencies.Currencies); err != nil {
		return nil, err
	}
	if err := w.indexCountries(countries.Countries); err != nil {
		return nil, err
	}
	if err := w.indexCities(cities.Cities); err != nil {
		return nil, err
	}
	if err := w.loadParts(); err != nil {
		return nil, err
	}
	return w, nil
}

var defaultWorld = sync.OnceValues(func() (*World, error) {
	sub, err := fs.Sub(fixtures.FS, "world")
	if err != nil {
		return nil, err
	}
	return LoadWorld(sub)
})

// zones holds the time zones loaded so far, by IANA name: loading one
// parses it out of the embedded database each time, and the world's
// cities, countries and airports name a few hundred zones again and again.
var zones sync.Map // string → *time.Location

// Zone is time.LoadLocation, loaded once per name: a *time.Location is
// immutable, so every caller can share it.
func Zone(name string) (*time.Location, error) {
	if l, ok := zones.Load(name); ok {
		return l.(*time.Location), nil
	}
	l, err := time.LoadLocation(name)
	if err != nil {
		return nil, err
	}
	zones.Store(name, l)
	return l, nil
}

// DefaultWorld returns the built-in world embedded in the binary, loaded once.
func DefaultWorld() (*World, error) { return defaultWorld() }

// readJSON decodes one world file strictly: unknown fields and trailing data
// are errors, so a typo in a fixture cannot go unnoticed.
func readJSON(fsys fs.FS, name string, v any) error {
	b, err := fs.ReadFile(fsys, name)
	if err != nil {
		return &WorldError{File: name, Err: err}
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return &WorldError{File: name, Err: err}
	}
	if dec.More() {
		return &WorldError{File: name, Err: fmt.Errorf("trailing data after the top-level value")}
	}
	return nil
}

func (w *World) indexLanguages(ls []*Language) error {
	w.languageByKey = map[string]*Language{}
	for i, l := range ls {
		if len(l.Code) != 2 || strings.ToLower(l.Code) != l.Code {
			return &WorldError{File: LanguagesFile, Err: fmt.Errorf("languages[%d]: code %q is not a lowercase ISO 639-1 code", i, l.Code)}
		}
		if _, dup := w.languageByKey[l.Code]; dup {
			return &WorldError{File: LanguagesFile, Err: fmt.Errorf("languages[%d]: duplicate code %q", i, l.Code)}
		}
		w.languageByKey[l.Code] = l
	}
	// Names second, so a name never shadows a code.
	for _, l := range ls {
		for _, k := range []string{Fold(l.Name), Fold(l.NativeName)} {
			if _, taken := w.languageByKey[k]; k != "" && !taken {
				w.languageByKey[k] = l
			}
		}
	}
	w.languages = sortedCopy(ls, func(l *Language) string { return l.Code })
	return nil
}

func (w *World) indexCurrencies(cs []*Currency) error {
	w.currencyBy = map[string]*Currency{}
	for i, c := range cs {
		if !isUpperCode(c.Code, 3) {
			return &WorldError{File: CurrenciesFile, Err: fmt.Errorf("currencies[%d]: code %q is not an ISO 4217 code", i, c.Code)}
		}
		if !(c.PerUSD > 0) || math.IsInf(c.PerUSD, 0) {
			return &WorldError{File: CurrenciesFile, Err: fmt.Errorf("currencies[%d] %s: per_usd %v is not a positive rate", i, c.Code, c.PerUSD)}
		}
		if _, dup := w.currencyBy[c.Code]; dup {
			return &WorldError{File: CurrenciesFile, Err: fmt.Errorf("currencies[%d]: duplicate code %q", i, c.Code)}
		}
		w.currencyBy[c.Code] = c
	}
	w.currencies = sortedCopy(cs, func(c *Currency) string { return c.Code })
	return nil
}

func (w *World) indexCountries(cs []*Country) error {
	w.countryByKey = map[string]*Country{}
	for i, c := range cs {
		where := fmt.Sprintf("countries[%d] %s", i, c.Alpha2)
		switch {
		case !isUpperCode(c.Alpha2, 2):
			return &WorldError{File: CountriesFile, Err: fmt.Errorf("%s: alpha2 is not two uppercase letters", where)}
		case !isUpperCode(c.Alpha3, 3):
			return &WorldError{File: CountriesFile, Err: fmt.Errorf("%s: alpha3 %q is not three uppercase letters", where, c.Alpha3)}
		case w.currencyBy[c.Currency] == nil:
			return &WorldError{File: CountriesFile, Err: fmt.Errorf("%s: currency %q is not in %s", where, c.Currency, CurrenciesFile)}
		}
		for _, l := range c.Languages {
			if w.languageByKey[l] == nil {
				return &WorldError{File: CountriesFile, Err: fmt.Errorf("%s: language %q is not in %s", where, l, LanguagesFile)}
			}
		}
		for _, tz := range c.TimeZones {
			if _, err := Zone(tz); err != nil {
				return &WorldError{File: CountriesFile, Err: fmt.Errorf("%s: %w", where, err)}
			}
		}
		for _, k := range []string{strings.ToLower(c.Alpha2), strings.ToLower(c.Alpha3)} {
			if _, dup := w.countryByKey[k]; dup {
				return &WorldError{File: CountriesFile, Err: fmt.Errorf("%s: duplicate code %q", where, k)}
			}
			w.countryByKey[k] = c
		}
	}
	// Names and aliases second, so that a name never shadows a code.
	for _, c := range cs {
		keys := append([]string{c.Name, c.OfficialName, c.Numeric}, c.Aliases...)
		for _, k := range keys {
			if k = Fold(k); k != "" {
				if _, taken := w.countryByKey[k]; !taken {
					w.countryByKey[k] = c
				}
			}
		}
	}
	w.countries = sortedCopy(cs, func(c *Country) string { return c.Alpha2 })
	return nil
}

func (w *World) indexCities(cs []*City) error {
	w.cityByID = map[string]*City{}
	w.cityByKey = map[string][]*City{}
	w.cityByAirport = map[string]*City{}
	for i, c := range cs {
		where := fmt.Sprintf("cities[%d] %s", i, c.ID)
		switch {
		case c.ID == "" || c.Name == "" || c.ASCIIName == "":
			return &WorldError{File: CitiesFile, Err: fmt.Errorf("%s: id, name and ascii_name are required", where)}
		case w.cityByID[c.ID] != nil:
			return &WorldError{File: CitiesFile, Err: fmt.Errorf("%s: duplicate id", where)}
		case w.countryByKey[strings.ToLower(c.Country)] == nil || !isUpperCode(c.Country, 2):
			return &WorldError{File: CitiesFile, Err: fmt.Errorf("%s: country %q is not in %s", where, c.Country, CountriesFile)}
		case !(c.Lat >= -90 && c.Lat <= 90 && c.Lon >= -180 && c.Lon <= 180):
			return &WorldError{File: CitiesFile, Err: fmt.Errorf("%s: coordinates (%v, %v) out of range", where, c.Lat, c.Lon)}
		}
		loc, err := Zone(c.TimeZone)
		if err != nil || c.TimeZone == "" {
			return &WorldError{File: CitiesFile, Err: fmt.Errorf("%s: time zone %q: %v", where, c.TimeZone, err)}
		}
		c.loc = loc
		c.latR = c.Lat * math.Pi / 180
		c.cosLat = math.Cos(c.latR)
		c.folded = c.keys()
		w.cityByID[c.ID] = c
		for _, a := range c.Airports {
			if !isUpperCode(a, 3) {
				return &WorldError{File: CitiesFile, Err: fmt.Errorf("%s: airport %q is not an IATA code", where, a)}
			}
			// A shared airport (KIX serves Osaka and Kyoto) belongs to the
			// more populous city.
			if prev := w.cityByAirport[a]; prev == nil || morePopulous(c, prev) {
				w.cityByAirport[a] = c
			}
		}
		seen := map[string]bool{}
		for _, k := range c.keys() {
			if k != "" && !seen[k] {
				seen[k] = true
				w.cityByKey[k] = append(w.cityByKey[k], c)
			}
		}
	}
	for _, list := range w.cityByKey {
		sort.Slice(list, func(i, j int) bool { return morePopulous(list[i], list[j]) })
	}
	w.cities = sortedCopy(cs, func(c *City) string { return c.ID })
	return nil
}

// keys are the folded names a city is found by.
func (c *City) keys() []string {
	if c.folded != nil {
		return c.folded
	}
	out := []string{Fold(c.Name), Fold(c.ASCIIName)}
	for _, a := range c.Aliases {
		out = append(out, Fold(a))
	}
	return out
}

// MatchRank ranks how well folded keys (name, ASCII name, aliases...) match
// a folded query, by whole words only: 0 exact, 1 the name begins with the
// query's words, 2 an alias does, 3 the query's words stand together
// inside a key, 4 the query ends in a word being typed ("lisb" of
// "lisbon"), -1 no match. A query is never matched inside a word: "rome"
// does not find "Römerberg" or "Promenade". Callers keep rank-4 hits only
// when nothing matched by whole words (see WholeWordsFirst).
func MatchRank(keys []string, q string) int {
	best := -1
	for i, k := range keys {
		alias := i >= 2
		r := -1
		switch {
		case k == q:
			r = 0
		case strings.HasPrefix(k, q+" ") && !alias:
			r = 1
		case strings.HasPrefix(k, q+" "):
			r = 2
		case strings.Contains(" "+k+" ", " "+q+" "):
			r = 3
		case strings.HasPrefix(k, q) || strings.Contains(k, " "+q):
			r = 4
		}
		if r >= 0 && (best < 0 || r < best) {
			best = r
		}
	}
	return best
}

// HasWords reports whether the folded text holds the folded query as whole
// words ("rome" in "hotel rome centre", not in "romerberg").
func HasWords(folded, q string) bool {
	return q != "" && strings.Contains(" "+folded+" ", " "+q+" ")
}

// WholeWordsFirst is how many of ranks (sorted, best first, as MatchRank
// gives them) to keep: all of them when none matched by whole words,
// otherwise only the whole-word matches, so a word being typed completes
// but a finished word never drags in longer words that begin with it.
func WholeWordsFirst(ranks []int) int {
	if len(ranks) == 0 || ranks[0] >= 4 {
		return len(ranks)
	}
	n := 0
	for n < len(ranks) && ranks[n] < 4 {
		n++
	}
	return n
}

// morePopulous orders cities by population, then id, so ties break stably.
func morePopulous(a, b *City) bool {
	if a.Population != b.Population {
		return a.Population > b.Population
	}
	return a.ID < b.ID
}

// Cities returns every city, ordered by id.
func (w *World) Cities() []*City { return w.cities }

// Countries returns every country, ordered by alpha-2 code.
func (w *World) Countries() []*Country { return w.countries }

// Currencies returns every currency, ordered by code.
func (w *World) Currencies() []*Currency { return w.currencies }

// Languages returns every language, ordered by code.
func (w *World) Languages() []*Language { return w.languages }

// RatesAsOf is the date ("2025-05-30") the currency rates are quoted for.
func (w *World) RatesAsOf() string { return w.ratesAsOf }

// CityByID returns the city with the given id.
func (w *World) CityByID(id string) (*City, bool) {
	c, ok := w.cityByID[id]
	return c, ok
}

// CityByAirport returns the city an IATA airport code serves.
func (w *World) CityByAirport(iata string) (*City, bool) {
	c, ok := w.cityByAirport[strings.ToUpper(strings.TrimSpace(iata))]
	return c, ok
}

// CitiesIn returns the cities of a country (any form Country accepts), most populous first.
func (w *World) CitiesIn(country string) []*City {
	k, ok := w.Country(country)
	if !ok {
		return nil
	}
	var out []*City
	for _, c := range w.cities {
		if c.Country == k.Alpha2 {
			out = append(out, c)
		}
	}
	sort.Slice(out, func(i, j int) bool { return morePopulous(out[i], out[j]) })
	return out
}

// FindCity finds the city a person means by query, ignoring case, accents
// and punctuation: a name ("São Paulo", "sao paulo"), an alias ("NYC",
// "Lisboa", "City of Light"), a name qualified by country or region
// ("Lisbon, Portugal", "Paris France", "Portland, OR" only if such a city
// exists), or a main airport's IATA code ("LHR"). A qualifier that matches
// no candidate means no match: "Paris, Texas" is not Paris.
func (w *World) FindCity(query string) (*City, bool) {
	q := Fold(query)
	if q == "" {
		return nil, false
	}
	if cs := w.cityByKey[q]; len(cs) > 0 {
		return cs[0], true
	}
	if head, quals, ok := strings.Cut(query, ","); ok {
		return w.qualified(Fold(head), strings.Split(quals, ","))
	}
	words := strings.Fields(q)
	for i := len(words) - 1; i >= 1; i-- {
		if c, ok := w.qualified(strings.Join(words[:i], " "), []string{strings.Join(words[i:], " ")}); ok {
			return c, true
		}
	}
	if c, ok := w.CityByAirport(query); ok && len(strings.TrimSpace(query)) == 3 {
		return c, true
	}
	return nil, false
}

// qualified finds the city named head whose country or region matches every qualifier.
func (w *World) qualified(head string, quals []string) (*City, bool) {
next:
	for _, c := range w.cityByKey[head] {
		for _, q := range quals {
			if !w.qualifies(c, Fold(q)) {
				continue next
			}
		}
		return c, true
	}
	return nil, false
}

func (w *World) qualifies(c *City, q string) bool {
	if q == "" {
		return true
	}
	if k, ok := w.countryByKey[q]; ok && k.Alpha2 == c.Country {
		return true
	}
	r := Fold(c.Region)
	return r == q || regionCodes[q] == r
}

// regionCodes maps postal abbreviations of US states and Canadian provinces
// (folded) to their folded names, for queries like "Portland, OR".
var regionCodes = map[string]string{
	"al": "alabama", "ak": "alaska", "az": "arizona", "ar": "arkansas", "ca": "california",
	"co": "colorado", "ct": "connecticut", "de": "delaware", "dc": "district of columbia",
	"fl": "florida", "ga": "georgia", "hi": "hawaii", "id": "idaho", "il": "illinois",
	"in": "indiana", "ia": "iowa", "ks": "kansas", "ky": "kentucky", "la": "louisiana",
	"me": "maine", "md": "maryland", "ma": "massachusetts", "mi": "michigan", "mn": "minnesota",
	"ms": "mississippi", "mo": "missouri", "mt": "montana", "ne": "nebraska", "nv": "nevada",
	"nh": "new hampshire", "nj": "new jersey", "nm": "new mexico", "ny": "new york",
	"nc": "north carolina", "nd": "north dakota", "oh": "ohio", "ok": "oklahoma", "or": "oregon",
	"pa": "pennsylvania", "ri": "rhode island", "sc": "south carolina", "sd": "south dakota",
	"tn": "tennessee", "tx": "texas", "ut": "utah", "vt": "vermont", "va": "virginia",
	"wa": "washington", "wv": "west virginia", "wi": "wisconsin", "wy": "wyoming",
	"on": "ontario", "qc": "quebec", "bc": "british columbia", "ab": "alberta",
	"mb": "manitoba", "sk": "saskatchewan", "ns": "nova scotia", "nb": "new brunswick",
}

// SearchCities returns up to limit cities matching query (all when limit <= 0),
// best first as MatchRank ranks them (exact name or alias, names and then
// aliases beginning with the query's words, keys holding them; a word
// being typed only when nothing matched whole); ties go to the more
// populous city.
func (w *World) SearchCities(query string, limit int) []*City {
	q := Fold(query)
	if q == "" {
		return nil
	}
	type hit struct {
		c    *City
		rank int
	}
	var hits []hit
	for _, c := range w.cities {
		best := MatchRank(c.keys(), q)
		if best >= 0 {
			hits = append(hits, hit{c, best})
		}
	}
	sort.Slice(hits, func(i, j int) bool {
		if hits[i].rank != hits[j].rank {
			return hits[i].rank < hits[j].rank
		}
		return morePopulous(hits[i].c, hits[j].c)
	})
	ranks := make([]int, len(hits))
	for i, h := range hits {
		ranks[i] = h.rank
	}
	hits = hits[:WholeWordsFirst(ranks)]
	if limit > 0 && len(hits) > limit {
		hits = hits[:limit]
	}
	out := make([]*City, len(hits))
	for i, h := range hits {
		out[i] = h.c
	}
	return out
}

// NearestCity returns the city closest to (lat, lon) and the great-circle
// distance to it in kilometres; nil when the world has no cities or the
// coordinates are not numbers.
func (w *World) NearestCity(lat, lon float64) (*City, float64) {
	if math.IsNaN(lat) || math.IsNaN(lon) {
		return nil, 0
	}
	// Compare the haversine term, which grows with distance, and take the
	// arc sine and square root once, for the winner.
	rad := math.Pi / 180
	latR, cosLat := lat*rad, math.Cos(lat*rad)
	var best *City
	bestA := math.Inf(1)
	for _, c := range w.cities {
		sLat := math.Sin((c.latR - latR) / 2)
		sLon := math.Sin((c.Lon - lon) * rad / 2)
		if a := sLat*sLat + cosLat*c.cosLat*sLon*sLon; a < bestA {
			best, bestA = c, a
		}
	}
	if best == nil {
		return nil, 0
	}
	return best, DistanceKm(lat, lon, best.Lat, best.Lon)
}

// EarthRadiusKm is the mean Earth radius used for distances.
const EarthRadiusKm = 6371.0088

// DistanceKm is the haversine great-circle distance between two points in kilometres.
func DistanceKm(lat1, lon1, lat2, lon2 float64) float64 {
	rad := math.Pi / 180
	dLat := (lat2 - lat1) * rad
	dLon := (lon2 - lon1) * rad
	a := math.Sin(dLat/2)*math.Sin(dLat/2) + math.Cos(lat1*rad)*math.Cos(lat2*rad)*math.Sin(dLon/2)*math.Sin(dLon/2)
	return 2 * EarthRadiusKm * math.Asin(math.Sqrt(math.Min(1, a)))
}

// Country finds a country by alpha-2 or alpha-3 code, numeric code, name,
// official name or alias ("UK", "Holland"), ignoring case and accents.
func (w *World) Country(code string) (*Country, bool) {
	c, ok := w.countryByKey[Fold(code)]
	return c, ok
}

// Currency finds a currency by ISO 4217 code, ignoring case.
func (w *World) Currency(code string) (*Currency, bool) {
	c, ok := w.currencyBy[strings.ToUpper(strings.TrimSpace(code))]
	return c, ok
}

// Rate is the number of units of to that one unit of from buys, via USD.
func (w *World) Rate(from, to string) (float64, error) {
	f, ok := w.Currency(from)
	if !ok {
		return 0, &NotFoundError{Kind: "currency", Key: from}
	}
	t, ok := w.Currency(to)
	if !ok {
		return 0, &NotFoundError{Kind: "currency", Key: to}
	}
	return t.PerUSD / f.PerUSD, nil
}

// Convert converts amount from one currency to another at the world's
// fixed rates. The result is not rounded; round with the target's Decimals.
func (w *World) Convert(amount float64, from, to string) (float64, error) {
	r, err := w.Rate(from, to)
	if err != nil {
		return 0, err
	}
	return amount * r, nil
}

// Language finds a language by ISO 639-1 code, English name or native name.
func (w *World) Language(code string) (*Language, bool) {
	k := strings.ToLower(strings.TrimSpace(code))
	if l, ok := w.languageByKey[k]; ok {
		return l, true
	}
	l, ok := w.languageByKey[Fold(code)]
	return l, ok
}

// loadParts loads the scenario parts. A part reads the core world only,
// never another part, so the parts load at once (they are most of the
// world's load, which the tool server waits for at start); the error is
// that of the first failing part in a fixed order, as if loaded in turn.
func (w *World) loadParts() error {
	parts := []struct {
		name string
		load func() error
	}{
		{"basic", func() (err error) { w.Basic, err = loadBasic(w.fsys, w); return }},
		{"climate", func() (err error) { w.Normals, err = loadClimate(w.fsys, w); return }},
		{"holidays", func() (err error) { w.Holidays, err = loadHolidays(w.fsys, w); return }},
		{"images", func() (err error) { w.Images, err = loadImageWorld(w.fsys, w); return }},
		{"news", func() (err error) { w.News, err = loadNews(w.fsys, w); return }},
		{"recipes", func() (err error) { w.Recipes, err = loadRecipes(w.fsys, w); return }},
		{"travel", func() (err error) { w.Travel, err = loadTravel(w.fsys, w); return }},
	}
	errs := make([]error, len(parts))
	var wg sync.WaitGroup
	for i, p := range parts {
		wg.Go(func() { errs[i] = p.load() })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			return fmt.Errorf("world part %s: %w", parts[i].name, err)
		}
	}
	return nil
}

// sortedCopy returns xs sorted by key, leaving xs untouched.
func sortedCopy[T any](xs []T, key func(T) string) []T {
	out := append([]T(nil), xs...)
	sort.SliceStable(out, func(i, j int) bool { return key(out[i]) < key(out[j]) })
	return out
}

func isUpperCode(s string, n int) bool {
	if len(s) != n {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < 'A' || s[i] > 'Z' {
			return false
		}
	}
	return true
}

// Fold normalises a name for matching: lower case, accents removed, dots
// and apostrophes dropped ("D.C." is "dc"), other punctuation and spaces
// collapsed to single spaces. Letters of other scripts are kept as they are.
func Fold(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, r := range strings.ToLower(s) {
		switch {
		case r == '.' || r == '\'' || r == '’' || r == 'ʻ' || unicode.Is(unicode.Mn, r):
			// Combining marks go too, so decomposed "São" matches "Sao".
			continue
		case unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mc, r):
			if space && b.Len() > 0 {
				b.WriteByte(' ')
			}
			space = false
			if r < 0xc0 {
				b.WriteRune(r)
			} else if f, ok := fold.Latin(r); ok {
				b.WriteString(f)
			} else {
				b.WriteRune(r)
			}
		default:
			space = true
		}
	}
	return b.String()
}

var (
	_ error = (*WorldError)(nil)
	_ error = (*NotFoundError)(nil)
)
