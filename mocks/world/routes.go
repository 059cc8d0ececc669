package world

import (
	"fmt"
	"io/fs"
)

// RoutesFile says which carriers fly to the airports not every carrier
// serves: Beauvais and Ciampino see Ryanair and Wizz Air, never British
// Airways; Heathrow sees no low-cost carrier.
const RoutesFile = "travel_routes.json"

// AirportCarriers is one airport's entry in the routes table.
type AirportCarriers struct {
	// Carriers lists every carrier (IATA code) that flies there; nil when
	// the entry restricts only by kind.
	Carriers []string `json:"carriers"`
	// LowCost false keeps low-cost carriers out (slot-constrained hubs).
	LowCost *bool `json:"low_cost,omitempty"`

	set map[string]bool
}

// routesDoc is the routes file.
type routesDoc struct {
	Source   string                      `json:"source"`
	Airports map[string]*AirportCarriers `json:"airports"`
}

// Serves reports whether the airline flies to the airport, per the routes
// table (an airport not in it is served by every airline).
func (d *Travel) Serves(a *Airline, ap *Airport) bool {
	e := d.routes[ap.IATA]
	switch {
	case e == nil:
		return true
	case e.LowCost != nil && !*e.LowCost && a.LowCost:
		return false
	case e.Carriers != nil:
		return e.set[a.Code]
	}
	return true
}

func (d *Travel) loadRoutes(fsys fs.FS) error {
	var doc routesDoc
	if err := readJSON(fsys, RoutesFile, &doc); err != nil {
		return err
	}
	if doc.Source == "" {
		return &WorldError{File: RoutesFile, Err: fmt.Errorf("source is required")}
	}
	codes := map[string]bool{}
	for _, a := range d.Airlines {
		codes[a.Code] = true
	}
	for iata, e := range doc.Airports {
		if d.AirportByIATA[iata] == nil {
			return &WorldError{File: RoutesFile, Err: fmt.Errorf("airport %s is not in %s", iata, AirportsFile)}
		}
		if e.Carriers == nil && e.LowCost == nil {
			return &WorldError{File: RoutesFile, Err: fmt.Errorf("airport %s: carriers or low_cost is required", iata)}
		}
		e.set = map[string]bool{}
		for _, c := range e.Carriers {
			if !codes[c] {
				return &WorldError{File: RoutesFile, Err: fmt.Errorf("airport %s: carrier %s is not in %s", iata, c, AirlinesFile)}
			}
			e.set[c] = true
		}
	}
	for _, a := range d.Airlines {
		for _, h := range a.Hubs {
			if !d.Serves(a, d.AirportByIATA[h]) {
				return &WorldError{File: RoutesFile, Err: fmt.Errorf("airport %s is a hub of %s but the table keeps %s out", h, a.Code, a.Code)}
			}
		}
	}
	d.routes = doc.Airports
	return nil
}
