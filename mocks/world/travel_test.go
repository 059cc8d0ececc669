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
			require.Less(t, DistanceKm(h.Lat, h.Lon, c.Lat, c.Lon), 6.0, h.Name)
		}
	}
	require.Equal(t, "LPPT", d.AirportByIATA["LIS"].ICAO)
	require.Equal(t, "lisbon", d.AirportByIATA["LIS"].CityID)
	for _, id := range []string{"lisbon", "paris", "london", "new_york", "rome", "tokyo", "barcelona", "sydney"} {
		require.GreaterOrEqual(t, len(d.PlaceByCity[id].Attractions), 5, id)
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
		{"hotel far away", HotelsFile, strings.Replace(string(hotels), `"city_id": "lisbon"`, `"city_id": "tokyo"`, 1), "more than 15 km"},
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
