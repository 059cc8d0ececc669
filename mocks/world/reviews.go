package world

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Phrase is one sentence of the review bank with the facts it needs: a
// review says "the tram stop is a few minutes' walk away" only in a city
// with trams, "the rooftop bar" only of a hotel with a bar, "the audio
// guide" only of a museum. Needs are "facility:<name>" (the hotel lists
// it), "kind:<subcategory>" (the attraction is one; several kinds are
// alternatives, joined with "|"), "ticketed" (the attraction charges),
// "near_centre" (within 5 km of the city centre) and "airport" (the city
// has one). Text may name "{name}", "{city}", "{transit_stop}" and
// "{airport}".
type Phrase struct {
	Text  string   `json:"text"`
	Needs []string `json:"needs,omitempty"`
}

// UnmarshalJSON reads a phrase as an object or, with no needs, as a plain string.
func (p *Phrase) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		*p = Phrase{Text: s}
		return nil
	}
	type plain Phrase
	var v plain
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&v); err != nil {
		return fmt.Errorf("phrase: %w", err)
	}
	*p = Phrase(v)
	return nil
}

// Facts are what a review may say about its venue and city.
type Facts struct {
	Name, City  string
	TransitStop string          // "metro station", "tram stop"…
	Airport     string          // the city's main airport, "" when none
	Facilities  map[string]bool // a hotel's
	Kind        string          // an attraction's subcategory
	Ticketed    bool
	NearCentre  bool
}

// Holds reports whether every need of the phrase is a fact.
func (p Phrase) Holds(f Facts) bool {
	for _, n := range p.Needs {
		kind, arg, _ := strings.Cut(n, ":")
		ok := false
		switch kind {
		case "facility":
			ok = f.Facilities[arg]
		case "kind":
			for _, k := range strings.Split(arg, "|") {
				ok = ok || k == f.Kind
			}
		case "ticketed":
			ok = f.Ticketed
		case "near_centre":
			ok = f.NearCentre
		case "airport":
			ok = f.Airport != ""
		}
		if !ok {
			return false
		}
	}
	return true
}

// Say is the phrase's text with the facts filled in.
func (p Phrase) Say(f Facts) string {
	return strings.NewReplacer("{name}", f.Name, "{city}", f.City, "{transit_stop}", f.TransitStop, "{airport}", f.Airport).Replace(p.Text)
}

// Holding is the phrases whose needs the facts meet, in bank order.
func Holding(ps []Phrase, f Facts) []Phrase {
	var out []Phrase
	for _, p := range ps {
		if p.Holds(f) {
			out = append(out, p)
		}
	}
	return out
}

// transitStops names the stop of each kind of public transport a place
// lists, in the words a review uses.
var transitStops = map[string]string{
	"metro": "metro station", "tram": "tram stop", "train": "train station",
	"light rail": "light rail stop", "bus": "bus stop", "water bus": "vaporetto stop",
}

// TransitStop is the stop of the city's main public transport.
func (p *Place) TransitStop() string { return transitStops[p.Transit[0]] }

// HotelFacts are the facts a review of the hotel may state.
func (h *Hotel) HotelFacts() Facts {
	f := Facts{Name: h.Name, City: h.Place.City.Name, TransitStop: h.Place.TransitStop(), Facilities: map[string]bool{}}
	if len(h.Place.Airports) > 0 {
		f.Airport = h.Place.Airports[0].Title
	}
	for _, x := range h.Facilities {
		f.Facilities[x] = true
	}
	return f
}

// AttractionFacts are the facts a review of the attraction may state.
func (a *Attraction) AttractionFacts() Facts {
	c := a.Place.City
	f := Facts{Name: a.Name, City: c.Name, TransitStop: a.Place.TransitStop(), Kind: a.Subcategory,
		Ticketed: a.PriceFromUSD > 0, NearCentre: DistanceKm(a.Lat, a.Lon, c.Lat, c.Lon) <= 5}
	if len(a.Place.Airports) > 0 {
		f.Airport = a.Place.Airports[0].Title
	}
	return f
}

// checkTransit verifies a place names its public transport in known words.
func (p *Place) checkTransit() error {
	if len(p.Transit) == 0 {
		return fmt.Errorf("place %s: transit is required", p.CityID)
	}
	for _, t := range p.Transit {
		if transitStops[t] == "" {
			return fmt.Errorf("place %s: transit %q is not one of metro, tram, train, light rail, bus, water bus", p.CityID, t)
		}
	}
	return nil
}
