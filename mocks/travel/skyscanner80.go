package travel

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/golang-lru/v2/simplelru"

	"github.com/understudy/understudy/mocks/standin"
	"github.com/understudy/understudy/mocks/world"
	"github.com/understudy/understudy/sandbox"
)

// The skyscanner80 stand-in: place auto-complete with opaque ids, flight
// searches that answer "incomplete" first and must be polled, and itinerary
// details, over the world's airports and airlines.

const skyTool = "skyscanner80"

// State kinds of the flight search flow.
const (
	skySessionKind = "skyscanner80.session"
	skyTokenKind   = "skyscanner80.token"
	skyPollKind    = "skyscanner80.polls"
)

// skyError is skyscanner80's error body.
func skyError(status int, msg string) *sandbox.Rejection {
	return &sandbox.Rejection{Status: status, Body: map[string]any{"status": false, "message": msg}}
}

// skyEndpoint is a resolved fromId/toId: a city (any of its airports) or one airport.
type skyEndpoint struct {
	place    *world.Place
	airport  *world.Airport // nil for a whole city
	airports []*world.Airport
}

func (e skyEndpoint) key() string {
	if e.airport != nil {
		return e.airport.IATA
	}
	return e.place.SkyID
}

// skyDecodeID resolves an id minted by flights_auto_complete; anything else fails.
func skyDecodeID(d *world.Travel, id string) (skyEndpoint, bool) {
	id = strings.TrimSpace(id)
	if id == "" || len(id) > 256 {
		return skyEndpoint{}, false
	}
	var raw []byte
	var err error
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		if raw, err = enc.DecodeString(id); err == nil {
			break
		}
	}
	if err != nil {
		return skyEndpoint{}, false
	}
	var p world.SkyPlaceID
	if json.Unmarshal(raw, &p) != nil {
		return skyEndpoint{}, false
	}
	if a := d.AirportBySkyEntity[p.E]; a != nil && a.IATA == p.S {
		pl := d.PlaceByCity[a.City.ID]
		if p.H != pl.SkyEntityID {
			return skyEndpoint{}, false
		}
		return skyEndpoint{place: pl, airport: a, airports: []*world.Airport{a}}, true
	}
	if pl := d.PlaceBySkyEntity[p.E]; pl != nil && pl.SkyID == p.S && p.S != "" && p.H == pl.SkyEntityID {
		as := pl.Airports
		if len(as) > 3 {
			as = as[:3]
		}
		return skyEndpoint{place: pl, airports: as}, true
	}
	return skyEndpoint{}, false
}

func skyAutoComplete(_ context.Context, w *world.World, c *standin.Call) (any, error) {
	d := w.Travel
	q := c.ArgString("query")
	lang := localeLang(c.ArgString("locale"))
	data := []any{}
	seen := map[string]bool{}
	add := func(key string, v map[string]any) {
		if !seen[key] && len(data) < 10 {
			seen[key] = true
			data = append(data, skyLocalized(w, v, lang))
		}
	}
	if world.Fold(q) != "" {
		// An IATA code names the airport first, then its city.
		if a := d.AirportByIATA[strings.ToUpper(q)]; a != nil && len(q) == 3 {
			p := d.PlaceByCity[a.City.ID]
			add(a.IATA, a.SkyEntry)
			add(p.CityID, p.SkyEntry)
		}
		for _, city := range searchCities(w, q, 6) {
			p := d.PlaceByCity[city.ID]
			if p == nil || p.SkyID == "" {
				continue
			}
			add(p.CityID, p.SkyEntry)
			for _, a := range p.Airports {
				add(a.IATA, a.SkyEntry)
			}
		}
		fq := world.Fold(q)
		if len(fq) >= 3 {
			for _, a := range d.Airports {
				if world.HasWords(a.Folded, fq) {
					add(a.IATA, a.SkyEntry)
				}
			}
		}
	}
	return map[string]any{"status": true, "timestamp": timestamp(c), "data": data}, nil
}

// skyLocalized is an auto-complete entry with its country (the subtitle)
// in lang; entries are shared, so a localised one is a copy.
func skyLocalized(w *world.World, entry map[string]any, lang string) map[string]any {
	if lang == "en" {
		return entry
	}
	pres := entry["presentation"].(map[string]any)
	name := countryName(w, skyEntryCountry(w, entry), lang)
	if name == pres["subtitle"] {
		return entry
	}
	out := maps.Clone(entry)
	p := maps.Clone(pres)
	p["subtitle"] = name
	out["presentation"] = p
	return out
}

// skyEntryCountry is the country code of the place an entry names.
func skyEntryCountry(w *world.World, entry map[string]any) string {
	if e, ok := skyDecodeID(w.Travel, entry["id"].(string)); ok {
		return e.place.City.Country
	}
	return ""
}

// skySearch is one flight search session.
type skySearch struct {
	SessionID string
	Token     string
	From, To  skyEndpoint
	Depart    time.Time
	Return    time.Time // zero for one-way
	Adults    int
	Cabin     string
	Currency  string
	DaysAhead int          // from the sandbox date to departure
	Required  int          // polls of search-incomplete until complete
	First     int          // itineraries on the first page
	Options   []*skyOption // all itineraries, best first
}

// skyOption is one itinerary: one leg, or two for a round trip.
type skyOption struct {
	ID       string
	Legs     []*skyLeg
	PriceEUR float64
	PriceID  string
	Score    float64
	Order    int   // reveal order: options with Order < revealed are shown
	legsJSON []any // the legs as the searches show them; shared, read-only
}

type skyLeg struct {
	ID       string
	Segments []*skySegment
	Carrier  *world.Airline
}

type skySegment struct {
	From, To  *world.Airport
	Dep, Arr  time.Time // instants; shown in the airports' local times
	Carrier   *world.Airline
	FlightNum string
}

func (l *skyLeg) from() *world.Airport { return l.Segments[0].From }
func (l *skyLeg) to() *world.Airport   { return l.Segments[len(l.Segments)-1].To }
func (l *skyLeg) dep() time.Time       { return l.Segments[0].Dep }
func (l *skyLeg) arr() time.Time       { return l.Segments[len(l.Segments)-1].Arr }
func (l *skyLeg) minutes() int         { return int(l.arr().Sub(l.dep()).Minutes()) }

var skyCabins = map[string]float64{"economy": 1, "premium_economy": 1.7, "business": 3.6, "first": 6.2}

// skyParseSearch validates the arguments shared by both searches.
func skyParseSearch(w *world.World, c *standin.Call, roundtrip bool) (*skySearch, error) {
	d := w.Travel
	from, ok := skyDecodeID(d, c.ArgString("fromId"))
	if !ok {
		return nil, skyError(400, "Invalid fromId")
	}
	to, ok := skyDecodeID(d, c.ArgString("toId"))
	if !ok {
		return nil, skyError(400, "Invalid toId")
	}
	if from.place == to.place {
		return nil, skyError(400, "fromId and toId must be different locations")
	}
	dep, ok := parseDate(c.ArgString("departDate"))
	if !ok {
		return nil, skyError(400, "departDate must be in the format YYYY-MM-DD")
	}
	today := today(c)
	if dep.Before(today) {
		return nil, skyError(400, "departDate must be today or a future date")
	}
	if dep.After(today.AddDate(1, 0, 0)) {
		return nil, skyError(400, "departDate must be within the next 12 months")
	}
	s := &skySearch{From: from, To: to, Depart: dep, Adults: 1, Cabin: "economy", Currency: "USD", DaysAhead: int(dep.Sub(today).Hours() / 24)}
	if roundtrip {
		ret, ok := parseDate(c.ArgString("returnDate"))
		if !ok {
			return nil, skyError(400, "returnDate must be in the format YYYY-MM-DD")
		}
		if ret.Before(dep) {
			return nil, skyError(400, "returnDate must be on or after departDate")
		}
		if ret.After(today.AddDate(1, 0, 0)) {
			return nil, skyError(400, "returnDate must be within the next 12 months")
		}
		s.Return = ret
	}
	if c.Has("adults") {
		s.Adults = c.ArgInt("adults", 0)
		if s.Adults < 1 || s.Adults > 8 {
			return nil, skyError(400, "adults must be between 1 and 8")
		}
	}
	if v := strings.ToLower(c.ArgString("cabinClass")); v != "" {
		if _, ok := skyCabins[v]; !ok {
			return nil, skyError(400, "cabinClass must be one of economy, premium_economy, business, first")
		}
		s.Cabin = v
	}
	if v := c.ArgString("currency"); v != "" {
		cur, ok := w.Currency(v)
		if !ok {
			return nil, skyError(400, "Invalid currency")
		}
		s.Currency = cur.Code
	}
	return s, nil
}

func skySearchOneWay(_ context.Context, w *world.World, c *standin.Call) (any, error) {
	s, err := skyParseSearch(w, c, false)
	if err != nil {
		return nil, err
	}
	return skyStart(w, c, s), nil
}

func skySearchRoundtrip(_ context.Context, w *world.World, c *standin.Call) (any, error) {
	s, err := skyParseSearch(w, c, true)
	if err != nil {
		return nil, err
	}
	return skyStart(w, c, s), nil
}

// skyStart generates the search's itineraries, stores the session and
// answers the first, incomplete page.
func skyStart(w *world.World, c *standin.Call, s *skySearch) any {
	route := []string{s.From.key(), s.To.key(), s.Depart.Format(time.DateOnly), skyDateOrEmpty(s.Return)}
	h := stableHash("skyscanner80", strings.Join(append(route, strconv.Itoa(s.Adults), s.Cabin), "|"))
	// The flights of a route and dates are the same for any party and
	// cabin: only the fares differ (the cabin's factor, times the adults).
	flights := stableHash("skyscanner80", strings.Join(append(route, "1", "economy"), "|"))
	s.SessionID = "Cl" + base64.RawURLEncoding.EncodeToString(skyBytes(h, 0xC0FFEE, 4)) + "EAIaJAoiCgpkZXN0aW5hdGlvbhIUEhIKBAgBEAESCgoIOTU1NjUwNTU"
	s.Token = "eyJhIjoi" + base64.RawURLEncoding.EncodeToString(skyBytes(h, 0x70CE, 3))
	s.Required = 2 + int(h%2)
	s.Options = skyOptionsFor(w, s, flights)
	s.First = max(1, len(s.Options)*2/5)
	c.State.Put(skySessionKind, s.SessionID, s)
	c.State.Put(skyTokenKind, s.Token, s)
	c.State.Put(skyPollKind, s.SessionID, 0)
	return skyResults(w, s, s.First, false, s.Currency, c)
}

func skyDateOrEmpty(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.Format(time.DateOnly)
}

// skyBytes expands a hash into n*8 pseudo-random hex characters.
func skyBytes(h, salt uint64, n int) []byte {
	r := rand.New(rand.NewPCG(h, salt))
	out := make([]byte, 0, n*8)
	for range n {
		out = fmt.Appendf(out, "%08x", r.Uint32())
	}
	return out
}

func skySearchIncomplete(_ context.Context, w *world.World, c *standin.Call) (any, error) {
	id := c.ArgString("sessionId")
	v, ok := c.State.Get(skySessionKind, id)
	if !ok || id == "" {
		return nil, skyError(400, "Invalid sessionId")
	}
	s := v.(*skySearch)
	cur := s.Currency
	if v := c.ArgString("currency"); v != "" {
		k, ok := w.Currency(v)
		if !ok {
			return nil, skyError(400, "Invalid currency")
		}
		cur = k.Code
	}
	polls := c.State.Update(skyPollKind, id, func(old any, ok bool) any {
		n, _ := old.(int)
		return n + 1
	}).(int)
	if polls >= s.Required {
		return skyResults(w, s, len(s.Options), true, cur, c), nil
	}
	shown := s.First + (len(s.Options)-s.First)*polls/s.Required
	return skyResults(w, s, shown, false, cur, c), nil
}

// skyResults renders the first revealed options of a search, best first.
func skyResults(w *world.World, s *skySearch, revealed int, complete bool, currency string, c *standin.Call) any {
	lang := localeLang(c.ArgString("locale"))
	var shown []*skyOption
	for _, o := range s.Options {
		if o.Order < revealed {
			shown = append(shown, o)
		}
	}
	its := make([]any, 0, len(shown))
	cheapest, fastest := skyExtremes(shown)
	for _, o := range shown {
		its = append(its, skyItinerary(w, s, o, currency, lang, o == cheapest, o == fastest))
	}
	status := "incomplete"
	if complete {
		status = "complete"
	}
	return map[string]any{
		"status":    true,
		"timestamp": timestamp(c),
		"data": map[string]any{
			"context":             map[string]any{"status": status, "sessionId": s.SessionID, "totalResults": len(its)},
			"itineraries":         its,
			"messages":            []any{},
			"filterStats":         skyFilterStats(w, s, shown, currency),
			"token":               s.Token,
			"flightsSessionId":    s.SessionID,
			"destinationImageUrl": "https://content.skyscnr.com/m/3719e8f4a5daf43d/original/Flights-Placeholder.jpg",
		},
	}
}

func skyExtremes(os []*skyOption) (cheapest, fastest *skyOption) {
	for _, o := range os {
		if cheapest == nil || o.PriceEUR < cheapest.PriceEUR {
			cheapest = o
		}
		if fastest == nil || o.totalMinutes() < fastest.totalMinutes() {
			fastest = o
		}
	}
	return
}

func (o *skyOption) totalMinutes() int {
	n := 0
	for _, l := range o.Legs {
		n += l.minutes()
	}
	return n
}

func skyFilterStats(w *world.World, s *skySearch, os []*skyOption, currency string) map[string]any {
	carriers := map[string]*world.Airline{}
	airports := map[string]*world.Airport{}
	stops := map[int]float64{}
	minDur, maxDur := 0, 0
	for i, o := range os {
		for _, l := range o.Legs {
			for _, sg := range l.Segments {
				carriers[sg.Carrier.Code] = sg.Carrier
				airports[sg.From.IATA] = sg.From
				airports[sg.To.IATA] = sg.To
			}
		}
		n := len(o.Legs[0].Segments) - 1
		if p, ok := stops[n]; !ok || o.PriceEUR < p {
			stops[n] = o.PriceEUR
		}
		if m := o.totalMinutes(); i == 0 || m < minDur {
			minDur = m
		}
		if m := o.totalMinutes(); m > maxDur {
			maxDur = m
		}
	}
	cs := []any{}
	for _, code := range skySortedKeys(carriers) {
		a := carriers[code]
		cs = append(cs, map[string]any{"id": a.SkyID, "alternateId": a.Code, "logoUrl": skyLogo(a), "name": a.Name})
	}
	aps := []any{}
	for _, code := range skySortedKeys(airports) {
		a := airports[code]
		aps = append(aps, map[string]any{"id": a.IATA, "entityId": a.SkyEntityID, "name": a.Title, "city": a.City.Name})
	}
	stopStats := map[string]any{}
	for n, name := range []string{"direct", "one", "twoOrMore"} {
		p, ok := stops[n]
		// Absent stop counts keep the field, empty, so every answer has one shape.
		st := map[string]any{"isPresent": ok, "formattedPrice": ""}
		if ok {
			st["formattedPrice"] = skyFormat(w, fromEUR(w, p*float64(s.Adults), currency), currency)
		}
		stopStats[name] = st
	}
	return map[string]any{
		"duration":   map[string]any{"min": minDur, "max": maxDur},
		"airports":   aps,
		"carriers":   cs,
		"stopPrices": stopStats,
	}
}

func skySortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

func skyLogo(a *world.Airline) string {
	return "https://logos.skyscnr.com/images/airlines/favicon/" + a.Code + ".png"
}

// skyFormat renders a price the way the site does: symbol and whole units.
func skyFormat(w *world.World, v float64, code string) string {
	sym := code + " "
	if cur, ok := w.Currency(code); ok && cur.Symbol != "" && cur.Symbol != code {
		sym = cur.Symbol
	}
	n := int64(math.Round(v))
	s := strconv.FormatInt(n, 10)
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	return sym + b.String()
}

func skyItinerary(w *world.World, s *skySearch, o *skyOption, currency, lang string, cheapest, fastest bool) map[string]any {
	tags := []any{}
	if cheapest {
		tags = append(tags, "cheapest")
	}
	if fastest {
		tags = append(tags, "shortest")
	}
	price := fromEUR(w, o.PriceEUR*float64(s.Adults), currency)
	return map[string]any{
		"id":                      o.ID,
		"price":                   map[string]any{"raw": price, "formatted": skyFormat(w, price, currency), "pricingOptionId": o.PriceID},
		"legs":                    o.legs(w, lang),
		"isSelfTransfer":          false,
		"isProtectedSelfTransfer": false,
		"farePolicy": map[string]any{
			"isChangeAllowed": false, "isPartiallyChangeable": false, "isCancellationAllowed": false, "isPartiallyRefundable": false,
		},
		"fareAttributes":     map[string]any{},
		"tags":               tags,
		"isMashUp":           false,
		"hasFlexibleOptions": !o.Legs[0].Carrier.LowCost,
		"score":              roundTo(o.Score, 3),
	}
}

// legs are the option's legs as a search shows them, countries in lang.
func (o *skyOption) legs(w *world.World, lang string) []any {
	if lang == "en" {
		return o.legsJSON
	}
	out := make([]any, len(o.Legs))
	for i, l := range o.Legs {
		out[i] = skyLegJSON(w, l, lang)
	}
	return out
}

func skyPlace(w *world.World, a *world.Airport, lang string) map[string]any {
	return map[string]any{
		"id": a.IATA, "entityId": a.SkyEntityID, "name": a.Title, "displayCode": a.IATA,
		"city": a.City.Name, "country": countryName(w, a.Country, lang), "isHighlighted": false,
	}
}

func skyLocal(t time.Time, a *world.Airport) string {
	return t.In(a.Loc).Format("2006-01-02T15:04:05")
}

func skyLegJSON(w *world.World, l *skyLeg, lang string) map[string]any {
	segs := make([]any, len(l.Segments))
	for i, sg := range l.Segments {
		segs[i] = skySegmentJSON(w, sg, lang)
	}
	from, to := l.from(), l.to()
	dd := l.arr().In(to.Loc)
	sd := l.dep().In(from.Loc)
	delta := int(time.Date(dd.Year(), dd.Month(), dd.Day(), 0, 0, 0, 0, time.UTC).Sub(time.Date(sd.Year(), sd.Month(), sd.Day(), 0, 0, 0, 0, time.UTC)).Hours() / 24)
	return map[string]any{
		"id":                l.ID,
		"origin":            skyPlace(w, from, lang),
		"destination":       skyPlace(w, to, lang),
		"durationInMinutes": l.minutes(),
		"stopCount":         len(l.Segments) - 1,
		"isSmallestStops":   len(l.Segments) == 1,
		"departure":         skyLocal(l.dep(), from),
		"arrival":           skyLocal(l.arr(), to),
		"timeDeltaInDays":   delta,
		"carriers": map[string]any{
			"marketing":     []any{map[string]any{"id": l.Carrier.SkyID, "alternateId": l.Carrier.Code, "logoUrl": skyLogo(l.Carrier), "name": l.Carrier.Name}},
			"operationType": "fully_operated",
		},
		"segments": segs,
	}
}

func skySegPlace(w *world.World, a *world.Airport, lang string) map[string]any {
	return map[string]any{
		"flightPlaceId": a.IATA, "displayCode": a.IATA, "name": a.Title, "type": "Airport", "country": countryName(w, a.Country, lang),
		"parent": map[string]any{"flightPlaceId": a.IATA, "displayCode": a.IATA, "name": a.City.Name, "type": "City"},
	}
}

func skyCarrierJSON(a *world.Airline) map[string]any {
	alliance := 0
	switch a.Alliance {
	case "Star Alliance":
		alliance = -31999
	case "oneworld":
		alliance = -31998
	case "SkyTeam":
		alliance = -31997
	}
	return map[string]any{"id": a.SkyID, "name": a.Name, "alternateId": a.Code, "allianceId": alliance, "displayCode": a.Code}
}

func skySegmentJSON(w *world.World, sg *skySegment, lang string) map[string]any {
	return map[string]any{
		"id": fmt.Sprintf("%s-%s-%s-%s-%d", skyPlaceNum(sg.From), skyPlaceNum(sg.To),
			sg.Dep.In(sg.From.Loc).Format("0601021504"), sg.Arr.In(sg.To.Loc).Format("0601021504"), sg.Carrier.SkyID),
		"origin":            skySegPlace(w, sg.From, lang),
		"destination":       skySegPlace(w, sg.To, lang),
		"departure":         skyLocal(sg.Dep, sg.From),
		"arrival":           skyLocal(sg.Arr, sg.To),
		"durationInMinutes": int(sg.Arr.Sub(sg.Dep).Minutes()),
		"flightNumber":      sg.FlightNum,
		"marketingCarrier":  skyCarrierJSON(sg.Carrier),
		"operatingCarrier":  skyCarrierJSON(sg.Carrier),
	}
}

func skyPlaceNum(a *world.Airport) string { return strconv.Itoa(a.ID) }

// skyRoute is one way of flying an origin-destination pair: a carrier and
// its airports (two for a direct flight, three with a connection).
type skyRoute struct {
	carrier *world.Airline
	stops   []*world.Airport
}

// skyRoutes lists plausible routes between two airports: carriers based at
// either end fly direct, low-cost carriers of the same continent fly
// short hops, and network carriers connect through their hubs.
func skyRoutes(d *world.Travel, o, t *world.Airport) []skyRoute {
	dist := world.DistanceKm(o.Lat, o.Lon, t.Lat, t.Lon)
	var out []skyRoute
	seen := map[string]bool{}
	addDirect := func(a *world.Airline) {
		if !d.Serves(a, o) || !d.Serves(a, t) {
			return // the routes table: the carrier does not fly there
		}
		if !seen[a.Code+"direct"] {
			seen[a.Code+"direct"] = true
			out = append(out, skyRoute{a, []*world.Airport{o, t}})
		}
	}
	// Long flights need a hub at the far end too; nobody flies nonstop
	// beyond about 14,500 km.
	directOK := func(far *world.Airport) bool {
		if dist <= 4500 {
			return true
		}
		// Long haul flies between large airports only (Heathrow, not Stansted).
		if o.Type != "large_airport" || t.Type != "large_airport" {
			return false
		}
		if dist <= 9000 {
			return true
		}
		if dist > 14500 {
			return false
		}
		for _, a := range d.AirlinesByHub[far.IATA] {
			if !a.LowCost {
				return true
			}
		}
		return false
	}
	for _, ends := range [][2]*world.Airport{{o, t}, {t, o}} {
		for _, a := range d.AirlinesByHub[ends[0].IATA] {
			if (a.LowCost && dist > 4500) || !directOK(ends[1]) {
				continue
			}
			addDirect(a)
		}
	}
	// Low-cost carriers fly short routes out of the countries they are based in.
	if dist < 3500 && o.CountryInfo.Region == t.CountryInfo.Region {
		for _, a := range d.Airlines {
			if a.LowCost && (airlineBasedIn(d, a, o.Country) || airlineBasedIn(d, a, t.Country)) {
				addDirect(a)
			}
		}
	}
	type via struct {
		r      skyRoute
		detour float64
	}
	var vias []via
	for _, a := range d.Airlines {
		if a.LowCost || seen[a.Code+"direct"] {
			continue // a carrier that flies the route nonstop sells that
		}
		for _, hc := range a.Hubs {
			h := d.AirportByIATA[hc]
			if h == o || h == t || h.City == o.City || h.City == t.City || !d.Serves(a, o) || !d.Serves(a, t) {
				continue
			}
			d1, d2 := world.DistanceKm(o.Lat, o.Lon, h.Lat, h.Lon), world.DistanceKm(h.Lat, h.Lon, t.Lat, t.Lon)
			if d1 < 250 || d2 < 250 {
				continue
			}
			longOK := func(km float64, a, b *world.Airport) bool {
				return km <= 4500 || (a.Type == "large_airport" && b.Type == "large_airport")
			}
			if !longOK(d1, o, h) || !longOK(d2, h, t) {
				continue
			}
			if r := (d1 + d2) / dist; r <= 1.35 {
				vias = append(vias, via{skyRoute{a, []*world.Airport{o, h, t}}, r})
			}
		}
	}
	sort.SliceStable(vias, func(i, j int) bool {
		if vias[i].detour != vias[j].detour {
			return vias[i].detour < vias[j].detour
		}
		return vias[i].r.carrier.Code < vias[j].r.carrier.Code
	})
	limit := 4
	if len(out) == 0 {
		limit = 6
	}
	for i := 0; i < len(vias) && i < limit; i++ {
		out = append(out, vias[i].r)
	}
	if len(out) == 0 {
		// Remote pairs: connect through the hub with the smallest detour.
		best, bestR := skyRoute{}, math.Inf(1)
		for _, a := range d.Airlines {
			for _, hc := range a.Hubs {
				h := d.AirportByIATA[hc]
				if h == o || h == t || a.LowCost || !d.Serves(a, o) || !d.Serves(a, t) {
					continue
				}
				r := world.DistanceKm(o.Lat, o.Lon, h.Lat, h.Lon) + world.DistanceKm(h.Lat, h.Lon, t.Lat, t.Lon)
				if r < bestR {
					best, bestR = skyRoute{a, []*world.Airport{o, h, t}}, r
				}
			}
		}
		if best.carrier != nil {
			out = append(out, best)
		}
	}
	return out
}

// airlineBasedIn reports whether an airline has a hub in a country.
func airlineBasedIn(d *world.Travel, a *world.Airline, country string) bool {
	for _, h := range a.Hubs {
		if d.AirportByIATA[h].Country == country {
			return true
		}
	}
	return false
}

// skyFlightMinutes is block time from great-circle distance: taxi and climb
// plus cruise at about 820 km/h, rounded to five minutes.
func skyFlightMinutes(km float64) int {
	m := 30 + km/820*60
	return int(math.Round(m/5)) * 5
}

// skyFareEUR is a one-adult economy fare for a distance.
func skyFareEUR(km float64) float64 {
	switch {
	case km < 1500:
		return 39 + km*0.1
	case km < 4000:
		return 70 + km*0.08
	default:
		return 180 + km*0.052
	}
}

// skyGenerate builds every itinerary of a search, best first, each with the
// poll in which it is revealed.
func skyGenerate(w *world.World, s *skySearch, rng *rand.Rand) []*skyOption {
	d := w.Travel
	type pair struct{ o, t *world.Airport }
	var pairs []pair
	for _, o := range s.From.airports {
		for _, t := range s.To.airports {
			pairs = append(pairs, pair{o, t})
		}
	}
	var opts []*skyOption
	for _, p := range pairs {
		for _, r := range skyRoutes(d, p.o, p.t) {
			n := 1 + rng.IntN(2)
			for range n {
				out := skyBuildLeg(r, s.Depart, rng)
				o := &skyOption{Legs: []*skyLeg{out}}
				fare := skyLegFare(r, s, rng)
				if !s.Return.IsZero() {
					back := skyRoute{r.carrier, skyReverse(r.stops)}
					o.Legs = append(o.Legs, skyBuildLeg(back, s.Return, rng))
					fare = (fare + skyLegFare(back, s, rng)) * 0.93
				}
				o.PriceEUR = roundTo(fare, 2)
				opts = append(opts, o)
			}
		}
	}
	if len(opts) > 16 {
		rng.Shuffle(len(opts), func(i, j int) { opts[i], opts[j] = opts[j], opts[i] })
		opts = opts[:16]
	}
	// Score: price and time against the best of the search, as "best" sorting does.
	minP, minT := math.Inf(1), math.Inf(1)
	for _, o := range opts {
		minP = math.Min(minP, o.PriceEUR)
		minT = math.Min(minT, float64(o.totalMinutes()))
	}
	for _, o := range opts {
		o.Score = 0.6*minP/o.PriceEUR + 0.4*minT/float64(o.totalMinutes())
		var ids []string
		for _, l := range o.Legs {
			l.ID = skyLegID(l)
			ids = append(ids, l.ID)
		}
		o.ID = strings.Join(ids, "|")
		for _, l := range o.Legs {
			o.legsJSON = append(o.legsJSON, skyLegJSON(w, l, "en"))
		}
		o.PriceID = base64.RawURLEncoding.EncodeToString(skyBytes(stableHash(o.ID, s.Cabin, strconv.Itoa(s.Adults)), 0x9A1D, 2))
	}
	sort.SliceStable(opts, func(i, j int) bool {
		if opts[i].Score != opts[j].Score {
			return opts[i].Score > opts[j].Score
		}
		return opts[i].ID < opts[j].ID
	})
	// Drop accidental duplicates (same flights drawn twice).
	uniq := opts[:0]
	seen := map[string]bool{}
	for _, o := range opts {
		if !seen[o.ID] {
			seen[o.ID] = true
			uniq = append(uniq, o)
		}
	}
	opts = uniq
	order := rng.Perm(len(opts))
	for i, o := range opts {
		o.Order = order[i]
	}
	return opts
}

func skyReverse(as []*world.Airport) []*world.Airport {
	out := make([]*world.Airport, len(as))
	for i, a := range as {
		out[len(as)-1-i] = a
	}
	return out
}

// skyLegFare prices one leg for one adult in EUR.
func skyLegFare(r skyRoute, s *skySearch, rng *rand.Rand) float64 {
	km := 0.0
	for i := 0; i+1 < len(r.stops); i++ {
		km += world.DistanceKm(r.stops[i].Lat, r.stops[i].Lon, r.stops[i+1].Lat, r.stops[i+1].Lon)
	}
	f := skyFareEUR(km)
	if r.carrier.LowCost {
		f *= 0.6
	}
	if len(r.stops) > 2 {
		f *= 0.86
	}
	f *= skyCabins[s.Cabin]
	// Fares rise as departure nears.
	switch {
	case s.DaysAhead < 7:
		f *= 1.4
	case s.DaysAhead < 21:
		f *= 1.15
	case s.DaysAhead > 60:
		f *= 0.93
	}
	f *= 0.82 + rng.Float64()*0.45
	return f
}

// skyBuildLeg schedules a route on a local date at the origin.
func skyBuildLeg(r skyRoute, date time.Time, rng *rand.Rand) *skyLeg {
	o := r.stops[0]
	hour := 6 + rng.IntN(16)
	minute := 5 * rng.IntN(12)
	dep := time.Date(date.Year(), date.Month(), date.Day(), hour, minute, 0, 0, o.Loc)
	leg := &skyLeg{Carrier: r.carrier}
	for i := 0; i+1 < len(r.stops); i++ {
		a, b := r.stops[i], r.stops[i+1]
		dur := time.Duration(skyFlightMinutes(world.DistanceKm(a.Lat, a.Lon, b.Lat, b.Lon))) * time.Minute
		arr := dep.Add(dur)
		leg.Segments = append(leg.Segments, &skySegment{
			From: a, To: b, Dep: dep, Arr: arr, Carrier: r.carrier,
			FlightNum: strconv.Itoa(100 + rng.IntN(8900)),
		})
		dep = arr.Add(time.Duration(55+5*rng.IntN(30)) * time.Minute)
	}
	return leg
}

// skyLegID follows Skyscanner's leg ids:
// <origin>-<YYMMDDHHMM>--<carrier>-<stops>-<destination>-<YYMMDDHHMM>.
func skyLegID(l *skyLeg) string {
	return fmt.Sprintf("%s-%s-%d-%d-%s-%s",
		skyPlaceNum(l.from()), l.dep().In(l.from().Loc).Format("0601021504"),
		l.Carrier.SkyID, len(l.Segments)-1,
		skyPlaceNum(l.to()), l.arr().In(l.to().Loc).Format("0601021504"))
}

var skyAgents = []struct{ id, name string }{
	{"trip", "Trip.com"}, {"edre", "eDreams"}, {"kiwi", "Kiwi.com"}, {"mytp", "Mytrip"}, {"expd", "Expedia"}, {"gotg", "Gotogate"},
}

func skyDetail(_ context.Context, w *world.World, c *standin.Call) (any, error) {
	tok := c.ArgString("token")
	v, ok := c.State.Get(skyTokenKind, tok)
	if !ok || tok == "" {
		return nil, skyError(400, "Invalid token")
	}
	s := v.(*skySearch)
	id := c.ArgString("itineraryId")
	var o *skyOption
	for _, x := range s.Options {
		if x.ID == id {
			o = x
		}
	}
	if o == nil {
		return nil, skyError(400, "Invalid itineraryId")
	}
	cur := s.Currency
	if v := c.ArgString("currency"); v != "" {
		k, ok := w.Currency(v)
		if !ok {
			return nil, skyError(400, "Invalid currency")
		}
		cur = k.Code
	}
	// The booking links go to the market's site in the locale's language.
	market := strings.ToUpper(c.ArgString("market"))
	if market == "" {
		market = "US"
	}
	locale := c.ArgString("locale")
	if locale == "" {
		locale = "en-US"
	}
	legs := make([]any, len(o.Legs))
	for i, l := range o.Legs {
		lj := skyLegJSON(w, l, localeLang(c.ArgString("locale")))
		legs[i] = map[string]any{
			"id": lj["id"], "origin": lj["origin"], "destination": lj["destination"], "segments": lj["segments"],
			"duration": lj["durationInMinutes"], "stopCount": lj["stopCount"], "departure": lj["departure"],
			"arrival": lj["arrival"], "dayChange": lj["timeDeltaInDays"],
		}
	}
	rng := rand.New(rand.NewPCG(stableHash(o.ID, s.Token), 0xDE7A))
	base := o.PriceEUR * float64(s.Adults)
	carrier := o.Legs[0].Carrier
	type offer struct {
		id, name  string
		isCarrier bool
		eur       float64
	}
	offers := []offer{{strings.ToLower(carrier.Code) + "a", carrier.Name, true, base}}
	for _, i := range rng.Perm(len(skyAgents))[:2] {
		offers = append(offers, offer{skyAgents[i].id, skyAgents[i].name, false, base * (0.96 + rng.Float64()*0.1)})
	}
	sort.SliceStable(offers, func(i, j int) bool { return offers[i].eur < offers[j].eur })
	pos := make([]any, len(offers))
	for i, of := range offers {
		price := fromEUR(w, of.eur, cur)
		pos[i] = map[string]any{
			"id":         base64.RawURLEncoding.EncodeToString(skyBytes(stableHash(o.PriceID, of.id), 0xA6E7, 2)),
			"totalPrice": price,
			"agents": []any{map[string]any{
				"id": of.id, "name": of.name, "isCarrier": of.isCarrier, "bookingProposition": "PBOOK",
				"url":          "https://www.skyscanner.net/transport_deeplink/4.0/" + market + "/" + locale + "/" + cur + "/" + of.id + "/" + strconv.Itoa(len(o.Legs)) + "/" + o.ID,
				"price":        price,
				"rating":       map[string]any{"value": roundTo(3.6+rng.Float64()*1.2, 1), "count": 500 + rng.IntN(40000)},
				"updateStatus": "current", "isDirectDeepLink": of.isCarrier,
			}},
		}
	}
	return map[string]any{
		"status":    true,
		"timestamp": timestamp(c),
		"data": map[string]any{
			"itinerary": map[string]any{
				"legs":               legs,
				"pricingOptions":     pos,
				"isTransferRequired": false,
				"destinationImage":   "https://content.skyscnr.com/m/" + strconv.FormatUint(stableHash(o.Legs[0].to().City.ID)%1e15, 16) + "/original/" + o.Legs[0].to().City.ID + ".jpg",
				"operatingCarrierSafetyAttributes": []any{map[string]any{
					"carrierID": carrier.SkyID, "carrierName": carrier.Name, "faceMasksCompulsory": nil,
					"aircraftDeepCleanedDaily": nil, "attendantsWearPPE": nil, "cleaningPacksProvided": nil, "foodServiceChanges": nil, "safetyUrl": nil,
				}},
				"flexibleTicketPolicies": []any{},
			},
			"pollingCompleted": true,
		},
	}, nil
}

// skyMarkets maps countries to Skyscanner's market codes where they differ.
var skyMarkets = map[string]string{"GB": "UK"}

func skyGetConfig(_ context.Context, w *world.World, c *standin.Call) (any, error) {
	data := []any{}
	for _, k := range w.Countries() {
		cur, ok := w.Currency(k.Currency)
		if !ok {
			continue
		}
		market := k.Alpha2
		if m, ok := skyMarkets[market]; ok {
			market = m
		}
		lang := "en"
		if len(k.Languages) > 0 {
			lang = k.Languages[0]
		}
		site := "www.skyscanner" + k.TLD
		switch k.Alpha2 {
		case "US":
			site = "www.skyscanner.com"
		case "GB":
			site = "www.skyscanner.net"
		}
		data = append(data, map[string]any{
			"country": k.Name, "countryCode": k.Alpha2, "market": market, "locale": lang + "-" + k.Alpha2,
			"currencyTitle": cur.Name, "currency": cur.Code, "currencySymbol": cur.Symbol, "site": site,
		})
	}
	return map[string]any{"status": true, "timestamp": timestamp(c), "data": data}, nil
}

// skyGenerated memoises generated itineraries (generation is the costly
// part of a search). The key holds every input of skyGenerate — both
// endpoints' airports, the dates, cabin, adults, days ahead and the seed —
// so an answer never depends on which search ran first. Options are never
// modified after generation, so sessions can share them.
var skyGenerated = struct {
	sync.Mutex
	lru *simplelru.LRU[string, []*skyOption]
}{lru: must(simplelru.NewLRU[string, []*skyOption](512, nil))}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func skyOptionsFor(w *world.World, s *skySearch, seed uint64) []*skyOption {
	var b strings.Builder
	for _, e := range []skyEndpoint{s.From, s.To} {
		for _, a := range e.airports {
			b.WriteString(a.IATA)
			b.WriteByte(',')
		}
		b.WriteByte('|')
	}
	fmt.Fprintf(&b, "%s|%s|%d|%s|%d|%d|%p", s.Depart.Format(time.RFC3339), skyDateOrEmpty(s.Return), s.Adults, s.Cabin, s.DaysAhead, seed, w)
	key := b.String()
	skyGenerated.Lock()
	opts, ok := skyGenerated.lru.Get(key)
	skyGenerated.Unlock()
	if ok {
		return opts
	}
	opts = skyGenerate(w, s, rand.New(rand.NewPCG(seed, 0x5C7)))
	skyGenerated.Lock()
	skyGenerated.lru.Add(key, opts)
	skyGenerated.Unlock()
	return opts
}
