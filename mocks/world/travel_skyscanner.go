package world

import (
	"encoding/base64"
	"encoding/json"
	"strings"
)

// skyPlaceID is the decoded form of an auto-complete id: the Skyscanner
// code, the entity id and the entity id of the city for hotels.
type SkyPlaceID struct {
	S string `json:"s"`
	E string `json:"e"`
	H string `json:"h"`
}

// skyEncodeID mints the opaque place id, base64 of compact JSON as the real API does.
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
