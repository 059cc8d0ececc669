package assemble_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/internal/assemble"
	"github.com/understudy/understudy/sandbox"
	"github.com/understudy/understudy/toolset/loader"
)

// TestDefaultPolicies: by default a fabricated ID is refused by a built-in
// tool (enforce) and served with a recorded violation by an imported one
// (warn), whose dependency was inferred from its documentation.
func TestDefaultPolicies(t *testing.T) {
	cat, err := loader.Load([]string{"../../sandbox/testdata/tools"}, true)
	require.NoError(t, err)
	st, err := assemble.Build(assemble.Config{Catalog: cat})
	require.NoError(t, err)
	defer st.Close()
	ctx := context.Background()

	res, err := st.Engine.Call(ctx, sandbox.Request{Tool: "skyscanner80", API: "flights_search_one_way", Session: "p",
		Arguments: map[string]any{"fromId": "made-up", "toId": "made-up-too", "departDate": "2025-06-20"}})
	require.NoError(t, err)
	require.Equal(t, 400, res.Status)
	require.Equal(t, sandbox.SourceSandbox, res.Source)

	res, err = st.Engine.Call(ctx, sandbox.Request{Tool: "demo_weather", API: "station", Session: "p",
		Arguments: map[string]any{"station_id": "ST-404"}})
	require.NoError(t, err)
	require.Equal(t, sandbox.SourceMock, res.Source, "warn serves the call")
	require.Len(t, res.Violations, 1)
	require.False(t, res.Violations[0].Enforced)
	require.Equal(t, "demo_weather.current", res.Violations[0].Sources[0])
}
