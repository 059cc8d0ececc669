package travel

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/understudy/understudy/mocks/standin"
	"github.com/understudy/understudy/mocks/world"
	"github.com/understudy/understudy/sandbox"
)

// Stand-in for geocoding (forward-reverse-geocoding.p.rapidapi.com):
// Nominatim-style answers over the world's cities and the travel part's
// landmarks.

const geoLicence = "Data © OpenStreetMap contributors, ODbL 1.0. http://osm.org/copyright"

// geoOSMID derives a stable OSM-like id from a key.
func geoOSMID(kind, key string) int64 {
	h := sha256.Sum256([]byte(kind + ":" + key))
	return int64(binary.BigEndian.Uint32(h[:4])%300_000_000) + 1_000_000
}

func geoCoord(v float64) string { return strconv.FormatFloat(v, 'f', 7, 64) }

// geoBBox is Nominatim's [south, north, west, east] as strings around a point.
func geoBBox(lat, lon, radiusKm float64) []any {
	dLat := radiusKm / 111.32
	dLon := radiusKm / (111.32 * math.Max(0.1, math.Cos(lat*math.Pi/180)))
	return []any{geoCoord(lat - dLat), geoCoord(lat + dLat), geoCoord(lon - dLon), geoCoord(lon + dLon)}
}

func geoCityAddress(w *world.World, c *world.City) (map[string]any, string) {
	country, _ := w.Country(c.Country)
	addr := map[string]any{
		"city":         c.Name,
		"state":        c.Region,
		"country":      country.Name,
		"country_code": strings.ToLower(country.Alpha2),
	}
	parts := []string{c.Name}
	if c.Region != "" && world.Fold(c.Region) != world.Fold(c.Name) {
		parts = append(parts, c.Region)
	}
	parts = append(parts, country.Name)
	return addr, strings.Join(parts, ", ")
}

func geoCityPlace(w *world.World, c *world.City) map[string]any {
	addr, display := geoCityAddress(w, c)
	radius := math.Min(40, math.Max(3, math.Sqrt(float64(c.Population))/100))
	importance := math.Round(math.Min(0.95, 0.3+0.09*math.Log10(math.Max(10, float64(c.Population))))*10000) / 10000
	return map[string]any{
		"place_id":     geoOSMID("place", c.ID),
		"licence":      geoLicence,
		"osm_type":     "relation",
		"osm_id":       geoOSMID("relation", c.ID),
		"lat":          c.Lat,
		"lon":          c.Lon,
		"name":         c.Name,
		"display_name": display,
		"class":        "boundary",
		"type":         "administrative",
		"addresstype":  "city",
		"place_rank":   16,
		"importance":   importance,
		"address":      addr,
		"boundingbox":  geoBBox(c.Lat, c.Lon, radius),
	}
}

func geoLandmarkPlace(w *world.World, l *world.Landmark) map[string]any {
	addr, cityDisplay := geoCityAddress(w, l.City)
	addr["tourism"] = l.Name
	typ := "attraction"
	switch sub := strings.ToLower(l.Subcategory); {
	case strings.Contains(sub, "museum"):
		typ = "museum"
	case strings.Contains(sub, "park") || strings.Contains(sub, "garden"):
		typ = "park"
	case strings.Contains(sub, "viewpoint") || strings.Contains(sub, "observation"):
		typ = "viewpoint"
	}
	if l.Address != "" {
		addr["road"] = strings.TrimSpace(strings.Split(l.Address, ",")[0])
	}
	return map[string]any{
		"place_id":     geoOSMID("place", l.LocationID+l.Name),
		"licence":      geoLicence,
		"osm_type":     "way",
		"osm_id":       geoOSMID("way", l.LocationID+l.Name),
		"lat":          l.Lat,
		"lon":          l.Lon,
		"name":         l.Name,
		"display_name": l.Name + ", " + cityDisplay,
		"class":        "tourism",
		"type":         typ,
		"addresstype":  "tourism",
		"place_rank":   30,
		"importance":   0.55,
		"address":      addr,
		"boundingbox":  geoBBox(l.Lat, l.Lon, 0.2),
	}
}

// geoSearch finds the places an address names, best first.
func geoSearch(w *world.World, address string) []map[string]any {
	b := w.Basic
	q := world.Fold(address)
	var out []map[string]any
	seen := map[string]bool{}
	addCity := func(c *world.City) {
		if !seen["c:"+c.ID] {
			seen["c:"+c.ID] = true
			out = append(out, geoCityPlace(w, c))
		}
	}
	addLandmark := func(l *world.Landmark) {
		if !seen["l:"+l.LocationID+l.Name] {
			seen["l:"+l.LocationID+l.Name] = true
			out = append(out, geoLandmarkPlace(w, l))
		}
	}
	// A landmark named in full ("Eiffel Tower", "Belém Tower, Lisbon").
	head := world.Fold(strings.Split(address, ",")[0])
	for _, l := range b.Landmarks {
		if l.Key == q || l.Key == head {
			addLandmark(l)
		}
	}
	if c, ok := w.FindCity(address); ok {
		addCity(c)
	}
	// "Rua Augusta 24, 1100-048 Lisboa": the city part of a street address.
	if len(out) == 0 && strings.Contains(address, ",") {
		parts := strings.Split(address, ",")
		for i := len(parts) - 1; i >= 1 && len(out) == 0; i-- {
			if c, ok := w.FindCity(strings.Join(parts[i:], ",")); ok {
				addCity(c)
			} else if c, ok := w.FindCity(strings.TrimSpace(geoStripPostcode(parts[i]))); ok {
				addCity(c)
			}
		}
	}
	if len(q) >= 4 {
		for _, l := range b.Landmarks {
			if len(out) >= 10 {
				break
			}
			if strings.Contains(l.Key, q) {
				addLandmark(l)
			}
		}
	}
	if len(out) == 0 && len(q) >= 3 {
		for _, c := range w.SearchCities(address, 5) {
			addCity(c)
		}
	}
	return out
}

// geoStripPostcode drops a leading postcode ("1100-048 Lisboa" → "Lisboa").
func geoStripPostcode(s string) string {
	f := strings.Fields(s)
	for len(f) > 1 && strings.IndexFunc(f[0], func(r rune) bool { return r >= '0' && r <= '9' }) >= 0 {
		f = f[1:]
	}
	return strings.Join(f, " ")
}

func handleForwardGeocode(_ context.Context, w *world.World, c *standin.Call) (any, error) {
	address := c.ArgString("address")
	if address == "" {
		return nil, &sandbox.Rejection{Status: 400, Body: map[string]any{"error": map[string]any{"code": 400, "message": "Nothing to search for: the address parameter is empty."}}}
	}
	results := []any{}
	for _, r := range geoSearch(w, address) {
		results = append(results, r)
	}
	return map[string]any{"query": address, "count": len(results), "results": results}, nil
}

func handleReverseGeocode(_ context.Context, w *world.World, c *standin.Call) (any, error) {
	lat, okLat := c.ArgFloat("lat")
	lon, okLon := c.ArgFloat("lon")
	if !okLat || !okLon || lat < -90 || lat > 90 || lon < -180 || lon > 180 {
		return nil, &sandbox.Rejection{Status: 400, Body: map[string]any{"error": map[string]any{"code": 400, "message": fmt.Sprintf("Invalid coordinates lat=%q lon=%q: lat must be between -90 and 90, lon between -180 and 180.", c.ArgString("lat"), c.ArgString("lon"))}}}
	}
	b := w.Basic
	var bestL *world.Landmark
	bestLD := math.Inf(1)
	for _, l := range b.Landmarks {
		if d := world.DistanceKm(lat, lon, l.Lat, l.Lon); d < bestLD {
			bestL, bestLD = l, d
		}
	}
	var place map[string]any
	var dist float64
	switch city, cd := w.NearestCity(lat, lon); {
	case bestL != nil && bestLD <= 0.3:
		place, dist = geoLandmarkPlace(w, bestL), bestLD
	case city != nil && cd <= 60:
		place, dist = geoCityPlace(w, city), cd
	default:
		return map[string]any{"error": "Unable to geocode"}, nil
	}
	delete(place, "importance")
	place["distance_km"] = math.Round(dist*100) / 100
	return place, nil
}
