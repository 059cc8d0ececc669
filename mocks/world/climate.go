package world

import (
	"encoding/json"
	"fmt"
	"io/fs"
)

// The weather model shared by weatherapi_com and open_weather: one function
// of (place, date) drawn from monthly climate normals in climate.json, so
// both tools report the same weather for the same city and time. Daily
// values vary by a hash of the place and the date (not of the call), which
// is what keeps different APIs and different calls consistent.

// CityNormals are a city's monthly normals, January first.
type CityNormals struct {
	HighC    [12]float64 `json:"high_c"`
	LowC     [12]float64 `json:"low_c"`
	RainDays [12]float64 `json:"rain_days"`
	Humidity float64     `json:"humidity"`
}

// Climate is the climate part: monthly normals by city id.
type Climate struct {
	Cities map[string]*CityNormals
}

func loadClimate(fsys fs.FS, w *World) (*Climate, error) {
	raw, err := fs.ReadFile(fsys, "climate.json")
	if err != nil {
		return nil, err
	}
	var doc struct {
		Source string                  `json:"source"`
		Cities map[string]*CityNormals `json:"cities"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		return nil, fmt.Errorf("climate.json: %w", err)
	}
	for id, n := range doc.Cities {
		if _, ok := w.CityByID(id); !ok {
			return nil, fmt.Errorf("climate.json: %q is not a city of the world", id)
		}
		for m := range 12 {
			if n.HighC[m] <= n.LowC[m] {
				return nil, fmt.Errorf("climate.json: %s month %d: high %.0f is not above low %.0f", id, m+1, n.HighC[m], n.LowC[m])
			}
		}
	}
	for _, c := range w.Cities() {
		if doc.Cities[c.ID] == nil {
			return nil, fmt.Errorf("climate.json: no normals for city %q", c.ID)
		}
	}
	return &Climate{Cities: doc.Cities}, nil
}
