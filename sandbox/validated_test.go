package sandbox_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/sandbox"
	"github.com/understudy/understudy/toolset"
)

// TestCallValidated: arguments validated once with Engine.Validate give
// the answer CallAPI gives; refused ones are neither called, traced nor
// counted; only an API of the engine's own catalog is called.
func TestCallValidated(t *testing.T) {
	e, _ := newEngine(t, engineOpts{mode: sandbox.ModeFake})
	ctx := context.Background()
	api := e.Catalog().API("demo_weather", "current")
	require.NotNil(t, api)

	want, err := e.CallAPI(ctx, api, map[string]any{"city": "Lisbon"}, "a")
	require.NoError(t, err)
	v, err := e.Validate(api, map[string]any{"city": "Lisbon"})
	require.NoError(t, err)
	got, err := e.CallValidated(ctx, v, "b")
	require.NoError(t, err)
	require.Equal(t, string(want.Response), string(got.Response))
	require.Equal(t, want.Status, got.Status)
	trA, ok := e.Session("a")
	require.True(t, ok)
	tr, ok := e.Session("b")
	require.True(t, ok)
	require.Equal(t, string(trA.Calls[0].Arguments), string(tr.Calls[0].Arguments), "the same arguments, defaults applied once")

	_, err = e.Validate(api, map[string]any{"town": "Lisbon"})
	var ve *toolset.ValidationError
	require.ErrorAs(t, err, &ve)
	var prom strings.Builder
	require.NoError(t, e.Metrics().WritePrometheus(&prom))
	require.NotContains(t, prom.String(), "invalid", "validating alone counts no call")

	_, err = e.CallValidated(ctx, sandbox.Validated{}, "c")
	require.Error(t, err, "a Validated not made by Validate is refused")

	other, _ := newEngine(t, engineOpts{mode: sandbox.ModeFake})
	foreign, err := other.Validate(other.Catalog().API("demo_weather", "current"), map[string]any{"city": "Lisbon"})
	require.NoError(t, err)
	_, err = e.CallValidated(ctx, foreign, "d")
	var nf *sandbox.NotFoundError
	require.ErrorAs(t, err, &nf, "an API of another catalog is not this engine's")
	_, ok = e.Session("c")
	require.False(t, ok)
}
