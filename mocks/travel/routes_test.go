package travel

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/mocks/internal/standintest"
)

// TestRoutesFlownByTheirCarriers checks every route between every pair of
// the world's airports against the routes table and the airlines' hubs: a
// carrier flies only to airports it serves, and a network carrier's
// flight has its hub at one end (Lisbon → Heathrow → Beauvais on British
// Airways is not sold: BA does not fly to Beauvais).
func TestRoutesFlownByTheirCarriers(t *testing.T) {
	w := standintest.World(t)
	d := w.Travel
	routes := 0
	for _, o := range d.Airports {
		for _, dst := range d.Airports {
			if o.City == dst.City {
				continue
			}
			for _, r := range skyRoutes(d, o, dst) {
				routes++
				for i := 0; i+1 < len(r.stops); i++ {
					a, b := r.stops[i], r.stops[i+1]
					require.True(t, d.Serves(r.carrier, a) && d.Serves(r.carrier, b), "%s %s→%s: %s does not fly %s–%s", r.carrier.Code, o.IATA, dst.IATA, r.carrier.Name, a.IATA, b.IATA)
					if !r.carrier.LowCost {
						require.True(t, slices.Contains(r.carrier.Hubs, a.IATA) || slices.Contains(r.carrier.Hubs, b.IATA),
							"%s %s→%s: segment %s–%s touches no %s hub", r.carrier.Code, o.IATA, dst.IATA, a.IATA, b.IATA, r.carrier.Name)
					}
				}
			}
		}
	}
	require.Greater(t, routes, 10000)

	ap := d.AirportByIATA
	for _, r := range skyRoutes(d, ap["LIS"], ap["BVA"]) {
		require.NotEqual(t, "BA", r.carrier.Code)
		require.Contains(t, []string{"FR", "W6"}, r.carrier.Code, "only Ryanair and Wizz Air fly to Beauvais")
	}
	for _, r := range skyRoutes(d, ap["LIS"], ap["LHR"]) {
		require.False(t, r.carrier.LowCost, "%s at Heathrow", r.carrier.Name)
	}
	// Lisbon–Heathrow is flown nonstop by TAP and British Airways.
	var direct []string
	for _, r := range skyRoutes(d, ap["LIS"], ap["LHR"]) {
		if len(r.stops) == 2 {
			direct = append(direct, r.carrier.Code)
		}
	}
	require.Subset(t, direct, []string{"TP", "BA"})
}
