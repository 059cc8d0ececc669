package world

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
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
	AirportsFile    = "airports.json"
	AirlinesFile    = "travel_airlines.json"
	PlacesFile      = "travel_places.json"
	HotelsFile      = "hotels.json"
	AttractionsFile = "attractions.json"
	ReviewsFile     = "travel_reviews.json"
)

// Airport is a real airport; CityID names the core-world city it serves.
type Airport struct {
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

	City        *City          `json:"-"`
	CountryInfo *Country       `json:"-"`
	Loc         *time.Location `json:"-"`
	Folded      string         `json:"-"` // fold(Name), for search
	Title       string         `json:"-"` // Skyscanner's short name, e.g. "London Heathrow"
	SkyEntry    map[string]any `json:"-"` // the auto-complete entry; shared, read-only
}

// Airline is a real airline with its Skyscanner carrier id and hubs.
type Airline struct {
	Code     string   `json:"code"`
	Name     string   `json:"name"`
	SkyID    int      `json:"sky_id"`
	Country  string   `json:"country"`
	Hubs     []string `json:"hubs"`
	Alliance string   `json:"alliance"`
	LowCost  bool     `json:"low_cost"`

	region string // the home country's continent-level region
}

// Place is one core-world city as the travel sites know it.
type Place struct {
	CityID                string `json:"city_id"`
	SkyID                 string `json:"sky_id"` // "" when the city has no airport
	SkyEntityID           string `json:"sky_entity_id"`
	BookingDestID         string `json:"booking_dest_id"`
	TripAdvisorGeoID      string `json:"tripadvisor_geo_id"`
	BookingProperties     int    `json:"booking_properties"`
	TripAdvisorThingsToDo int    `json:"tripadvisor_things_to_do"`
	// Transit is the city's public transport, main kind first ("metro",
	// "tram", "train", "light rail", "bus", "water bus"): what reviews may
	// say a hotel is near.
	Transit []string `json:"transit"`

	City        *City          `json:"-"`
	CountryInfo *Country       `json:"-"`
	Keys        []string       `json:"-"` // folded name, ASCII name, aliases
	Slug        string         `json:"-"` // URL form of the city name
	SkyEntry    map[string]any `json:"-"` // the auto-complete entry; shared, read-only
	Airports    []*Airport     `json:"-"` // in the city's order, busiest first
	Hotels      []*Hotel       `json:"-"`
	Attractions []*Attraction  `json:"-"` // by ranking
}

// Hotel is one bookable property.
type Hotel struct {
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

	Place     *Place   `json:"-"`
	Area      *Area    `json:"-"` // the neighbourhood District names
	Folded    string   `json:"-"` // fold(Name), for search
	PhotoKeys []string `json:"-"` // the k= signature of each photo URL, by PhotoIDs index
}

// Attraction is a real attraction with TripAdvisor-style facts.
type Attraction struct {
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

	Place  *Place         `json:"-"`
	Folded string         `json:"-"` // fold(Name), for search
	Slug   string         `json:"-"` // URL form of the name
	Images map[string]any `json:"-"` // the main photo's sizes; shared, read-only
}

// MaxAttractionReviews is how many reviews of one attraction are written out.
const MaxAttractionReviews = 100

// ReviewBank holds the phrases reviews are composed from.
type ReviewBank struct {
	Reviewers [][3]string `json:"reviewers"` // name, country code, country name
	// TravellerTypes are the reviewer types that go with each travel
	// purpose: a "family_with_children" does not travel for "business".
	TravellerTypes map[string][]string `json:"traveller_types"`
	Hotel          struct {
		Titles map[string][]string `json:"titles"` // superb, good, fair
		Pros   []Phrase            `json:"pros"`
		Cons   []Phrase            `json:"cons"`
	} `json:"hotel"`
	// Attraction reviews compose their text from an opener and a closer of
	// their rating and a detail naming the attraction ("{name}", "{city}").
	Attraction struct {
		Titles  map[string][]string `json:"titles"` // by rating "3".."5"
		Openers map[string][]string `json:"openers"`
		Details []Phrase            `json:"details"`
		Closers map[string][]Phrase `json:"closers"`
	} `json:"attraction"`
}

// Travel is the loaded travel part with its indexes.
type Travel struct {
	Airports           []*Airport // by IATA code
	AirportByIATA      map[string]*Airport
	AirportBySkyEntity map[string]*Airport
	Airlines           []*Airline // in file order
	AirlinesByHub      map[string][]*Airline
	Places             []*Place // by city id
	PlaceByCity        map[string]*Place
	PlaceBySkyEntity   map[string]*Place
	PlaceByDest        map[string]*Place
	PlaceByGeo         map[string]*Place
	Hotels             []*Hotel
	HotelByID          map[int]*Hotel
	Attractions        []*Attraction
	AttractionByID     map[string]*Attraction
	Reviews            ReviewBank
	Areas              *Areas // the neighbourhoods hotels are placed in

	routes map[string]*AirportCarriers // by IATA code, see Serves
}

// travel returns the loaded travel part.

func loadTravel(fsys fs.FS, w *World) (*Travel, error) {
	var airports struct {
		Airports []*Airport `json:"airports"`
	}
	var airlines struct {
		Airlines []*Airline `json:"airlines"`
	}
	var places struct {
		Places []*Place `json:"places"`
	}
	var hotels struct {
		Hotels []*Hotel `json:"hotels"`
	}
	var attractions struct {
		Attractions []*Attraction `json:"attractions"`
	}
	d := &Travel{}
	for _, f := range []struct {
		name string
		v    any
	}{
		{AirportsFile, &airports}, {AirlinesFile, &airlines}, {PlacesFile, &places},
		{HotelsFile, &hotels}, {AttractionsFile, &attractions}, {ReviewsFile, &d.Reviews},
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
	if err := d.loadAreas(fsys, w); err != nil {
		return nil, err
	}
	if err := d.loadRoutes(fsys); err != nil {
		return nil, err
	}
	if len(d.Reviews.Reviewers) == 0 || len(d.Reviews.Hotel.Pros) == 0 || len(d.Reviews.Hotel.Cons) == 0 {
		return nil, &WorldError{File: ReviewsFile, Err: fmt.Errorf("reviewers, hotel pros and cons must not be empty")}
	}
	if len(d.Reviews.TravellerTypes["leisure"]) == 0 || len(d.Reviews.TravellerTypes["business"]) == 0 {
		return nil, &WorldError{File: ReviewsFile, Err: fmt.Errorf("traveller_types for leisure and business are required")}
	}
	for _, band := range []string{"superb", "good", "fair"} {
		if len(d.Reviews.Hotel.Titles[band]) == 0 {
			return nil, &WorldError{File: ReviewsFile, Err: fmt.Errorf("hotel titles %q missing", band)}
		}
	}
	ra := d.Reviews.Attraction
	for _, r := range []string{"3", "4", "5"} {
		if len(ra.Titles[r]) == 0 || len(ra.Openers[r]) == 0 || len(ra.Closers[r]) == 0 || len(ra.Details) == 0 {
			return nil, &WorldError{File: ReviewsFile, Err: fmt.Errorf("attraction titles, openers, details and closers for rating %s missing", r)}
		}
		// Every review of an attraction (up to 100 are written) has a text
		// of its own.
		if n := len(ra.Openers[r]) * len(ra.Details) * len(ra.Closers[r]); n < MaxAttractionReviews {
			return nil, &WorldError{File: ReviewsFile, Err: fmt.Errorf("attraction reviews of rating %s can be written %d ways, fewer than %d", r, n, MaxAttractionReviews)}
		}
	}
	return d, nil
}

func (d *Travel) indexAirports(w *World, as []*Airport) error {
	d.AirportByIATA = map[string]*Airport{}
	d.AirportBySkyEntity = map[string]*Airport{}
	for i, a := range as {
		where := fmt.Sprintf("airports[%d] %s", i, a.IATA)
		c, ok := w.CityByID(a.CityID)
		switch {
		case !IsCode(a.IATA, 3) || !IsCode(a.ICAO, 4):
			return &WorldError{File: AirportsFile, Err: fmt.Errorf("%s: IATA %q or ICAO %q malformed", where, a.IATA, a.ICAO)}
		case !ok:
			return &WorldError{File: AirportsFile, Err: fmt.Errorf("%s: city %q is not in %s", where, a.CityID, CitiesFile)}
		case c.Country != a.Country:
			return &WorldError{File: AirportsFile, Err: fmt.Errorf("%s: country %s differs from its city's %s", where, a.Country, c.Country)}
		case d.AirportByIATA[a.IATA] != nil || d.AirportBySkyEntity[a.SkyEntityID] != nil || a.SkyEntityID == "":
			return &WorldError{File: AirportsFile, Err: fmt.Errorf("%s: duplicate IATA code or entity id", where)}
		case DistanceKm(a.Lat, a.Lon, c.Lat, c.Lon) > 120:
			return &WorldError{File: AirportsFile, Err: fmt.Errorf("%s: more than 120 km from %s", where, c.ID)}
		}
		loc, err := Zone(a.TimeZone)
		if err != nil {
			return &WorldError{File: AirportsFile, Err: fmt.Errorf("%s: %w", where, err)}
		}
		a.City, a.Loc = c, loc
		a.CountryInfo, _ = w.Country(a.Country)
		a.Folded = Fold(a.Name)
		a.Title = skyAirportTitle(a)
		d.AirportByIATA[a.IATA] = a
		d.AirportBySkyEntity[a.SkyEntityID] = a
	}
	d.Airports = append([]*Airport(nil), as...)
	sort.Slice(d.Airports, func(i, j int) bool { return d.Airports[i].IATA < d.Airports[j].IATA })
	for _, c := range w.Cities() {
		for _, code := range c.Airports {
			if d.AirportByIATA[code] == nil {
				return &WorldError{File: AirportsFile, Err: fmt.Errorf("airport %s of city %s is missing", code, c.ID)}
			}
		}
	}
	return nil
}

func (d *Travel) indexAirlines(w *World, as []*Airline) error {
	d.AirlinesByHub = map[string][]*Airline{}
	seen := map[string]bool{}
	for i, a := range as {
		k, ok := w.Country(a.Country)
		if !ok || a.Code == "" || seen[a.Code] || len(a.Hubs) == 0 {
			return &WorldError{File: AirlinesFile, Err: fmt.Errorf("airlines[%d] %s: unknown country, duplicate code or no hubs", i, a.Code)}
		}
		seen[a.Code] = true
		a.region = k.Region
		for _, h := range a.Hubs {
			if d.AirportByIATA[h] == nil {
				return &WorldError{File: AirlinesFile, Err: fmt.Errorf("airlines[%d] %s: hub %s is not in %s", i, a.Code, h, AirportsFile)}
			}
			d.AirlinesByHub[h] = append(d.AirlinesByHub[h], a)
		}
	}
	d.Airlines = as
	return nil
}

func (d *Travel) indexPlaces(w *World, ps []*Place) error {
	d.PlaceByCity = map[string]*Place{}
	d.PlaceBySkyEntity = map[string]*Place{}
	d.PlaceByDest = map[string]*Place{}
	d.PlaceByGeo = map[string]*Place{}
	for i, p := range ps {
		where := fmt.Sprintf("places[%d] %s", i, p.CityID)
		c, ok := w.CityByID(p.CityID)
		if !ok {
			return &WorldError{File: PlacesFile, Err: fmt.Errorf("%s: city is not in %s", where, CitiesFile)}
		}
		if d.PlaceByCity[p.CityID] != nil || d.PlaceBySkyEntity[p.SkyEntityID] != nil || d.AirportBySkyEntity[p.SkyEntityID] != nil ||
			d.PlaceByDest[p.BookingDestID] != nil || d.PlaceByGeo[p.TripAdvisorGeoID] != nil {
			return &WorldError{File: PlacesFile, Err: fmt.Errorf("%s: duplicate city or id", where)}
		}
		if (p.SkyID == "") != (len(c.Airports) == 0) {
			return &WorldError{File: PlacesFile, Err: fmt.Errorf("%s: sky_id must be set exactly when the city has airports", where)}
		}
		if err := p.checkTransit(); err != nil {
			return &WorldError{File: PlacesFile, Err: err}
		}
		p.City = c
		p.CountryInfo, _ = w.Country(c.Country)
		p.Slug = Slug(c.Name)
		p.Keys = []string{Fold(c.Name), Fold(c.ASCIIName)}
		for _, a := range c.Aliases {
			p.Keys = append(p.Keys, Fold(a))
		}
		for _, code := range c.Airports {
			p.Airports = append(p.Airports, d.AirportByIATA[code])
		}
		d.PlaceByCity[p.CityID] = p
		d.PlaceBySkyEntity[p.SkyEntityID] = p
		d.PlaceByDest[p.BookingDestID] = p
		d.PlaceByGeo[p.TripAdvisorGeoID] = p
		if p.SkyID != "" {
			p.SkyEntry = skyCityEntry(p)
			for _, a := range p.Airports {
				if a.SkyEntry == nil || a.City == c {
					a.SkyEntry = skyAirportEntry(p, a)
				}
			}
		}
	}
	for _, c := range w.Cities() {
		if d.PlaceByCity[c.ID] == nil {
			return &WorldError{File: PlacesFile, Err: fmt.Errorf("city %s has no entry", c.ID)}
		}
	}
	d.Places = append([]*Place(nil), ps...)
	sort.Slice(d.Places, func(i, j int) bool { return d.Places[i].CityID < d.Places[j].CityID })
	return nil
}

func (d *Travel) indexHotels(hs []*Hotel) error {
	d.HotelByID = map[int]*Hotel{}
	for i, h := range hs {
		where := fmt.Sprintf("hotels[%d] %d", i, h.HotelID)
		p := d.PlaceByCity[h.CityID]
		switch {
		case p == nil:
			return &WorldError{File: HotelsFile, Err: fmt.Errorf("%s: city %q is not in %s", where, h.CityID, CitiesFile)}
		case d.HotelByID[h.HotelID] != nil || h.HotelID <= 0:
			return &WorldError{File: HotelsFile, Err: fmt.Errorf("%s: duplicate or non-positive id", where)}
		case h.Stars < 1 || h.Stars > 5 || !(h.BasePriceEUR > 0) || len(h.RoomTypes) == 0 || len(h.PhotoIDs) == 0:
			return &WorldError{File: HotelsFile, Err: fmt.Errorf("%s: stars, price, room types and photos are required", where)}
		}
		h.Place = p
		h.Folded = Fold(h.Name)
		for _, id := range h.PhotoIDs {
			h.PhotoKeys = append(h.PhotoKeys, HotelKey("hotel", strconv.Itoa(id)))
		}
		p.Hotels = append(p.Hotels, h)
		d.HotelByID[h.HotelID] = h
	}
	for _, p := range d.Places {
		if len(p.Airports) > 0 && len(p.Hotels) == 0 {
			return &WorldError{File: HotelsFile, Err: fmt.Errorf("city %s has airports but no hotels", p.CityID)}
		}
	}
	d.Hotels = hs
	return nil
}

func (d *Travel) indexAttractions(as []*Attraction) error {
	d.AttractionByID = map[string]*Attraction{}
	for i, a := range as {
		where := fmt.Sprintf("attractions[%d] %s", i, a.LocationID)
		p := d.PlaceByCity[a.CityID]
		switch {
		case p == nil:
			return &WorldError{File: AttractionsFile, Err: fmt.Errorf("%s: city %q is not in %s", where, a.CityID, CitiesFile)}
		case d.AttractionByID[a.LocationID] != nil || d.PlaceByGeo[a.LocationID] != nil:
			return &WorldError{File: AttractionsFile, Err: fmt.Errorf("%s: duplicate location id", where)}
		case (a.Open == nil) != (a.Close == nil):
			return &WorldError{File: AttractionsFile, Err: fmt.Errorf("%s: open and close go together", where)}
		case a.Rating < 1 || a.Rating > 5 || len(a.PhotoIDs) == 0:
			return &WorldError{File: AttractionsFile, Err: fmt.Errorf("%s: rating and photos are required", where)}
		}
		a.Place = p
		a.Folded = Fold(a.Name)
		a.Slug = Slug(a.Name)
		a.Images = AttractionImages(a.PhotoIDs[0])
		p.Attractions = append(p.Attractions, a)
		d.AttractionByID[a.LocationID] = a
	}
	for _, p := range d.Places {
		sort.Slice(p.Attractions, func(i, j int) bool { return p.Attractions[i].RankingPosition < p.Attractions[j].RankingPosition })
		if len(p.Attractions) > 0 && len(p.Hotels) == 0 {
			return &WorldError{File: AttractionsFile, Err: fmt.Errorf("city %s has attractions but no hotels", p.CityID)}
		}
	}
	d.Attractions = as
	return nil
}

// IsCode reports whether s is n uppercase ASCII letters or digits (IATA, ICAO codes).
func IsCode(s string, n int) bool {
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

// AttractionPhotoURL is a TripAdvisor media URL for a photo id at one size prefix.
func AttractionPhotoURL(id int, prefix string) string {
	h := fmt.Sprintf("%08x", uint32(id))
	return fmt.Sprintf("https://media-cdn.tripadvisor.com/media/photo-%s/%s/%s/%s/%s/caption.jpg", prefix, h[0:2], h[2:4], h[4:6], h[6:8])
}

// AttractionImages is the images object of an attraction's photo, in every size the travel site serves.
func AttractionImages(id int) map[string]any {
	img := func(prefix string, w, h int) map[string]any {
		return map[string]any{"url": AttractionPhotoURL(id, prefix), "width": strconv.Itoa(w), "height": strconv.Itoa(h)}
	}
	return map[string]any{
		"thumbnail": img("t", 50, 50), "small": img("l", 150, 150), "medium": img("f", 250, 167),
		"large": img("s", 550, 367), "original": img("o", 2048, 1365),
	}
}

// Slug is the URL form of a name: "belem tower" → "Belem_Tower".
func Slug(s string) string {
	words := strings.Fields(Fold(s))
	for i, w := range words {
		words[i] = strings.ToUpper(w[:1]) + w[1:]
	}
	return strings.Join(words, "_")
}

// HotelKey is a photo URL's signature parameter: 64 hex characters.
func HotelKey(parts ...string) string {
	s := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
	return hex.EncodeToString(s[:])
}

// SkyPlaceID is the decoded form of an auto-complete id: the Skyscanner
// code, the entity id and the entity id of the city for hotels.
type SkyPlaceID struct {
	S string `json:"s"`
	E string `json:"e"`
	H string `json:"h"`
}

// SkyEncodeID mints the opaque place id, base64 of compact JSON as the real API does.
func SkyEncodeID(s, e, h string) string {
	b, _ := json.Marshal(SkyPlaceID{S: s, E: e, H: h})
	return base64.StdEncoding.EncodeToString(b)
}

// skyAirportTitle is the short airport name Skyscanner shows ("London Heathrow").
func skyAirportTitle(a *Airport) string {
	t := a.Name
	for _, suf := range []string{" International Airport", " Airport"} {
		t = strings.TrimSuffix(t, suf)
	}
	if !strings.Contains(Fold(t), Fold(a.City.ASCIIName)) && !strings.Contains(Fold(t), Fold(a.City.Name)) {
		t = a.City.Name + " " + t
	}
	return t
}

func skyCityEntry(p *Place) map[string]any {
	id := SkyEncodeID(p.SkyID, p.SkyEntityID, p.SkyEntityID)
	return map[string]any{
		"id": id,
		"presentation": map[string]any{
			"id": id, "title": p.City.Name, "suggestionTitle": p.City.Name + " (Any)", "subtitle": p.CountryInfo.Name,
		},
		"navigation": map[string]any{
			"entityId": p.SkyEntityID, "entityType": "CITY", "localizedName": p.City.Name,
			"relevantFlightParams": map[string]any{"skyId": p.SkyID, "entityId": p.SkyEntityID, "flightPlaceType": "CITY", "localizedName": p.City.Name},
			"relevantHotelParams":  map[string]any{"entityId": p.SkyEntityID, "entityType": "CITY", "localizedName": p.City.Name},
		},
	}
}

func skyAirportEntry(p *Place, a *Airport) map[string]any {
	id := SkyEncodeID(a.IATA, a.SkyEntityID, p.SkyEntityID)
	title := a.Title
	return map[string]any{
		"id": id,
		"presentation": map[string]any{
			"id": id, "title": title, "suggestionTitle": title + " (" + a.IATA + ")", "subtitle": p.CountryInfo.Name,
		},
		"navigation": map[string]any{
			"entityId": a.SkyEntityID, "entityType": "AIRPORT", "localizedName": title,
			"relevantFlightParams": map[string]any{"skyId": a.IATA, "entityId": a.SkyEntityID, "flightPlaceType": "AIRPORT", "localizedName": title},
			"relevantHotelParams":  map[string]any{"entityId": p.SkyEntityID, "entityType": "CITY", "localizedName": p.City.Name},
		},
	}
}
