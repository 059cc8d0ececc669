package solve_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/agent"
	"github.com/understudy/understudy/internal/clock"
	"github.com/understudy/understudy/internal/server"
	"github.com/understudy/understudy/sandbox"
)

// limitedEngine is a fake-mode engine whose skyscanner80 allows each
// client one call a day, on the frozen clock.
func limitedEngine(t *testing.T) *sandbox.Engine {
	t.Helper()
	st := mustStack(t)
	e, err := sandbox.New(sandbox.Options{
		Catalog:    st.Catalog,
		StandIns:   st.Mocker,
		Limits:     map[string]sandbox.Limit{"skyscanner80": {PerDay: 1}},
		LimitClock: clock.Frozen(),
	})
	require.NoError(t, err)
	return e
}

// The in-process and the HTTP executor give an agent the same error kind
// and status for each kind of engine error: both read sandbox's one
// taxonomy.
func TestExecutorsAgreeOnErrors(t *testing.T) {
	inProcess := func(t *testing.T) agent.Executor {
		return &agent.EngineExecutor{Engine: limitedEngine(t), Client: "alice"}
	}
	overHTTP := func(t *testing.T) agent.Executor {
		h, err := server.New(limitedEngine(t), server.Options{})
		require.NoError(t, err)
		srv := httptest.NewServer(h)
		t.Cleanup(srv.Close)
		return &agent.HTTPExecutor{BaseURL: srv.URL}
	}
	for _, tc := range []struct {
		name     string
		function string
		args     string
		kind     string
		status   int
	}{
		{"unknown function", "skyscanner80-flights_auto_complet", `{"query":"Porto"}`, agent.ErrUnknownFunction, http.StatusNotFound},
		{"arguments against the schema", fnAuto, `{}`, agent.ErrInvalidArguments, http.StatusBadRequest},
		{"quota used up", fnAuto, `{"query":"Porto"}`, agent.ErrRateLimited, http.StatusTooManyRequests},
	} {
		for name, newExec := range map[string]func(*testing.T) agent.Executor{"in-process": inProcess, "http": overHTTP} {
			t.Run(tc.name+"/"+name, func(t *testing.T) {
				x := newExec(t)
				ctx := context.Background()
				if tc.kind == agent.ErrRateLimited {
					ex, err := x.Execute(ctx, "s", tc.function, json.RawMessage(tc.args))
					require.NoError(t, err, "the first call of the day is allowed")
					require.Equal(t, http.StatusOK, ex.Status)
				}
				_, err := x.Execute(ctx, "s", tc.function, json.RawMessage(tc.args))
				var ce *agent.CallError
				require.ErrorAs(t, err, &ce)
				require.Equal(t, tc.kind, ce.Kind)
				require.Equal(t, tc.status, ce.Status)
				switch tc.kind {
				case agent.ErrUnknownFunction:
					require.NotEmpty(t, ce.Suggestions)
				case agent.ErrInvalidArguments:
					require.NotEmpty(t, ce.Validation)
				}
			})
		}
	}
}

// EngineExecutor.Client is the caller the rate limits count; without one,
// the client the context names counts.
func TestEngineExecutorClientMeetsTheLimits(t *testing.T) {
	e := limitedEngine(t)
	ctx := context.Background()
	call := func(ctx context.Context, client string) error {
		x := &agent.EngineExecutor{Engine: e, Client: client}
		_, err := x.Execute(ctx, "s", fnAuto, json.RawMessage(`{"query":"Porto"}`))
		return err
	}
	require.NoError(t, call(ctx, "alice"))
	var ce *agent.CallError
	require.ErrorAs(t, call(ctx, "alice"), &ce, "alice's quota is used up")
	require.Equal(t, agent.ErrRateLimited, ce.Kind)
	require.NoError(t, call(ctx, "bob"), "bob has a quota of his own")
	require.ErrorAs(t, call(sandbox.WithClient(ctx, "bob"), ""), &ce, "the context names bob")
	require.Equal(t, agent.ErrRateLimited, ce.Kind)
	require.NoError(t, call(sandbox.WithClient(ctx, "bob"), "carol"), "the executor's Client wins over the context's")
}
