package mocks

import (
	"context"
	"github.com/understudy/understudy/sandbox"
	"math"
	"sort"
	"strings"
)

// The airport_info stand-in: airport details by IATA or ICAO code, and the
// airports near a point.

const apTool = "airport_info"

func init() {
	register(apTool, "airport", apAirport)
	register(apTool, "nearby_airports", apNearby)
}

func apError(status int, msg string) *sandbox.Rejection {
	return &sandbox.Rejection{Status: status, Body: map[string]any{"error": map[string]any{"text": msg}}}
}

func apAirport(_ context.Context, w *World, c *Call) (any, error) {
	d := w.travel
	iata := strings.ToUpper(c.argString("iata"))
	icao := strings.ToUpper(c.argString("icao"))
	if iata == "" && icao == "" {
		return nil, apError(400, "Please provide an iata or icao code")
	}
	var a *travelAirport
	if iata != "" {
		a = d.airportByIATA[iata]
	} else {
		for _, x := range d.airports {
			if x.ICAO == icao {
				a = x
			}
		}
	}
	if a == nil || (icao != "" && a.ICAO != icao) {
		return nil, apError(404, "No airport found")
	}
	_, offset := c.Now.In(a.loc).Zone()
	return map[string]any{
		"id": a.ID, "iata": a.IATA, "icao": a.ICAO, "name": a.Name,
		"location":      a.city.Name + ", " + a.country.Name,
		"street_number": "", "street": a.Street, "city": a.city.Name, "county": "", "state": a.city.Region,
		"country_iso": a.Country, "country": a.country.Name, "postal_code": "",
		"phone": a.Phone, "latitude": a.Lat, "longitude": a.Lon,
		"uct": offset / 60, "website": a.Website,
		"timezone": a.TimeZone, "elevation_ft": a.ElevationFt, "type": a.Type,
	}, nil
}

func apNearby(_ context.Context, w *World, c *Call) (any, error) {
	d := w.travel
	lat, ok := c.argFloat("lat")
	if !ok || lat < -90 || lat > 90 {
		return nil, apError(400, "lat must be a number between -90 and 90")
	}
	lon, ok := c.argFloat("lon")
	if !ok || lon < -180 || lon > 180 {
		return nil, apError(400, "lon must be a number between -180 and 180")
	}
	radius := 100.0
	if c.has("radius_km") {
		if radius, ok = c.argFloat("radius_km"); !ok || radius <= 0 || radius > 1000 {
			return nil, apError(400, "radius_km must be a number between 1 and 1000")
		}
	}
	type hit struct {
		a *travelAirport
		d float64
	}
	var hits []hit
	for _, a := range d.airports {
		if dist := DistanceKm(lat, lon, a.Lat, a.Lon); dist <= radius {
			hits = append(hits, hit{a, dist})
		}
	}
	sort.Slice(hits, func(i, j int) bool {
		if hits[i].d != hits[j].d {
			return hits[i].d < hits[j].d
		}
		return hits[i].a.IATA < hits[j].a.IATA
	})
	data := make([]any, 0, len(hits))
	for _, h := range hits {
		data = append(data, map[string]any{
			"iata": h.a.IATA, "icao": h.a.ICAO, "name": h.a.Name, "city": h.a.city.Name,
			"country_iso": h.a.Country, "latitude": h.a.Lat, "longitude": h.a.Lon,
			"distance_km": math.Round(h.d*10) / 10, "type": h.a.Type,
		})
	}
	return map[string]any{"count": len(data), "radius_km": radius, "data": data}, nil
}
