package mocks

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"io/fs"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"
)

// The world part of the travel stand-ins: airports, airlines,
// each city's ids in the travel sites, hotels, attractions and the phrase
// banks reviews are written from. It builds on the core world's cities.

// The travel world files, relative to the world file system's root.
const (
	travelAirportsFile    = "airports.json"
	travelAirlinesFile    = "travel_airlines.json"
	travelPlacesFile      = "travel_places.json"
	travelHotelsFile      = "hotels.json"
	travelAttractionsFile = "attractions.json"
	travelReviewsFile     = "travel_reviews.json"
)

// travelAirport is a real airport; CityID names the core-world city it serves.
type travelAirport struct {
	IATA        string  `json:"iata"`
	ICAO        string  `json:"icao"`
	Name        string  `json:"name"`
	CityID      string  `json:"city_id"`
	Country     string  `json:"country"`
	Lat         float64 `json:"lat"`
	Lon         float64 `json:"lon"`
	ElevationFt int     `json:"elevation_ft"`
	TimeZone    string  `json:"timezone"`
	Street      string  `json:"street"`
	Phone       string  `json:"phone"`
	Website     string  `json:"website"`
	SkyEntityID string  `json:"sky_entity_id"` // Skyscanner's entity id of the airport
	ID          int     `json:"id"`            // airport-info's numeric id
	Type        string  `json:"type"`          // large_airport, medium_airport

	city     *City
	country  *Country
	loc      *time.Location
	folded   string         // fold(Name), for search
	title    string         // Skyscanner's short name, e.g. "London Heathrow"
	skyEntry map[string]any // the auto-complete entry; shared, read-only
}

// travelAirline is a real airline with its Skyscanner carrier id and hubs.
type travelAirline struct {
	Code     string   `json:"code"`
	Name     string   `json:"name"`
	SkyID    int      `json:"sky_id"`
	Country  string   `json:"country"`
	Hubs     []string `json:"hubs"`
	Alliance string   `json:"alliance"`
	LowCost  bool     `json:"low_cost"`

	region string // the home country's continent-level region
}

// travelPlace is one core-world city as the travel sites know it.
type travelPlace struct {
	CityID                string `json:"city_id"`
	SkyID                 string `json:"sky_id"` // "" when the city has no airport
	SkyEntityID           string `json:"sky_entity_id"`
	BookingDestID         string `json:"booking_dest_id"`
	TripAdvisorGeoID      string `json:"tripadvisor_geo_id"`
	BookingProperties     int    `json:"booking_properties"`
	TripAdvisorThingsToDo int    `json:"tripadvisor_things_to_do"`

	city        *City
	country     *Country
	keys        []string         // folded name, ASCII name, aliases
	slug        string           // URL form of the city name
	skyEntry    map[string]any   // the auto-complete entry; shared, read-only
	airports    []*travelAirport // in the city's order, busiest first
	hotels      []*travelHotel
	attractions []*travelAttraction // by ranking
}

// travelHotel is one bookable property.
type travelHotel struct {
	HotelID           int      `json:"hotel_id"`
	CityID            string   `json:"city_id"`
	Name              string   `json:"name"`
	Stars             int      `json:"stars"`
	Address           string   `json:"address"`
	District          string   `json:"district"`
	Postcode          string   `json:"postcode"`
	Lat               float64  `json:"lat"`
	Lon               float64  `json:"lon"`
	ReviewScore       float64  `json:"review_score"`
	ReviewCount       int      `json:"review_count"`
	BasePriceEUR      float64  `json:"base_price_eur"` // one night, two adults, one room
	CheckinFrom       string   `json:"checkin_from"`
	CheckoutUntil     string   `json:"checkout_until"`
	Facilities        []string `json:"facilities"`
	RoomTypes         []string `json:"room_types"`
	PhotoIDs          []int    `json:"photo_ids"`
	IsPreferred       bool     `json:"is_preferred"`
	AccommodationType string   `json:"accommodation_type"`

	place     *travelPlace
	folded    string   // fold(Name), for search
	photoKeys []string // the k= signature of each photo URL, by PhotoIDs index
}

// travelAttraction is a real attraction with TripAdvisor-style facts.
type travelAttraction struct {
	LocationID      string  `json:"location_id"`
	CityID          string  `json:"city_id"`
	Name            string  `json:"name"`
	Lat             float64 `json:"lat"`
	Lon             float64 `json:"lon"`
	Subcategory     string  `json:"subcategory"`
	Address         string  `json:"address"`
	Open            *string `json:"open"`  // "HH:MM", nil when always open
	Close           *string `json:"close"` // "HH:MM"; "24:00" means midnight
	ClosedWeekday   *int    `json:"closed_weekday"`
	Description     string  `json:"description"`
	RankingPosition int     `json:"ranking_position"`
	Rating          float64 `json:"rating"`
	NumReviews      int     `json:"num_reviews"`
	PhotoCount      int     `json:"photo_count"`
	PriceFromUSD    float64 `json:"price_from_usd"`
	PhotoIDs        []int   `json:"photo_ids"`

	place  *travelPlace
	folded string         // fold(Name), for search
	slug   string         // URL form of the name
	images map[string]any // the main photo's sizes; shared, read-only
}

// travelReviewBank holds the phrases reviews are composed from.
type travelReviewBank struct {
	Reviewers      [][3]string `json:"reviewers"` // name, country code, country name
	TravellerTypes []string    `json:"traveller_types"`
	Hotel          struct {
		Titles map[string][]string `json:"titles"` // superb, good, fair
		Pros   []string            `json:"pros"`
		Cons   []string            `json:"cons"`
	} `json:"hotel"`
	Attraction struct {
		Titles map[string][]string `json:"titles"` // by rating "3".."5"
		Texts  map[string][]string `json:"texts"`
	} `json:"attraction"`
}

// travelData is the loaded travel part with its indexes.
type travelData struct {
	airports           []*travelAirport // by IATA code
	airportByIATA      map[string]*travelAirport
	airportBySkyEntity map[string]*travelAirport
	airlines           []*travelAirline // in file order
	airlinesByHub      map[string][]*travelAirline
	places             []*travelPlace // by city id
	placeByCity        map[string]*travelPlace
	placeBySkyEntity   map[string]*travelPlace
	placeByDest        map[string]*travelPlace
	placeByGeo         map[string]*travelPlace
	hotels             []*travelHotel
	hotelByID          map[int]*travelHotel
	attractions        []*travelAttraction
	attractionByID     map[string]*travelAttraction
	reviews            travelReviewBank
}

// travel returns the loaded travel part.

func loadTravel(fsys fs.FS, w *World) (*travelData, error) {
	var airports struct {
		Airports []*travelAirport `json:"airports"`
	}
	var airlines struct {
		Airlines []*travelAirline `json:"airlines"`
	}
	var places struct {
		Places []*travelPlace `json:"places"`
	}
	var hotels struct {
		Hotels []*travelHotel `json:"hotels"`
	}
	var attractions struct {
		Attractions []*travelAttraction `json:"attractions"`
	}
	d := &travelData{}
	for _, f := range []struct {
		name string
		v    any
	}{
		{travelAirportsFile, &airports}, {travelAirlinesFile, &airlines}, {travelPlacesFile, &places},
		{travelHotelsFile, &hotels}, {travelAttractionsFile, &attractions}, {travelReviewsFile, &d.reviews},
	} {
		if err := readJSON(fsys, f.name, f.v); err != nil {
			return nil, err
		}
	}
	if err := d.indexAirports(w, airports.Airports); err != nil {
		return nil, err
	}
	if err := d.indexAirlines(w, airlines.Airlines); err != nil {
		return nil, err
	}
	if err := d.indexPlaces(w, places.Places); err != nil {
		return nil, err
	}
	if err := d.indexHotels(hotels.Hotels); err != nil {
		return nil, err
	}
	if err := d.indexAttractions(attractions.Attractions); err != nil {
		return nil, err
	}
	if len(d.reviews.Reviewers) == 0 || len(d.reviews.Hotel.Pros) == 0 || len(d.reviews.Hotel.Cons) == 0 {
		return nil, &WorldError{File: travelReviewsFile, Err: fmt.Errorf("reviewers, hotel pros and cons must not be empty")}
	}
	for _, band := range []string{"superb", "good", "fair"} {
		if len(d.reviews.Hotel.Titles[band]) == 0 {
			return nil, &WorldError{File: travelReviewsFile, Err: fmt.Errorf("hotel titles %q missing", band)}
		}
	}
	for _, r := range []string{"3", "4", "5"} {
		if len(d.reviews.Attraction.Titles[r]) == 0 || len(d.reviews.Attraction.Texts[r]) == 0 {
			return nil, &WorldError{File: travelReviewsFile, Err: fmt.Errorf("attraction titles and texts for rating %s missing", r)}
		}
	}
	return d, nil
}

func (d *travelData) indexAirports(w *World, as []*travelAirport) error {
	d.airportByIATA = map[string]*travelAirport{}
	d.airportBySkyEntity = map[string]*travelAirport{}
	for i, a := range as {
		where := fmt.Sprintf("airports[%d] %s", i, a.IATA)
		c, ok := w.CityByID(a.CityID)
		switch {
		case !travelIsCode(a.IATA, 3) || !travelIsCode(a.ICAO, 4):
			return &WorldError{File: travelAirportsFile, Err: fmt.Errorf("%s: IATA %q or ICAO %q malformed", where, a.IATA, a.ICAO)}
		case !ok:
			return &WorldError{File: travelAirportsFile, Err: fmt.Errorf("%s: city %q is not in %s", where, a.CityID, CitiesFile)}
		case c.Country != a.Country:
			return &WorldError{File: travelAirportsFile, Err: fmt.Errorf("%s: country %s differs from its city's %s", where, a.Country, c.Country)}
		case d.airportByIATA[a.IATA] != nil || d.airportBySkyEntity[a.SkyEntityID] != nil || a.SkyEntityID == "":
			return &WorldError{File: travelAirportsFile, Err: fmt.Errorf("%s: duplicate IATA code or entity id", where)}
		case DistanceKm(a.Lat, a.Lon, c.Lat, c.Lon) > 120:
			return &WorldError{File: travelAirportsFile, Err: fmt.Errorf("%s: more than 120 km from %s", where, c.ID)}
		}
		loc, err := time.LoadLocation(a.TimeZone)
		if err != nil {
			return &WorldError{File: travelAirportsFile, Err: fmt.Errorf("%s: %w", where, err)}
		}
		a.city, a.loc = c, loc
		a.country, _ = w.Country(a.Country)
		a.folded = fold(a.Name)
		a.title = skyAirportTitle(a)
		d.airportByIATA[a.IATA] = a
		d.airportBySkyEntity[a.SkyEntityID] = a
	}
	d.airports = append([]*travelAirport(nil), as...)
	sort.Slice(d.airports, func(i, j int) bool { return d.airports[i].IATA < d.airports[j].IATA })
	for _, c := range w.Cities() {
		for _, code := range c.Airports {
			if d.airportByIATA[code] == nil {
				return &WorldError{File: travelAirportsFile, Err: fmt.Errorf("airport %s of city %s is missing", code, c.ID)}
			}
		}
	}
	return nil
}

func (d *travelData) indexAirlines(w *World, as []*travelAirline) error {
	d.airlinesByHub = map[string][]*travelAirline{}
	seen := map[string]bool{}
	for i, a := range as {
		k, ok := w.Country(a.Country)
		if !ok || a.Code == "" || seen[a.Code] || len(a.Hubs) == 0 {
			return &WorldError{File: travelAirlinesFile, Err: fmt.Errorf("airlines[%d] %s: unknown country, duplicate code or no hubs", i, a.Code)}
		}
		seen[a.Code] = true
		a.region = k.Region
		for _, h := range a.Hubs {
			if d.airportByIATA[h] == nil {
				return &WorldError{File: travelAirlinesFile, Err: fmt.Errorf("airlines[%d] %s: hub %s is not in %s", i, a.Code, h, travelAirportsFile)}
			}
			d.airlinesByHub[h] = append(d.airlinesByHub[h], a)
		}
	}
	d.airlines = as
	return nil
}

func (d *travelData) indexPlaces(w *World, ps []*travelPlace) error {
	d.placeByCity = map[string]*travelPlace{}
	d.placeBySkyEntity = map[string]*travelPlace{}
	d.placeByDest = map[string]*travelPlace{}
	d.placeByGeo = map[string]*travelPlace{}
	for i, p := range ps {
		where := fmt.Sprintf("places[%d] %s", i, p.CityID)
		c, ok := w.CityByID(p.CityID)
		if !ok {
			return &WorldError{File: travelPlacesFile, Err: fmt.Errorf("%s: city is not in %s", where, CitiesFile)}
		}
		if d.placeByCity[p.CityID] != nil || d.placeBySkyEntity[p.SkyEntityID] != nil || d.airportBySkyEntity[p.SkyEntityID] != nil ||
			d.placeByDest[p.BookingDestID] != nil || d.placeByGeo[p.TripAdvisorGeoID] != nil {
			return &WorldError{File: travelPlacesFile, Err: fmt.Errorf("%s: duplicate city or id", where)}
		}
		if (p.SkyID == "") != (len(c.Airports) == 0) {
			return &WorldError{File: travelPlacesFile, Err: fmt.Errorf("%s: sky_id must be set exactly when the city has airports", where)}
		}
		p.city = c
		p.country, _ = w.Country(c.Country)
		p.slug = taSlug(c.Name)
		p.keys = []string{fold(c.Name), fold(c.ASCIIName)}
		for _, a := range c.Aliases {
			p.keys = append(p.keys, fold(a))
		}
		for _, code := range c.Airports {
			p.airports = append(p.airports, d.airportByIATA[code])
		}
		d.placeByCity[p.CityID] = p
		d.placeBySkyEntity[p.SkyEntityID] = p
		d.placeByDest[p.BookingDestID] = p
		d.placeByGeo[p.TripAdvisorGeoID] = p
		if p.SkyID != "" {
			p.skyEntry = skyCityEntry(p)
			for _, a := range p.airports {
				if a.skyEntry == nil || a.city == c {
					a.skyEntry = skyAirportEntry(p, a)
				}
			}
		}
	}
	for _, c := range w.Cities() {
		if d.placeByCity[c.ID] == nil {
			return &WorldError{File: travelPlacesFile, Err: fmt.Errorf("city %s has no entry", c.ID)}
		}
	}
	d.places = append([]*travelPlace(nil), ps...)
	sort.Slice(d.places, func(i, j int) bool { return d.places[i].CityID < d.places[j].CityID })
	return nil
}

func (d *travelData) indexHotels(hs []*travelHotel) error {
	d.hotelByID = map[int]*travelHotel{}
	for i, h := range hs {
		where := fmt.Sprintf("hotels[%d] %d", i, h.HotelID)
		p := d.placeByCity[h.CityID]
		switch {
		case p == nil:
			return &WorldError{File: travelHotelsFile, Err: fmt.Errorf("%s: city %q is not in %s", where, h.CityID, CitiesFile)}
		case d.hotelByID[h.HotelID] != nil || h.HotelID <= 0:
			return &WorldError{File: travelHotelsFile, Err: fmt.Errorf("%s: duplicate or non-positive id", where)}
		case h.Stars < 1 || h.Stars > 5 || !(h.BasePriceEUR > 0) || len(h.RoomTypes) == 0 || len(h.PhotoIDs) == 0:
			return &WorldError{File: travelHotelsFile, Err: fmt.Errorf("%s: stars, price, room types and photos are required", where)}
		case DistanceKm(h.Lat, h.Lon, p.city.Lat, p.city.Lon) > 15:
			return &WorldError{File: travelHotelsFile, Err: fmt.Errorf("%s: more than 15 km from the centre of %s", where, h.CityID)}
		}
		h.place = p
		h.folded = fold(h.Name)
		for _, id := range h.PhotoIDs {
			h.photoKeys = append(h.photoKeys, bkKey("hotel", strconv.Itoa(id)))
		}
		p.hotels = append(p.hotels, h)
		d.hotelByID[h.HotelID] = h
	}
	for _, p := range d.places {
		if len(p.airports) > 0 && len(p.hotels) == 0 {
			return &WorldError{File: travelHotelsFile, Err: fmt.Errorf("city %s has airports but no hotels", p.CityID)}
		}
	}
	d.hotels = hs
	return nil
}

func (d *travelData) indexAttractions(as []*travelAttraction) error {
	d.attractionByID = map[string]*travelAttraction{}
	for i, a := range as {
		where := fmt.Sprintf("attractions[%d] %s", i, a.LocationID)
		p := d.placeByCity[a.CityID]
		switch {
		case p == nil:
			return &WorldError{File: travelAttractionsFile, Err: fmt.Errorf("%s: city %q is not in %s", where, a.CityID, CitiesFile)}
		case d.attractionByID[a.LocationID] != nil || d.placeByGeo[a.LocationID] != nil:
			return &WorldError{File: travelAttractionsFile, Err: fmt.Errorf("%s: duplicate location id", where)}
		case (a.Open == nil) != (a.Close == nil):
			return &WorldError{File: travelAttractionsFile, Err: fmt.Errorf("%s: open and close go together", where)}
		case a.Rating < 1 || a.Rating > 5 || len(a.PhotoIDs) == 0:
			return &WorldError{File: travelAttractionsFile, Err: fmt.Errorf("%s: rating and photos are required", where)}
		}
		a.place = p
		a.folded = fold(a.Name)
		a.slug = taSlug(a.Name)
		a.images = taImages(a.PhotoIDs[0])
		p.attractions = append(p.attractions, a)
		d.attractionByID[a.LocationID] = a
	}
	for _, p := range d.places {
		sort.Slice(p.attractions, func(i, j int) bool { return p.attractions[i].RankingPosition < p.attractions[j].RankingPosition })
		if len(p.attractions) > 0 && len(p.hotels) == 0 {
			return &WorldError{File: travelAttractionsFile, Err: fmt.Errorf("city %s has attractions but no hotels", p.CityID)}
		}
	}
	d.attractions = as
	return nil
}

// travelHash is a stable 64-bit hash of its parts, for ids and generation
// seeds that must not depend on the argument spelling of one call.
func travelHash(parts ...string) uint64 {
	h := sha256.New()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return binary.BigEndian.Uint64(h.Sum(nil)[:8])
}

// travelIsCode reports whether s is n uppercase ASCII letters or digits (IATA, ICAO codes).
func travelIsCode(s string, n int) bool {
	if len(s) != n {
		return false
	}
	for _, r := range s {
		if (r < 'A' || r > 'Z') && (r < '0' || r > '9') {
			return false
		}
	}
	return true
}

// travelDate parses a YYYY-MM-DD date.
func travelDate(s string) (time.Time, bool) {
	t, err := time.Parse(time.DateOnly, strings.TrimSpace(s))
	return t, err == nil
}

// travelToday is the sandbox date (UTC) of the call.
func travelToday(c *Call) time.Time {
	y, m, dd := c.Now.UTC().Date()
	return time.Date(y, m, dd, 0, 0, 0, 0, time.UTC)
}

// travelMoney rounds an amount to a currency's minor unit.
func travelMoney(w *World, amount float64, code string) float64 {
	dec := 2
	if cur, ok := w.Currency(code); ok {
		dec = cur.Decimals
	}
	p := math.Pow10(dec)
	return math.Round(amount*p) / p
}

// travelFromEUR converts a EUR amount to code, rounded to its minor unit.
func travelFromEUR(w *World, eur float64, code string) float64 {
	v, err := w.Convert(eur, "EUR", code)
	if err != nil {
		return travelMoney(w, eur, "EUR")
	}
	return travelMoney(w, v, code)
}

// travelRound rounds to n decimals.
func travelRound(v float64, n int) float64 {
	p := math.Pow10(n)
	return math.Round(v*p) / p
}

// travelTimestamp is the call's clock as Unix milliseconds, as the RapidAPI
// travel sites stamp their answers.
func travelTimestamp(c *Call) int64 { return c.Now.UnixMilli() }

// travelCities finds the cities a search box query means, best first: the
// city FindCity resolves ("Lisbon, Portugal", "NYC", "LHR"), then cities
// ranked as SearchCities ranks them (exact name or alias, name prefix,
// alias prefix, word prefix, substring; ties to the more populous), over
// names folded once at load.
func travelCities(w *World, q string, limit int) []*City {
	var out []*City
	first, ok := w.FindCity(q)
	if ok {
		out = append(out, first)
	}
	fq := fold(q)
	if fq == "" {
		return out
	}
	type hit struct {
		c    *City
		rank int
	}
	var hits []hit
	for _, p := range w.travel.places {
		best := matchRank(p.keys, fq)
		if best >= 0 && p.city != first {
			hits = append(hits, hit{p.city, best})
		}
	}
	sort.Slice(hits, func(i, j int) bool {
		if hits[i].rank != hits[j].rank {
			return hits[i].rank < hits[j].rank
		}
		if hits[i].c.Population != hits[j].c.Population {
			return hits[i].c.Population > hits[j].c.Population
		}
		return hits[i].c.ID < hits[j].c.ID
	})
	for _, h := range hits {
		if len(out) >= limit {
			break
		}
		out = append(out, h.c)
	}
	return out
}
