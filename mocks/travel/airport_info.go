package travel

import (
	"context"
	"math"
	"sort"
	"strings"

	"github.com/understudy/understudy/mocks/standin"
	"github.com/understudy/understudy/mocks/world"
	"github.com/understudy/understudy/sandbox"
)

// The airport_info stand-in: airport details by IATA or ICAO code, and the
// airports near a point.

const apTool = "airport_info"

func apError(status int, msg string) *sandbox.Rejection {
	return &sandbox.Rejection{Status: status, Body: map[string]any{"error": map[string]any{"text": msg}}}
}

func apAirport(_ context.Context, w *world.World, c *standin.Call) (any, error) {
	d := w.Travel
	iata := strings.ToUpper(c.ArgString("iata"))
	icao := strings.ToUpper(c.ArgString("icao"))
	if iata == "" && icao == "" {
		return nil, apError(400, "Please provide an iata or icao code")
	}
	var a *world.Airport
	if iata != "" {
		a = d.AirportByIATA[iata]
	} else {
		for _, x := range d.Airports {
			if x.ICAO == icao {
				a = x
			}
		}
	}
	if a == nil || (icao != "" && a.ICAO != icao) {
		return nil, apError(404, "No airport found")
	}
	_, offset := c.Now.In(a.Loc).Zone()
	return map[string]any{
		"id": a.ID, "iata": a.IATA, "icao": a.ICAO, "name": a.Name,
		"location":      a.City.Name + ", " + a.CountryInfo.Name,
		"street_number": "", "street": a.Street, "city": a.City.Name, "county": "", "state": a.City.Region,
		"country_iso": a.Country, "country": a.CountryInfo.Name, "postal_code": "",
		"phone": a.Phone, "latitude": a.Lat, "longitude": a.Lon,
		"uct": offset / 60, "website": a.Website,
		"timezone": a.TimeZone, "elevation_ft": a.ElevationFt, "type": a.Type,
	}, nil
}

func apNearby(_ context.Context, w *world.World, c *standin.Call) (any, error) {
	d := w.Travel
	lat, ok := c.ArgFloat("lat")
	if !ok || lat < -90 || lat > 90 {
		return nil, apError(400, "lat must be a number between -90 and 90")
	}
	lon, ok := c.ArgFloat("lon")
	if !ok || lon < -180 || lon > 180 {
		return nil, apError(400, "lon must be a number between -180 and 180")
	}
	radius := 100.0
	if c.Has("radius_km") {
		if radius, ok = c.ArgFloat("radius_km"); !ok || radius <= 0 || radius > 1000 {
			return nil, apError(400, "radius_km must be a number between 1 and 1000")
		}
	}
	type hit struct {
		a *world.Airport
		d float64
	}
	var hits []hit
	for _, a := range d.Airports {
		if dist := world.DistanceKm(lat, lon, a.Lat, a.Lon); dist <= radius {
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
			"iata": h.a.IATA, "icao": h.a.ICAO, "name": h.a.Name, "city": h.a.City.Name,
			"country_iso": h.a.Country, "latitude": h.a.Lat, "longitude": h.a.Lon,
			"distance_km": math.Round(h.d*10) / 10, "type": h.a.Type,
		})
	}
	return map[string]any{"count": len(data), "radius_km": radius, "data": data}, nil
}
