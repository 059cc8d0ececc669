package sandbox_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/sandbox"
	"github.com/understudy/understudy/toolset"
)

func TestKindOf(t *testing.T) {
	for _, tc := range []struct {
		name   string
		err    error
		kind   sandbox.Kind
		status int
	}{
		{"no error", nil, "", http.StatusOK},
		{"unknown api", &sandbox.NotFoundError{Tool: "t", API: "a"}, sandbox.KindUnknownAPI, http.StatusNotFound},
		{"invalid arguments", &toolset.ValidationError{API: "t.a"}, sandbox.KindInvalidArguments, http.StatusBadRequest},
		{"rate limited", &sandbox.RateLimitError{Tool: "t"}, sandbox.KindRateLimited, http.StatusTooManyRequests},
		{"no recording", &sandbox.ReplayMissError{Tool: "t", API: "a"}, sandbox.KindNoRecording, http.StatusNotFound},
		{"upstream failed", &sandbox.UpstreamError{Tool: "t", API: "a", Err: errors.New("boom")}, sandbox.KindUpstreamFailed, http.StatusBadGateway},
		// The upstream error decides even when the upstream call was cancelled.
		{"upstream cancelled", &sandbox.UpstreamError{Err: context.Canceled}, sandbox.KindUpstreamFailed, http.StatusBadGateway},
		{"cancelled", context.Canceled, sandbox.KindCancelled, http.StatusServiceUnavailable},
		{"timed out", fmt.Errorf("calling: %w", context.DeadlineExceeded), sandbox.KindCancelled, http.StatusServiceUnavailable},
		{"wrapped", fmt.Errorf("step 2: %w", &sandbox.ReplayMissError{}), sandbox.KindNoRecording, http.StatusNotFound},
		{"joined", errors.Join(errors.New("x"), &sandbox.RateLimitError{}), sandbox.KindRateLimited, http.StatusTooManyRequests},
		{"shared state down", fmt.Errorf("get: %w", &sandbox.UnavailableError{What: "recordings", Err: errors.New("connection refused")}), sandbox.KindUnavailable, http.StatusServiceUnavailable},
		{"config", &sandbox.ConfigError{Field: "mode", Err: errors.New("x")}, sandbox.KindInternal, http.StatusInternalServerError},
		{"anything else", errors.New("disk on fire"), sandbox.KindInternal, http.StatusInternalServerError},
	} {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.kind, sandbox.KindOf(tc.err))
			require.Equal(t, tc.status, sandbox.StatusOf(tc.err))
			require.Equal(t, tc.status, tc.kind.Status())
		})
	}
}

// TestEngineErrorsHaveTheirKind drives the real engine into each error.
func TestEngineErrorsHaveTheirKind(t *testing.T) {
	ctx := context.Background()
	e, _ := newEngine(t, engineOpts{limits: map[string]sandbox.Limit{"*": {PerDay: 1}}})
	_, err := e.Call(ctx, sandbox.Request{Tool: "demo_weather", API: "nope"})
	require.Equal(t, sandbox.KindUnknownAPI, sandbox.KindOf(err))
	_, err = e.Call(ctx, sandbox.Request{Tool: "demo_weather", API: "current", Arguments: map[string]any{"city": "Lisbon", "units": "kelvin"}})
	require.Equal(t, sandbox.KindInvalidArguments, sandbox.KindOf(err))
	_, err = e.Call(ctx, sandbox.Request{Tool: "demo_weather", API: "current", Arguments: map[string]any{"city": "Lisbon"}})
	require.NoError(t, err)
	_, err = e.Call(ctx, sandbox.Request{Tool: "demo_weather", API: "current", Arguments: map[string]any{"city": "Lisbon"}})
	require.Equal(t, sandbox.KindRateLimited, sandbox.KindOf(err))

	r, _ := newEngine(t, engineOpts{mode: sandbox.ModeReplay})
	_, err = r.Call(ctx, sandbox.Request{Tool: "demo_weather", API: "current", Arguments: map[string]any{"city": "Lisbon"}})
	require.Equal(t, sandbox.KindNoRecording, sandbox.KindOf(err))
}
