package world

import (
	"fmt"
	"io/fs"
)

// AreasFile holds the neighbourhoods hotels are named after and placed in,
// and the radii a city's attractions and airports lie within.
const AreasFile = "neighbourhoods.json"

// Area is a named neighbourhood of a city: a centre and a rough radius.
type Area struct {
	CityID   string  `json:"city_id"`
	Name     string  `json:"name"`
	Lat      float64 `json:"lat"`
	Lon      float64 `json:"lon"`
	RadiusKm float64 `json:"radius_km"`
}

// Contains reports whether (lat, lon) lies within the area.
func (a *Area) Contains(lat, lon float64) bool {
	return DistanceKm(a.Lat, a.Lon, lat, lon) <= a.RadiusKm
}

// Areas is the loaded neighbourhoods file.
type Areas struct {
	Source string `json:"source"`
	// MetroRadiusKm bounds how far a city's attractions and neighbourhoods
	// lie from its centre ("default" for cities not listed).
	MetroRadiusKm map[string]float64 `json:"metro_radius_km"`
	// AirportRadiusKm bounds how far an airport lies from the city it is
	// named after and serves (Stockholm Skavsta is 89 km out).
	AirportRadiusKm float64 `json:"airport_radius_km"`
	List            []*Area `json:"areas"`

	byCity map[string]map[string]*Area
}

// Area finds a city's neighbourhood by its exact name.
func (as *Areas) Area(cityID, name string) (*Area, bool) {
	a, ok := as.byCity[cityID][name]
	return a, ok
}

// MetroRadius is the radius around a city's centre its attractions lie in.
func (as *Areas) MetroRadius(cityID string) float64 {
	if r, ok := as.MetroRadiusKm[cityID]; ok {
		return r
	}
	return as.MetroRadiusKm["default"]
}

// loadAreas reads the neighbourhoods and checks every hotel, attraction and
// airport against them: a hotel inside the neighbourhood its district
// names, a neighbourhood and an attraction within its city's metro radius,
// an airport within the airport radius of its city. A world that places
// "Nyhavn Harbour Hotel" in Vesterbro does not load.
func (d *Travel) loadAreas(fsys fs.FS, w *World) error {
	as := &Areas{}
	if err := readJSON(fsys, AreasFile, as); err != nil {
		return err
	}
	fail := func(format string, args ...any) error {
		return &WorldError{File: AreasFile, Err: fmt.Errorf(format, args...)}
	}
	if as.Source == "" || as.MetroRadiusKm["default"] <= 0 || as.AirportRadiusKm <= 0 {
		return fail("source, metro_radius_km.default and airport_radius_km are required")
	}
	as.byCity = map[string]map[string]*Area{}
	for i, a := range as.List {
		c, ok := w.CityByID(a.CityID)
		switch {
		case !ok:
			return fail("areas[%d] %s: city %q is not in %s", i, a.Name, a.CityID, CitiesFile)
		case a.Name == "" || a.RadiusKm <= 0:
			return fail("areas[%d]: name and a positive radius are required", i)
		case as.byCity[a.CityID][a.Name] != nil:
			return fail("areas[%d]: %s / %s listed twice", i, a.CityID, a.Name)
		case DistanceKm(a.Lat, a.Lon, c.Lat, c.Lon) > as.MetroRadius(a.CityID):
			return fail("areas[%d] %s: %.1f km from the centre of %s, outside its %.0f km", i, a.Name, DistanceKm(a.Lat, a.Lon, c.Lat, c.Lon), c.Name, as.MetroRadius(a.CityID))
		}
		if as.byCity[a.CityID] == nil {
			as.byCity[a.CityID] = map[string]*Area{}
		}
		as.byCity[a.CityID][a.Name] = a
	}
	for _, h := range d.Hotels {
		a, ok := as.Area(h.CityID, h.District)
		if !ok {
			return &WorldError{File: HotelsFile, Err: fmt.Errorf("hotel %d %s: district %q is not a neighbourhood of %s in %s", h.HotelID, h.Name, h.District, h.CityID, AreasFile)}
		}
		if !a.Contains(h.Lat, h.Lon) {
			return &WorldError{File: HotelsFile, Err: fmt.Errorf("hotel %d %s: %.2f km from the centre of %s, outside its %.1f km", h.HotelID, h.Name, DistanceKm(a.Lat, a.Lon, h.Lat, h.Lon), a.Name, a.RadiusKm)}
		}
		h.Area = a
	}
	for _, at := range d.Attractions {
		c := at.Place.City
		if km := DistanceKm(at.Lat, at.Lon, c.Lat, c.Lon); km > as.MetroRadius(c.ID) {
			return &WorldError{File: AttractionsFile, Err: fmt.Errorf("attraction %s %s: %.1f km from the centre of %s, outside its %.0f km", at.LocationID, at.Name, km, c.Name, as.MetroRadius(c.ID))}
		}
	}
	for _, ap := range d.Airports {
		if km := DistanceKm(ap.Lat, ap.Lon, ap.City.Lat, ap.City.Lon); km > as.AirportRadiusKm {
			return &WorldError{File: AirportsFile, Err: fmt.Errorf("airport %s: %.0f km from %s, outside %.0f km", ap.IATA, km, ap.City.Name, as.AirportRadiusKm)}
		}
	}
	d.Areas = as
	return nil
}
