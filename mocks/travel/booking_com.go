package travel

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/understudy/understudy/mocks/standin"
	"github.com/understudy/understudy/mocks/world"
	"github.com/understudy/understudy/sandbox"
)

// The booking_com stand-in (booking-com15): destination search with opaque
// dest_ids, hotel search priced for the stay, and hotel details, rooms,
// reviews and photos, over the world's hotels.

const bkTool = "booking_com"

// bkError is booking-com15's validation error: a list of field messages.
func bkError(status int, field, msg string) *sandbox.Rejection {
	return &sandbox.Rejection{Status: status, Body: map[string]any{"status": false, "message": []any{map[string]any{field: msg}}}}
}

func bkOK(c *standin.Call, data any) map[string]any {
	return map[string]any{"status": true, "message": "Success", "timestamp": timestamp(c), "data": data}
}

// bkPhoto is the URL of a hotel's i-th photo at a size.
func bkPhoto(h *world.Hotel, i int, size string) string {
	return "https://cf.bstatic.com/xdata/images/hotel/" + size + "/" + strconv.Itoa(h.PhotoIDs[i]) + ".jpg?k=" + h.PhotoKeys[i] + "&o="
}

func bkCityImage(p *world.Place) string {
	id := 600000 + stableHash("bkcity", p.CityID)%400000
	return "https://cf.bstatic.com/xdata/images/city/150x150/" + strconv.FormatUint(id, 10) + ".jpg?k=" + world.HotelKey("city", p.CityID) + "&o="
}

func bkCityEntry(p *world.Place) map[string]any {
	cc := strings.ToLower(p.City.Country)
	return map[string]any{
		"dest_id": p.BookingDestID, "search_type": "city", "dest_type": "city", "type": "ci",
		"name": p.City.Name, "city_name": p.City.Name, "label": p.City.Name + ", " + p.City.Region + ", " + p.CountryInfo.Name,
		"region": p.City.Region, "country": p.CountryInfo.Name, "cc1": cc,
		"latitude": p.City.Lat, "longitude": p.City.Lon,
		"hotels": len(p.Hotels), "nr_hotels": len(p.Hotels), // what search_hotels finds there
		"image_url": bkCityImage(p), "lc": "en", "city_ufi": nil,
		"roundtrip": "GhA" + world.HotelKey("rt", p.BookingDestID)[:24] + "IAAoATICZW46",
	}
}

func bkHotelEntry(h *world.Hotel) map[string]any {
	p := h.Place
	ufi, _ := strconv.Atoi(p.BookingDestID)
	return map[string]any{
		"dest_id": strconv.Itoa(h.HotelID), "search_type": "hotel", "dest_type": "hotel", "type": "ho",
		"name": h.Name, "city_name": p.City.Name, "label": h.Name + ", " + h.District + ", " + p.City.Name + ", " + p.CountryInfo.Name,
		"region": p.City.Region, "country": p.CountryInfo.Name, "cc1": strings.ToLower(p.City.Country),
		"latitude": h.Lat, "longitude": h.Lon, "hotels": 1, "nr_hotels": 1,
		"image_url": bkPhoto(h, 0, "square60"), "lc": "en", "city_ufi": ufi,
		"roundtrip": "GhA" + world.HotelKey("rt", strconv.Itoa(h.HotelID))[:24] + "IAAoATICZW46",
	}
}

func bkSearchDestination(_ context.Context, w *world.World, c *standin.Call) (any, error) {
	d := w.Travel
	q := c.ArgString("query")
	data := []any{}
	fq := world.Fold(q)
	if fq == "" {
		return bkOK(c, data), nil
	}
	for _, city := range searchCities(w, q, 5) {
		if p := d.PlaceByCity[city.ID]; p != nil && len(p.Hotels) > 0 {
			data = append(data, bkCityEntry(p))
		}
	}
	if len(fq) >= 3 {
		for _, h := range d.Hotels {
			if world.HasWords(h.Folded, fq) && len(data) < 12 {
				data = append(data, bkHotelEntry(h))
			}
		}
	}
	return bkOK(c, data), nil
}

// bkStay is a validated stay: dates, guests, rooms, currency, and the
// language of the answer's texts.
type bkStay struct {
	Arrive, Depart time.Time
	Nights         int
	Adults, Rooms  int
	Children       []int // ages
	Currency       string
	Lang           string
}

// bkGuests is the party as the price sees it: adults, and children from 2
// years old as half an adult each (infants stay free).
func (st bkStay) bkGuests() float64 {
	g := float64(st.Adults)
	for _, age := range st.Children {
		if age >= 2 {
			g += 0.5
		}
	}
	return g
}

func bkParseStay(w *world.World, c *standin.Call) (bkStay, error) {
	st := bkStay{Adults: 1, Rooms: 1, Currency: "EUR", Lang: localeLang(c.ArgString("languagecode"))}
	var ok bool
	if st.Arrive, ok = parseDate(c.ArgString("arrival_date")); !ok {
		return st, bkError(400, "arrival_date", "arrival_date must be in the format yyyy-mm-dd")
	}
	if st.Depart, ok = parseDate(c.ArgString("departure_date")); !ok {
		return st, bkError(400, "departure_date", "departure_date must be in the format yyyy-mm-dd")
	}
	if st.Arrive.Before(today(c)) {
		return st, bkError(400, "arrival_date", "arrival_date cannot be in the past")
	}
	if !st.Depart.After(st.Arrive) {
		return st, bkError(400, "departure_date", "departure_date must be after arrival_date")
	}
	st.Nights = int(st.Depart.Sub(st.Arrive).Hours() / 24)
	if st.Nights > 90 {
		return st, bkError(400, "departure_date", "The stay cannot be longer than 90 nights")
	}
	if st.Arrive.After(today(c).AddDate(1, 0, 0)) {
		return st, bkError(400, "arrival_date", "arrival_date must be within the next 365 days")
	}
	if c.Has("adults") {
		if st.Adults = c.ArgInt("adults", 0); st.Adults < 1 || st.Adults > 30 {
			return st, bkError(400, "adults", "adults must be between 1 and 30")
		}
	}
	if c.Has("room_qty") {
		if st.Rooms = c.ArgInt("room_qty", 0); st.Rooms < 1 || st.Rooms > 30 {
			return st, bkError(400, "room_qty", "room_qty must be between 1 and 30")
		}
	}
	if v := c.ArgString("children_age"); v != "" {
		for _, part := range strings.Split(v, ",") {
			age, err := strconv.Atoi(strings.TrimSpace(part))
			if err != nil || age < 0 || age > 17 {
				return st, bkError(400, "children_age", "children_age must be the children's ages from 0 to 17, comma separated, e.g. 0,17")
			}
			st.Children = append(st.Children, age)
		}
	}
	if v := c.ArgString("currency_code"); v != "" {
		cur, ok := w.Currency(v)
		if !ok {
			return st, bkError(400, "currency_code", "Invalid currency_code")
		}
		st.Currency = cur.Code
	}
	return st, nil
}

// bkNightEUR is a room's price for one night in EUR: the hotel's base rate
// moved by season, weekday and demand on that date, the same in every API.
func bkNightEUR(h *world.Hotel, room int, night time.Time) float64 {
	season := 1.0
	m := night.Month()
	south := h.Lat < 0
	if (!south && (m == time.July || m == time.August)) || (south && (m == time.December || m == time.January)) {
		season = 1.25
	} else if (!south && (m == time.January || m == time.February || m == time.November)) || (south && (m == time.June || m == time.July)) {
		season = 0.85
	}
	if wd := night.Weekday(); wd == time.Friday || wd == time.Saturday {
		season *= 1.12
	}
	// Demand noise, seeded by hotel, date and room type: cheap and stable.
	day := uint64(night.Unix() / 86400)
	r := rand.New(rand.NewPCG(uint64(h.HotelID)<<20^day, uint64(room)+0xB00C))
	roomFactor := 1 + 0.28*float64(room)
	return h.BasePriceEUR * season * roomFactor * (0.9 + r.Float64()*0.2)
}

// bkStayEUR is the price of the stay in a room type: rooms × nights, with a
// surcharge when more than two guests (children counted as bkGuests says)
// share each room.
func bkStayEUR(h *world.Hotel, room int, st bkStay) float64 {
	total := 0.0
	for i := range st.Nights {
		total += bkNightEUR(h, room, st.Arrive.AddDate(0, 0, i))
	}
	perRoom := st.bkGuests() / float64(st.Rooms)
	if perRoom > 2 {
		total *= 1 + 0.3*(perRoom-2)
	}
	return total * float64(st.Rooms)
}

// bkScoreWords are Booking's words for a review score, best first, by
// language.
var bkScoreWords = map[string][5]string{
	"en": {"Wonderful", "Excellent", "Very Good", "Good", "Pleasant"},
	"es": {"Fantástico", "Excelente", "Muy bien", "Bien", "Agradable"},
	"fr": {"Fabuleux", "Superbe", "Très bien", "Bien", "Agréable"},
	"de": {"Hervorragend", "Fabelhaft", "Sehr gut", "Gut", "Angenehm"},
	"it": {"Eccezionale", "Favoloso", "Ottimo", "Buono", "Piacevole"},
	"pt": {"Fantástico", "Excelente", "Muito bom", "Bom", "Agradável"},
	"nl": {"Fantastisch", "Uitstekend", "Zeer goed", "Goed", "Aangenaam"},
}

func bkScoreWord(s float64, lang string) string {
	words, ok := bkScoreWords[lang]
	if !ok {
		words = bkScoreWords["en"]
	}
	switch {
	case s >= 9:
		return words[0]
	case s >= 8.5:
		return words[1]
	case s >= 8:
		return words[2]
	case s >= 7:
		return words[3]
	default:
		return words[4]
	}
}

// Headings of the answers, by language.
var (
	bkFound = phrase{"en": "%s: %d properties found", "es": "%s: %d alojamientos encontrados", "fr": "%s : %d établissements trouvés",
		"de": "%s: %d Unterkünfte gefunden", "it": "%s: %d strutture trovate", "pt": "%s: %d propriedades encontradas", "nl": "%s: %d accommodaties gevonden"}
	bkPopular = phrase{"en": "Most popular facilities", "es": "Servicios más populares", "fr": "Équipements les plus populaires",
		"de": "Beliebteste Ausstattung", "it": "Servizi più richiesti", "pt": "Comodidades mais populares", "nl": "Populairste faciliteiten"}
)

func bkPrice(w *world.World, eur float64, cur string) map[string]any {
	return map[string]any{"currency": cur, "value": fromEUR(w, eur, cur)}
}

func bkHotelByArg(w *world.World, c *standin.Call) (*world.Hotel, error) {
	v := c.ArgString("hotel_id")
	id, err := strconv.Atoi(v)
	h := w.Travel.HotelByID[id]
	if err != nil || h == nil {
		return nil, bkError(400, "hotel_id", "Invalid hotel_id")
	}
	return h, nil
}

func bkSearchHotels(_ context.Context, w *world.World, c *standin.Call) (any, error) {
	d := w.Travel
	st, err := bkParseStay(w, c)
	if err != nil {
		return nil, err
	}
	destID := c.ArgString("dest_id")
	stype := strings.ToLower(c.ArgString("search_type"))
	var hotels []*world.Hotel
	var place *world.Place
	switch stype {
	case "city", "":
		place = d.PlaceByDest[destID]
		if place == nil {
			return nil, bkError(400, "dest_id", "Invalid dest_id")
		}
		hotels = append(hotels, place.Hotels...)
	case "hotel":
		id, _ := strconv.Atoi(destID)
		h := d.HotelByID[id]
		if h == nil {
			return nil, bkError(400, "dest_id", "Invalid dest_id")
		}
		place, hotels = h.Place, []*world.Hotel{h}
	default:
		return nil, bkError(400, "search_type", "search_type must be one of CITY, HOTEL (from search_hotel_destination)")
	}
	page := c.ArgInt("page_number", 1)
	if page < 1 {
		return nil, bkError(400, "page_number", "page_number must be 1 or more")
	}
	sort.SliceStable(hotels, func(i, j int) bool {
		a, b := hotels[i], hotels[j]
		if a.IsPreferred != b.IsPreferred {
			return a.IsPreferred
		}
		if a.ReviewScore != b.ReviewScore {
			return a.ReviewScore > b.ReviewScore
		}
		return a.HotelID < b.HotelID
	})
	const perPage = 20
	list := []any{}
	for i := (page - 1) * perPage; i < len(hotels) && i < page*perPage; i++ {
		list = append(list, bkHotelCard(w, hotels[i], st, i))
	}
	return bkOK(c, map[string]any{
		"hotels": list,
		"meta":   []any{map[string]any{"title": fmt.Sprintf(bkFound.in(st.Lang), place.City.Name, len(hotels))}},
		"appear": []any{},
	}), nil
}

func bkHotelCard(w *world.World, h *world.Hotel, st bkStay, pos int) map[string]any {
	eur := bkStayEUR(h, 0, st)
	ufi, _ := strconv.Atoi(h.Place.BookingDestID)
	photos := make([]any, 0, 2)
	for i := range 2 {
		photos = append(photos, bkPhoto(h, i, "square500"))
	}
	price := fromEUR(w, eur, st.Currency)
	excluded := fromEUR(w, eur*0.04, st.Currency)
	return map[string]any{
		"hotel_id": h.HotelID,
		"accessibilityLabel": fmt.Sprintf("%s.\n%d out of 5 stars.\n%.1f %s %d reviews.\n%s • %s.\n%d nights, %s.\nCurrent price %s %.2f.",
			h.Name, h.Stars, h.ReviewScore, bkScoreWord(h.ReviewScore, st.Lang), h.ReviewCount, h.District, h.Place.City.Name, st.Nights, bkParty(st), st.Currency, price),
		"property": map[string]any{
			"id": h.HotelID, "name": h.Name, "ufi": ufi, "position": pos, "rankingPosition": pos,
			"latitude": h.Lat, "longitude": h.Lon, "countryCode": strings.ToLower(h.Place.City.Country),
			"wishlistName": h.Place.City.Name, "currency": st.Currency,
			"reviewScore": h.ReviewScore, "reviewScoreWord": bkScoreWord(h.ReviewScore, st.Lang), "reviewCount": h.ReviewCount,
			"propertyClass": h.Stars, "accuratePropertyClass": h.Stars, "qualityClass": 0, "isPreferred": h.IsPreferred,
			"checkinDate": st.Arrive.Format(time.DateOnly), "checkoutDate": st.Depart.Format(time.DateOnly),
			"checkin":  map[string]any{"fromTime": h.CheckinFrom, "untilTime": "00:00"},
			"checkout": map[string]any{"fromTime": "07:00", "untilTime": h.CheckoutUntil},
			"priceBreakdown": map[string]any{
				"grossPrice":    map[string]any{"currency": st.Currency, "value": price},
				"excludedPrice": map[string]any{"currency": st.Currency, "value": excluded},
				"benefitBadges": []any{},
				"taxExceptions": []any{},
			},
			"photoUrls":                photos,
			"mainPhotoId":              h.PhotoIDs[0],
			"blockIds":                 []any{strconv.Itoa(h.HotelID) + "01_" + strconv.Itoa(90000000+h.HotelID*7919%9000000) + "_2_0_0"},
			"optOutFromGalleryChanges": 0,
		},
	}
}

func bkHotelDetails(_ context.Context, w *world.World, c *standin.Call) (any, error) {
	h, err := bkHotelByArg(w, c)
	if err != nil {
		return nil, err
	}
	st, err := bkParseStay(w, c)
	if err != nil {
		return nil, err
	}
	p := h.Place
	eur := bkStayEUR(h, 0, st)
	facilities := make([]any, len(h.Facilities))
	for i, f := range h.Facilities {
		facilities[i] = map[string]any{"name": f, "icon": bkIcon(f)}
	}
	slug := strings.Trim(strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			return r
		}
		return '-'
	}, world.Fold(h.Name)), "-")
	return bkOK(c, map[string]any{
		"hotel_id": h.HotelID, "hotel_name": h.Name,
		"url":     "https://www.booking.com/hotel/" + strings.ToLower(p.City.Country) + "/" + slug + ".html",
		"address": h.Address, "district": h.District, "zip": h.Postcode,
		"city": p.City.Name, "city_trans": p.City.Name, "city_name_en": p.City.Name,
		"country_trans": countryName(w, p.City.Country, st.Lang), "countrycode": strings.ToLower(p.City.Country),
		"latitude": h.Lat, "longitude": h.Lon, "timezone": p.City.TimeZone,
		"accommodation_type_name": h.AccommodationType, "class": h.Stars,
		"review_nr": h.ReviewCount, "is_family_friendly": bkHas(h, "Family rooms"),
		"arrival_date": st.Arrive.Format(time.DateOnly), "departure_date": st.Depart.Format(time.DateOnly),
		"checkin":         map[string]any{"from": h.CheckinFrom, "until": "00:00"},
		"checkout":        map[string]any{"from": "07:00", "until": h.CheckoutUntil},
		"distance_to_cc":  fmt.Sprintf("%.1f", world.DistanceKm(h.Lat, h.Lon, p.City.Lat, p.City.Lon)),
		"currency_code":   st.Currency,
		"available_rooms": len(h.RoomTypes),
		"composite_price_breakdown": map[string]any{
			"gross_amount":           bkPrice(w, eur, st.Currency),
			"gross_amount_per_night": bkPrice(w, eur/float64(st.Nights), st.Currency),
			"all_inclusive_amount":   bkPrice(w, eur*1.04, st.Currency),
			"excluded_amount":        bkPrice(w, eur*0.04, st.Currency),
		},
		"facilities_block": map[string]any{"type": "popular", "name": bkPopular.in(st.Lang), "facilities": facilities},
		"rawData": map[string]any{
			"reviewScore": h.ReviewScore, "reviewScoreWord": bkScoreWord(h.ReviewScore, st.Lang), "reviewCount": h.ReviewCount,
			"propertyClass": h.Stars, "isPreferred": h.IsPreferred, "photoUrls": []any{bkPhoto(h, 0, "square500")},
		},
		"description": fmt.Sprintf("Set in %s, %s, %s offers %d-star accommodation %.1f km from the city centre. Facilities include %s.",
			h.District, p.City.Name, h.Name, h.Stars, world.DistanceKm(h.Lat, h.Lon, p.City.Lat, p.City.Lon), strings.ToLower(strings.Join(h.Facilities[:min(4, len(h.Facilities))], ", "))),
	}), nil
}

// bkParty is the guests as the card's label says them.
func bkParty(st bkStay) string {
	s := fmt.Sprintf("%d adults", st.Adults)
	if n := len(st.Children); n > 0 {
		s += fmt.Sprintf(", %d children", n)
	}
	return s
}

func bkHas(h *world.Hotel, f string) bool {
	for _, x := range h.Facilities {
		if x == f {
			return true
		}
	}
	return false
}

func bkIcon(f string) string {
	switch {
	case strings.Contains(f, "WiFi"):
		return "wifi"
	case strings.Contains(f, "Parking"), strings.Contains(f, "charging"):
		return "parking_sign"
	case strings.Contains(f, "pool"):
		return "pool"
	case strings.Contains(f, "Restaurant"), strings.Contains(f, "Bar"), strings.Contains(f, "Breakfast"):
		return "food_and_drink"
	case strings.Contains(f, "Fitness"), strings.Contains(f, "Spa"):
		return "fitness"
	default:
		return "checkmark"
	}
}

var bkBeds = map[string]string{
	"Single Room": "1 single bed", "Twin Room": "2 single beds", "Deluxe Twin Room": "2 single beds", "Triple Room": "3 single beds",
	"Family Room": "1 large double bed and 2 single beds", "Bed in 6-Bed Dormitory": "1 bunk bed", "Executive Suite": "1 extra-large double bed",
	"Junior Suite": "1 extra-large double bed", "Deluxe King Room": "1 extra-large double bed",
}

func bkRoomList(_ context.Context, w *world.World, c *standin.Call) (any, error) {
	h, err := bkHotelByArg(w, c)
	if err != nil {
		return nil, err
	}
	st, err := bkParseStay(w, c)
	if err != nil {
		return nil, err
	}
	rooms := map[string]any{}
	blocks := []any{}
	for i, name := range h.RoomTypes {
		roomID := h.HotelID*100 + i + 1
		bed := bkBeds[name]
		if bed == "" {
			bed = "1 large double bed"
		}
		occ := 2
		switch {
		case strings.Contains(name, "Single"), strings.Contains(name, "Dormitory"):
			occ = 1
		case strings.Contains(name, "Triple"):
			occ = 3
		case strings.Contains(name, "Family"):
			occ = 4
		}
		rooms[strconv.Itoa(roomID)] = map[string]any{
			"description":        fmt.Sprintf("The %s at %s offers %s and a private bathroom.", strings.ToLower(name), h.Name, bed),
			"photos":             []any{map[string]any{"photo_id": h.PhotoIDs[(i+1)%len(h.PhotoIDs)], "url_original": bkPhoto(h, (i+1)%len(h.PhotoIDs), "max1280x900")}},
			"facilities":         []any{map[string]any{"name": "Private bathroom"}, map[string]any{"name": "Air conditioning"}, map[string]any{"name": "Flat-screen TV"}},
			"bed_configurations": []any{map[string]any{"bed_types": []any{map[string]any{"name_with_count": bed}}}},
		}
		for _, refundable := range []bool{false, true} {
			eur := bkStayEUR(h, i, st)
			if refundable {
				eur *= 1.12
			}
			policy := "Non-refundable"
			if refundable {
				policy = "Free cancellation"
			}
			blocks = append(blocks, map[string]any{
				"room_id": roomID, "block_id": fmt.Sprintf("%d_%d_%d_1_0", roomID, 300000000+int(stableHash("rate", strconv.Itoa(roomID))%90000000), bkBtoi(refundable)),
				"room_name": name, "name_without_policy": name, "name": name + " - " + policy,
				"max_occupancy": occ, "nr_adults": occ, "refundable": refundable,
				"breakfast_included": h.Stars >= 4 && refundable,
				"product_price_breakdown": map[string]any{
					"gross_amount":           bkPrice(w, eur, st.Currency),
					"gross_amount_per_night": bkPrice(w, eur/float64(st.Nights), st.Currency),
					"excluded_amount":        bkPrice(w, eur*0.04, st.Currency),
				},
			})
		}
	}
	return bkOK(c, map[string]any{"rooms": rooms, "block": blocks, "arrival_date": st.Arrive.Format(time.DateOnly), "departure_date": st.Depart.Format(time.DateOnly)}), nil
}

func bkBtoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

var bkSortOptions = []string{"sort_most_relevant", "sort_recent_desc", "sort_recent_asc", "sort_score_desc", "sort_score_asc"}

func bkHotelReviews(_ context.Context, w *world.World, c *standin.Call) (any, error) {
	h, err := bkHotelByArg(w, c)
	if err != nil {
		return nil, err
	}
	sortBy := c.ArgString("sort_option_id")
	if sortBy == "" {
		sortBy = bkSortOptions[0]
	}
	valid := false
	for _, o := range bkSortOptions {
		valid = valid || o == sortBy
	}
	if !valid {
		return nil, bkError(400, "sort_option_id", "sort_option_id must be one of "+strings.Join(bkSortOptions, ", "))
	}
	page := c.ArgInt("page_number", 1)
	if page < 1 {
		return nil, bkError(400, "page_number", "page_number must be 1 or more")
	}
	// The hotel's most recent 60 reviews are written out; older ones are counted only.
	const written, perPage = 60, 10
	all := make([]map[string]any, 0, written)
	bank := w.Travel.Reviews
	today := today(c)
	for i := range min(written, h.ReviewCount) {
		all = append(all, bkReview(h, bank, today, i))
	}
	switch sortBy {
	case "sort_recent_asc":
		for i, j := 0, len(all)-1; i < j; i, j = i+1, j-1 {
			all[i], all[j] = all[j], all[i]
		}
	case "sort_score_desc", "sort_score_asc":
		sort.SliceStable(all, func(i, j int) bool {
			a, b := all[i]["average_score"].(float64), all[j]["average_score"].(float64)
			if sortBy == "sort_score_asc" {
				return a < b
			}
			return a > b
		})
	case "sort_most_relevant":
		sort.SliceStable(all, func(i, j int) bool { return len(all[i]["pros"].(string)) > len(all[j]["pros"].(string)) })
	}
	res := []any{}
	for i := (page - 1) * perPage; i < len(all) && i < page*perPage; i++ {
		res = append(res, all[i])
	}
	opts := make([]any, len(bkSortOptions))
	for i, o := range bkSortOptions {
		opts[i] = map[string]any{"id": o, "name": strings.ReplaceAll(strings.TrimPrefix(o, "sort_"), "_", " ")}
	}
	return bkOK(c, map[string]any{"count": h.ReviewCount, "result": res, "sort_options": opts}), nil
}

// bkReview writes the hotel's i-th most recent review from the phrase bank;
// scores scatter around the hotel's review score.
func bkReview(h *world.Hotel, bank world.ReviewBank, today time.Time, i int) map[string]any {
	r := rand.New(rand.NewPCG(stableHash("bkreview", strconv.Itoa(h.HotelID)), uint64(i)))
	score := math.Max(2, math.Min(10, math.Round((h.ReviewScore+r.NormFloat64()*1.1)*10)/10))
	band := "fair"
	switch {
	case score >= 9:
		band = "superb"
	case score >= 7.5:
		band = "good"
	}
	who := bank.Reviewers[r.IntN(len(bank.Reviewers))]
	nights := 1 + r.IntN(6)
	purpose := []string{"leisure", "leisure", "business"}[r.IntN(3)]
	if purpose == "business" {
		nights = 1 + (nights-1)%3 // a business trip is a night or three
	}
	types := bank.TravellerTypes[purpose]
	kind := types[r.IntN(len(types))]
	checkout := today.AddDate(0, 0, -(3 + i*4 + r.IntN(4)))
	checkin := checkout.AddDate(0, 0, -nights)
	pros, cons := bkReviewText(h, bank, i)
	titles := bank.Hotel.Titles[band]
	title := titles[r.IntN(len(titles))]
	return map[string]any{
		"review_id":      int(stableHash("bkrid", strconv.Itoa(h.HotelID), strconv.Itoa(i)) % 4000000000),
		"title":          title,
		"pros":           pros,
		"cons":           cons,
		"average_score":  score,
		"date":           checkout.AddDate(0, 0, 1+r.IntN(5)).Format("2006-01-02 15:04:05"),
		"languagecode":   "en-gb",
		"travel_purpose": purpose,
		"reviewer": map[string]any{
			"name": who[0], "countrycode": who[1], "country_name": who[2],
			"type":   kind,
			"avatar": "https://cf.bstatic.com/static/img/review/avatars/ava-" + strings.ToLower(who[0][:1]) + ".png",
		},
		"stayed_room_info": map[string]any{
			"room_name": h.RoomTypes[r.IntN(len(h.RoomTypes))], "num_nights": nights,
			"checkin": checkin.Format(time.DateOnly), "checkout": checkout.Format(time.DateOnly),
		},
	}
}

// bkReviewText is the pros and cons of the hotel's i-th review: a pair no
// other of its written reviews has (the i-th of a walk through every pair
// of the bank with a stride prime to their number, from a start of the
// hotel's own), so one guest's words never reappear under another's name.
// Only phrases true of the hotel and its city are used (world.Phrase).
func bkReviewText(h *world.Hotel, bank world.ReviewBank, i int) (pros, cons string) {
	facts := h.HotelFacts()
	ps, cs := world.Holding(bank.Hotel.Pros, facts), world.Holding(bank.Hotel.Cons, facts)
	np, nc := len(ps), len(cs)
	n := np * nc
	k := (int(stableHash("bkreviewtext", strconv.Itoa(h.HotelID))%uint64(n)) + i*reviewStride(n)) % n
	return ps[k%np].Say(facts), cs[k/np].Say(facts)
}

// reviewStride is a step that visits every one of n combinations before
// repeating: the first of 7, 11, 13, ... that shares no factor with n.
func reviewStride(n int) int {
	for _, p := range []int{7, 11, 13, 17, 19, 23, 29, 31} {
		if n%p != 0 {
			return p
		}
	}
	return 1
}

func bkHotelPhotos(_ context.Context, w *world.World, c *standin.Call) (any, error) {
	h, err := bkHotelByArg(w, c)
	if err != nil {
		return nil, err
	}
	data := make([]any, len(h.PhotoIDs))
	for i, id := range h.PhotoIDs {
		data[i] = map[string]any{"id": id, "url": bkPhoto(h, i, "max1280x900")}
	}
	return bkOK(c, data), nil
}
