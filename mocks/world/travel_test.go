package world

import (
	"errors"
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/fixtures"
)

func TestTravelWorldAgreesWithCoreWorld(t *testing.T) {
	w := testWorld(t)
	d := w.Travel
	require.GreaterOrEqual(t, len(d.Airports), 140)
	for _, c := range w.Cities() {
		p := d.PlaceByCity[c.ID]
		require.NotNil(t, p, c.ID)
		for i, code := range c.Airports {
			a := d.AirportByIATA[code]
			require.NotNil(t, a, "%s of %s", code, c.ID)
			require.Equal(t, code, p.Airports[i].IATA)
			require.Less(t, DistanceKm(a.Lat, a.Lon, c.Lat, c.Lon), 120.0, code)
		}
		for _, h := range p.Hotels {
			// Inside the neighbourhood its district names, and that inside the city.
			require.NotNil(t, h.Area, h.Name)
			require.True(t, h.Area.Contains(h.Lat, h.Lon), "%s is outside %s", h.Name, h.District)
			require.LessOrEqual(t, DistanceKm(h.Area.Lat, h.Area.Lon, c.Lat, c.Lon), d.Areas.MetroRadius(c.ID), h.District)
			// A hotel named after another neighbourhood of its city ("Nyhavn
			// Harbour Hotel", "Hotel Vesterbro…") is in that one.
			name := strings.TrimPrefix(strings.TrimPrefix(strings.TrimPrefix(h.Folded, "hotel "), "the "), "grand ")
			for _, a := range d.Areas.List {
				if a.CityID == c.ID && a != h.Area && strings.HasPrefix(name+" ", Fold(a.Name)+" ") {
					require.True(t, a.Contains(h.Lat, h.Lon), "%s is named after %s but is not in it", h.Name, a.Name)
				}
			}
		}
		for _, at := range p.Attractions {
			require.LessOrEqual(t, DistanceKm(at.Lat, at.Lon, c.Lat, c.Lon), d.Areas.MetroRadius(c.ID), at.Name)
		}
	}
	require.Equal(t, "LPPT", d.AirportByIATA["LIS"].ICAO)
	require.Equal(t, "lisbon", d.AirportByIATA["LIS"].CityID)
	for _, id := range []string{"lisbon", "paris", "london", "new_york", "rome", "tokyo", "barcelona", "sydney"} {
		require.GreaterOrEqual(t, len(d.PlaceByCity[id].Attractions), 5, id)
	}
	// The landmarks the hotels are named after, from OpenStreetMap.
	for _, tc := range []struct {
		hotel    string
		lat, lon float64
		withinKm float64
	}{
		{"Nyhavn Harbour Hotel", 55.6798, 12.5907, 0.4}, // Nyhavn quay
		{"Vatican Prati Suites", 41.9022, 12.4539, 1.5}, // St Peter's Square
		{"Duomo View Residenza", 43.7731, 11.2560, 0.5}, // Santa Maria del Fiore
		{"Colosseo View Hotel", 41.8902, 12.4922, 1.0},  // the Colosseum
		{"Hotel Dam Square Centraal", 52.3731, 4.8926, 0.6},
		{"Shinjuku Skyline Hotel", 35.6900, 139.7000, 1.0},
		{"Hôtel Promenade des Anglais", 43.6950, 7.2650, 1.0},
	} {
		var found *Hotel
		for _, h := range d.Hotels {
			if h.Name == tc.hotel {
				found = h
			}
		}
		require.NotNil(t, found, tc.hotel)
		require.Less(t, DistanceKm(found.Lat, found.Lon, tc.lat, tc.lon), tc.withinKm, tc.hotel)
	}
	belem := d.AttractionByID["195283"]
	require.Equal(t, "Belém Tower", belem.Name)
	require.InDelta(t, 38.6916, belem.Lat, 0.001)
}

// travelWorldWith is the real world's files with some replaced.
func travelWorldWith(t *testing.T, replace map[string]string) fs.FS {
	t.Helper()
	sub, err := fs.Sub(fixtures.FS, "world")
	require.NoError(t, err)
	m := fstest.MapFS{}
	require.NoError(t, fs.WalkDir(sub, ".", func(p string, de fs.DirEntry, err error) error {
		if err != nil || de.IsDir() {
			return err
		}
		b, err := fs.ReadFile(sub, p)
		m[p] = &fstest.MapFile{Data: b}
		return err
	}))
	for name, data := range replace {
		m[name] = &fstest.MapFile{Data: []byte(data)}
	}
	return m
}

func TestTravelWorldRejectsBadData(t *testing.T) {
	sub, err := fs.Sub(fixtures.FS, "world")
	require.NoError(t, err)
	airports, err := fs.ReadFile(sub, AirportsFile)
	require.NoError(t, err)
	hotels, err := fs.ReadFile(sub, HotelsFile)
	require.NoError(t, err)
	for _, tc := range []struct {
		name, file, data, want string
	}{
		{"malformed", AirportsFile, `{"airports": [`, "airports.json"},
		{"unknown field", AirportsFile, `{"airports": [], "extra": 1}`, "unknown field"},
		{"missing city airport", AirportsFile, strings.Replace(string(airports), `"iata": "LIS"`, `"iata": "XLS"`, 1), "airport LIS of city lisbon is missing"},
		{"unknown city", AirportsFile, strings.Replace(string(airports), `"city_id": "lisbon"`, `"city_id": "atlantis"`, 1), `city "atlantis"`},
		{"hotel in another city", HotelsFile, strings.Replace(string(hotels), `"city_id": "lisbon"`, `"city_id": "tokyo"`, 1), `district "Alfama" is not a neighbourhood of tokyo`},
		{"hotel outside its neighbourhood", HotelsFile, strings.Replace(string(hotels), `"district": "Nyhavn"`, `"district": "Vesterbro"`, 1), "Nyhavn Harbour Hotel: 3.21 km from the centre of Vesterbro, outside its 0.9 km"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := LoadWorld(travelWorldWith(t, map[string]string{tc.file: tc.data}))
			require.Error(t, err)
			var we *WorldError
			require.True(t, errors.As(err, &we), "%T: %v", err, err)
			require.Contains(t, err.Error(), tc.want)
		})
	}
}
