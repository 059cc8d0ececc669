package travel

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"github.com/understudy/understudy/mocks/standin"
	"github.com/understudy/understudy/mocks/world"
	"github.com/understudy/understudy/sandbox"
)

// The travel_advisor stand-in (TripAdvisor by apidojo): location search,
// attractions of a city, attraction details, photos and reviews. Numbers
// travel as strings, as on the real API.

const taTool = "travel_advisor"

func taError(status int, msg string) *sandbox.Rejection {
	return &sandbox.Rejection{Status: status, Body: map[string]any{"errors": []any{map[string]any{"code": strconv.Itoa(status), "message": msg}}}}
}

func taFloat(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

func taPaging(shown, total, offset int) map[string]any {
	return map[string]any{"results": strconv.Itoa(shown), "total_results": strconv.Itoa(total), "skipped": strconv.Itoa(offset)}
}

// taView is how an answer is shown: its language (lang) and the currency
// of its prices.
type taView struct {
	lang     string
	currency string
}

// taViewOf reads lang and currency, refusing a currency the world lacks.
func taViewOf(w *world.World, c *standin.Call) (taView, error) {
	v := taView{lang: localeLang(c.ArgString("lang")), currency: strings.ToUpper(c.ArgString("currency"))}
	if v.currency == "" {
		v.currency = "USD"
	}
	if _, ok := w.Currency(v.currency); !ok {
		return v, taError(400, "Invalid currency "+v.currency)
	}
	return v, nil
}

// Fixed texts of the answers, by language.
var (
	taRanking = phrase{"en": "#%d of %d things to do in %s", "es": "N.º %d de %d cosas que hacer en %s", "fr": "N° %d sur %d choses à faire à %s",
		"de": "Nr. %d von %d Aktivitäten in %s", "it": "N. %d di %d cose da fare a %s", "pt": "N.º %d de %d atividades em %s", "nl": "Nr. %d van %d activiteiten in %s"}
	taCategories = map[string]phrase{
		"attraction": {"en": "Attraction", "es": "Atracción", "fr": "Attraction", "de": "Sehenswürdigkeit", "it": "Attrazione", "pt": "Atração", "nl": "Attractie"},
		"geographic": {"en": "Geographic", "es": "Geográfico", "fr": "Géographique", "de": "Geografisch", "it": "Geografico", "pt": "Geográfico", "nl": "Geografisch"},
		"city":       {"en": "City", "es": "Ciudad", "fr": "Ville", "de": "Stadt", "it": "Città", "pt": "Cidade", "nl": "Stad"},
	}
)

func taCategory(key, lang string) map[string]any {
	return map[string]any{"key": key, "name": taCategories[key].in(lang)}
}

func taLocationString(w *world.World, p *world.Place, lang string) string {
	country := countryName(w, p.City.Country, lang)
	if p.City.Region != "" && p.City.Region != p.City.Name {
		return p.City.Name + ", " + p.City.Region + ", " + country
	}
	return p.City.Name + ", " + country
}

func taGeo(w *world.World, p *world.Place, v taView) map[string]any {
	photo := 0
	if len(p.Attractions) > 0 {
		photo = p.Attractions[0].PhotoIDs[0]
	} else {
		photo = int(stableHash("tageo", p.CityID) % 900000000)
	}
	reviews := 0
	for _, a := range p.Attractions {
		reviews += a.NumReviews
	}
	return map[string]any{
		"location_id": p.TripAdvisorGeoID, "name": p.City.Name,
		"latitude": taFloat(p.City.Lat), "longitude": taFloat(p.City.Lon),
		"num_reviews": strconv.Itoa(reviews*3 + 1000), "timezone": p.City.TimeZone,
		"location_string": taLocationString(w, p, v.lang),
		"photo":           map[string]any{"images": world.AttractionImages(photo), "caption": p.City.Name},
		"geo_type":        "broad", "preferred_map_engine": "default",
		"description": fmt.Sprintf("%s is a city in %s with %d things to do listed.", p.City.Name, p.CountryInfo.Name, p.TripAdvisorThingsToDo),
		"category":    taCategory("geographic", v.lang),
		"subcategory": []any{taCategory("city", v.lang)},
		"web_url":     "https://www.tripadvisor.com/Tourism-g" + p.TripAdvisorGeoID + "-" + p.Slug + "-Vacations.html",
	}
}

func taSubKey(sub string) string {
	return strings.ReplaceAll(strings.ToLower(strings.ReplaceAll(sub, " & ", "_")), " ", "_")
}

// taAttraction is the list form of an attraction; one with an admission
// price shows it in the view's currency, as its details do.
func taAttraction(w *world.World, a *world.Attraction, v taView) map[string]any {
	p := a.Place
	total := max(p.TripAdvisorThingsToDo, len(p.Attractions))
	out := map[string]any{
		"location_id": a.LocationID, "name": a.Name,
		"latitude": taFloat(a.Lat), "longitude": taFloat(a.Lon),
		"num_reviews": strconv.Itoa(a.NumReviews), "timezone": p.City.TimeZone,
		"location_string":     taLocationString(w, p, v.lang),
		"photo":               map[string]any{"images": a.Images, "caption": a.Name},
		"ranking":             fmt.Sprintf(taRanking.in(v.lang), a.RankingPosition, total, p.City.Name),
		"ranking_position":    strconv.Itoa(a.RankingPosition),
		"ranking_denominator": strconv.Itoa(total),
		"ranking_category":    "attraction",
		"rating":              taFloat(a.Rating),
		"is_closed":           false,
		"description":         a.Description,
		"web_url":             "https://www.tripadvisor.com/Attraction_Review-g" + p.TripAdvisorGeoID + "-d" + a.LocationID + "-Reviews-" + a.Slug + "-" + p.Slug + ".html",
		"address":             a.Address,
		"category":            taCategory("attraction", v.lang),
		"subcategory":         []any{map[string]any{"key": taSubKey(a.Subcategory), "name": a.Subcategory}},
	}
	if a.PriceFromUSD > 0 {
		price, _ := w.Convert(a.PriceFromUSD, "USD", v.currency)
		out["offer_group"] = map[string]any{"lowest_price": skyFormat(w, price, v.currency), "offer_list": []any{}}
	}
	return out
}

func taLocationsSearch(_ context.Context, w *world.World, c *standin.Call) (any, error) {
	d := w.Travel
	q := c.ArgString("query")
	limit := c.ArgInt("limit", 30)
	offset := c.ArgInt("offset", 0)
	if limit < 1 || limit > 100 || offset < 0 {
		return nil, taError(400, "limit must be between 1 and 100 and offset not negative")
	}
	v, err := taViewOf(w, c)
	if err != nil {
		return nil, err
	}
	var all []any
	seen := map[string]bool{}
	add := func(kind string, obj map[string]any) {
		id := obj["location_id"].(string)
		if !seen[id] {
			seen[id] = true
			all = append(all, map[string]any{"result_type": kind, "result_object": obj, "scope": "global"})
		}
	}
	fq := world.Fold(q)
	if fq != "" {
		cities := searchCities(w, q, 3)
		for i, city := range cities {
			p := d.PlaceByCity[city.ID]
			add("geos", taGeo(w, p, v))
			if i == 0 {
				for _, a := range p.Attractions[:min(3, len(p.Attractions))] {
					add("things_to_do", taAttraction(w, a, v))
				}
			}
		}
		if len(fq) >= 3 {
			for _, a := range d.Attractions {
				if world.HasWords(a.Folded, fq) {
					add("things_to_do", taAttraction(w, a, v))
				}
			}
		}
	}
	page := []any{}
	for i := offset; i < len(all) && i < offset+limit; i++ {
		page = append(page, all[i])
	}
	return map[string]any{
		"data":            page,
		"partial_content": false,
		"tracking":        map[string]any{"search_id": fmt.Sprintf("%016X", stableHash("tasearch", fq))},
		"paging":          taPaging(len(page), len(all), offset),
	}, nil
}

func taAttractionsList(_ context.Context, w *world.World, c *standin.Call) (any, error) {
	d := w.Travel
	id := c.ArgString("location_id")
	p := d.PlaceByGeo[id]
	if p == nil {
		if d.AttractionByID[id] != nil {
			return nil, taError(400, "location_id "+id+" is not a geo; use the location_id of a city from locations_search")
		}
		return nil, taError(404, "Unknown location_id "+id)
	}
	limit := c.ArgInt("limit", 30)
	offset := c.ArgInt("offset", 0)
	if limit < 1 || limit > 100 || offset < 0 {
		return nil, taError(400, "limit must be between 1 and 100 and offset not negative")
	}
	v, err := taViewOf(w, c)
	if err != nil {
		return nil, err
	}
	data := []any{}
	for i := offset; i < len(p.Attractions) && i < offset+limit; i++ {
		data = append(data, taAttraction(w, p.Attractions[i], v))
	}
	return map[string]any{"data": data, "filters": map[string]any{}, "paging": taPaging(len(data), len(p.Attractions), offset)}, nil
}

func taAttractionByArg(w *world.World, c *standin.Call) (*world.Attraction, error) {
	d := w.Travel
	id := c.ArgString("location_id")
	if a := d.AttractionByID[id]; a != nil {
		return a, nil
	}
	if d.PlaceByGeo[id] != nil {
		return nil, taError(400, "location_id "+id+" is a geo, not an attraction; use the location_id of an attraction from attractions_list")
	}
	return nil, taError(404, "Unknown location_id "+id)
}

// taMinutes reads "HH:MM" as minutes after midnight.
func taMinutes(s string) int {
	h, m, _ := strings.Cut(s, ":")
	hh, _ := strconv.Atoi(h)
	mm, _ := strconv.Atoi(m)
	return hh*60 + mm
}

func taAttractionDetails(_ context.Context, w *world.World, c *standin.Call) (any, error) {
	a, err := taAttractionByArg(w, c)
	if err != nil {
		return nil, err
	}
	v, err := taViewOf(w, c)
	if err != nil {
		return nil, err
	}
	out := taAttraction(w, a, v)
	p := a.Place
	week := make([]any, 7)
	var text []string
	days := []string{"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"}
	for wd := range 7 {
		switch {
		case a.Open == nil:
			week[wd] = []any{map[string]any{"open_time": 0, "close_time": 1440}}
		case a.ClosedWeekday != nil && *a.ClosedWeekday == wd:
			week[wd] = []any{}
			text = append(text, days[wd]+" Closed")
		default:
			week[wd] = []any{map[string]any{"open_time": taMinutes(*a.Open), "close_time": taMinutes(*a.Close)}}
			text = append(text, days[wd]+" "+*a.Open+" - "+*a.Close)
		}
	}
	if a.Open == nil {
		text = []string{"Open 24 hours"}
	}
	r := rand.New(rand.NewPCG(stableHash("tahist", a.LocationID), 1))
	hist := taHistogram(a, r)
	out["hours"] = map[string]any{"week_ranges": week, "timezone": p.City.TimeZone, "weekday_text": text}
	out["address_obj"] = map[string]any{"street1": strings.Split(a.Address, ",")[0], "city": p.City.Name, "country": countryName(w, p.City.Country, v.lang), "postalcode": nil}
	out["rating_histogram"] = hist
	out["photo_count"] = strconv.Itoa(a.PhotoCount)
	out["ancestors"] = []any{map[string]any{"subcategory": []any{taCategory("city", v.lang)}, "name": p.City.Name, "abbrv": nil, "location_id": p.TripAdvisorGeoID}}
	out["neighborhood_info"] = []any{}
	out["write_review"] = "https://www.tripadvisor.com/UserReview-g" + p.TripAdvisorGeoID + "-d" + a.LocationID
	return out, nil
}

// taHistogram spreads the review count over the stars around the rating.
func taHistogram(a *world.Attraction, r *rand.Rand) map[string]any {
	weights := make([]float64, 5)
	total := 0.0
	for i := range 5 {
		d := float64(i+1) - a.Rating
		weights[i] = math.Exp(-d*d/0.9) * (0.9 + r.Float64()*0.2)
		total += weights[i]
	}
	out := map[string]any{}
	left := a.NumReviews
	for i := 4; i >= 0; i-- {
		n := int(float64(a.NumReviews) * weights[i] / total)
		if i == 0 {
			n = left
		}
		left -= n
		out["count_"+strconv.Itoa(i+1)] = strconv.Itoa(n)
	}
	return out
}

func taPhotosList(_ context.Context, w *world.World, c *standin.Call) (any, error) {
	a, err := taAttractionByArg(w, c)
	if err != nil {
		return nil, err
	}
	limit := c.ArgInt("limit", 50)
	offset := c.ArgInt("offset", 0)
	if limit < 1 || limit > 100 || offset < 0 {
		return nil, taError(400, "limit must be between 1 and 100 and offset not negative")
	}
	bank := w.Travel.Reviews
	// The first photos are the attraction's own; more are derived from its id.
	n := min(a.PhotoCount, 40)
	today := today(c)
	data := []any{}
	for i := offset; i < n && i < offset+limit; i++ {
		r := rand.New(rand.NewPCG(stableHash("taphoto", a.LocationID), uint64(i)))
		id := int(stableHash("taphotoid", a.LocationID, strconv.Itoa(i)) % 900000000)
		if i < len(a.PhotoIDs) {
			id = a.PhotoIDs[i]
		}
		who := bank.Reviewers[r.IntN(len(bank.Reviewers))]
		when := today.AddDate(0, 0, -(2 + i*9 + r.IntN(9))).Add(time.Duration(r.IntN(86400)) * time.Second)
		data = append(data, map[string]any{
			"id": strconv.Itoa(id), "caption": a.Name, "helpful_votes": strconv.Itoa(r.IntN(12)),
			"published_date": when.Format(time.RFC3339), "uploaded_date": when.Format(time.RFC3339),
			"images": world.AttractionImages(id), "is_blessed": i < len(a.PhotoIDs), "album": "Traveller",
			"user": map[string]any{"username": who[0] + who[2][:1] + strconv.Itoa(100+r.IntN(900)), "user_location": map[string]any{"name": who[2]}},
		})
	}
	return map[string]any{"data": data, "paging": taPaging(len(data), n, offset)}, nil
}

// taReviewText is the text of an attraction's j-th review of a band: the
// j-th combination (opener, detail, closer) of a walk that visits each
// once, from a start of the attraction's own, so no two of its reviews
// read the same.
func taReviewText(a *world.Attraction, bank world.ReviewBank, band string, j int) string {
	ra := bank.Attraction
	facts := a.AttractionFacts()
	op, de, cl := ra.Openers[band], world.Holding(ra.Details, facts), world.Holding(ra.Closers[band], facts)
	n := len(op) * len(de) * len(cl)
	k := (int(stableHash("tareviewtext", a.LocationID, band)%uint64(n)) + j*reviewStride(n)) % n
	return op[k%len(op)] + " " + de[k/len(op)%len(de)].Say(facts) + " " + cl[k/(len(op)*len(de))].Say(facts)
}

func taReviewsList(_ context.Context, w *world.World, c *standin.Call) (any, error) {
	a, err := taAttractionByArg(w, c)
	if err != nil {
		return nil, err
	}
	limit := c.ArgInt("limit", 20)
	offset := c.ArgInt("offset", 0)
	if limit < 1 || limit > 100 || offset < 0 {
		return nil, taError(400, "limit must be between 1 and 100 and offset not negative")
	}
	bank := w.Travel.Reviews
	n := min(a.NumReviews, world.MaxAttractionReviews)
	today := today(c)
	data := []any{}
	// inBand counts the reviews before the i-th with the same band: the
	// i-th review's text is the inBand-th of its band's walk.
	inBand := map[string]int{}
	for i := 0; i < n && i < offset+limit; i++ {
		r := rand.New(rand.NewPCG(stableHash("tareview", a.LocationID), uint64(i)))
		rating := int(math.Round(math.Max(1, math.Min(5, a.Rating+r.NormFloat64()*0.7))))
		band := strconv.Itoa(max(3, rating))
		j := inBand[band]
		inBand[band]++
		if i < offset {
			continue
		}
		who := bank.Reviewers[r.IntN(len(bank.Reviewers))]
		pub := today.AddDate(0, 0, -(1 + i*3 + r.IntN(3))).Add(time.Duration(r.IntN(86400)) * time.Second)
		travelled := pub.AddDate(0, 0, -r.IntN(40))
		id := strconv.FormatUint(900000000+stableHash("tarid", a.LocationID, strconv.Itoa(i))%99000000, 10)
		titles := bank.Attraction.Titles[band]
		data = append(data, map[string]any{
			"id": id, "lang": "en", "location_id": a.LocationID, "published_date": pub.Format(time.RFC3339),
			"published_platform": []string{"Desktop", "Mobile"}[r.IntN(2)],
			"rating":             strconv.Itoa(rating), "helpful_votes": strconv.Itoa(r.IntN(20)),
			"rating_image_url": "https://www.tripadvisor.com/img/cdsi/img2/ratings/traveler/s" + strconv.Itoa(rating) + ".0-MCID-5.svg",
			"url":              "https://www.tripadvisor.com/ShowUserReviews-g" + a.Place.TripAdvisorGeoID + "-d" + a.LocationID + "-r" + id,
			"travel_date":      travelled.Format("2006-01"),
			"trip_type":        []string{"Couples", "Family", "Friends", "Solo travel", "Business"}[r.IntN(5)],
			"title":            titles[r.IntN(len(titles))],
			"text":             taReviewText(a, bank, band, j),
			"user": map[string]any{
				"username": who[0] + who[2][:1] + strconv.Itoa(100+r.IntN(900)), "user_location": map[string]any{"name": who[2]},
				"reviewer_type": nil, "contributions": map[string]any{"reviews": strconv.Itoa(1 + r.IntN(300))},
			},
			"owner_response": nil, "subratings": []any{}, "machine_translated": false,
		})
	}
	return map[string]any{"data": data, "paging": taPaging(len(data), a.NumReviews, offset)}, nil
}
