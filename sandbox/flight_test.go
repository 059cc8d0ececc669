package sandbox_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/internal/bounded"
	"github.com/understudy/understudy/sandbox"
)

// TestConcurrentMissesMakeOneUpstreamCall: in record mode, 200 concurrent
// calls of each of 10 keys missing from the store call the real API once
// per key (they once made 24 calls), and every caller gets that answer.
func TestConcurrentMissesMakeOneUpstreamCall(t *testing.T) {
	up := newUpstream(t, func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `{"temp_c": 19.0, "city": %q}`, r.URL.Query().Get("city"))
	})
	remote := sandbox.NewRapidAPI(up.URL, sandbox.RemoteOptions{Key: "k", Retries: -1, Sleep: noSleep, PerSecond: 1e6})
	e, _ := newEngine(t, engineOpts{mode: sandbox.ModeRecord, dir: t.TempDir(), up: remote})

	const keys, callers = 10, 200
	var wg sync.WaitGroup
	errs := make(chan error, keys*callers)
	for i := range keys * callers {
		city := fmt.Sprintf("City%d", i%keys)
		wg.Go(func() {
			res, err := e.Call(context.Background(), sandbox.Request{Tool: "demo_weather", API: "current", Arguments: map[string]any{"city": city}})
			switch {
			case err != nil:
				errs <- err
			case res.Status != 200 || !sameJSON(res.Response, fmt.Sprintf(`{"temp_c": 19.0, "city": %q}`, city)):
				errs <- fmt.Errorf("%s: %d %s (%s)", city, res.Status, res.Response, res.Source)
			}
		})
	}
	bounded.Wait(t, &wg, "2,000 calls")
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	require.EqualValues(t, keys, up.hits.Load(), "one upstream call per key")
}

// TestWaiterRunsTheFillItsLeaderAbandoned: when the call whose upstream
// request the others wait for goes away, a waiter still there calls the
// upstream itself instead of failing with the other's cancellation.
func TestWaiterRunsTheFillItsLeaderAbandoned(t *testing.T) {
	// The first request hangs until it is cancelled and says it arrived;
	// the next ones answer. (A non-blocking send on an unbuffered channel
	// once told the first request apart: when the test had not reached its
	// receive yet, the leader's own request answered at once and the test
	// waited forever for a request that had come and gone.)
	var requests atomic.Int64
	arrived := make(chan struct{})
	up := newUpstream(t, func(w http.ResponseWriter, r *http.Request) {
		if requests.Add(1) == 1 {
			close(arrived)
			<-r.Context().Done()
			return
		}
		fmt.Fprint(w, `{"temp_c": 20.0}`)
	})
	remote := sandbox.NewRapidAPI(up.URL, sandbox.RemoteOptions{Key: "k", Retries: -1, Sleep: noSleep, PerSecond: 1e6})
	e, _ := newEngine(t, engineOpts{mode: sandbox.ModeRecord, dir: t.TempDir(), up: remote})
	req := sandbox.Request{Tool: "demo_weather", API: "current", Arguments: map[string]any{"city": "Porto"}}

	leaderCtx, cancel := context.WithCancel(context.Background())
	defer cancel()
	leaderDone := make(chan error, 1)
	go func() { _, err := e.Call(leaderCtx, req); leaderDone <- err }()
	bounded.Done(t, arrived, "the leader's request to reach the upstream")
	type outcome struct {
		res *sandbox.Result
		err error
	}
	waiter := make(chan outcome, 1)
	go func() {
		res, err := e.Call(bounded.Context(t), req)
		waiter <- outcome{res, err}
	}()
	// The waiter joins the flight; then the leader goes away.
	require.Eventually(t, func() bool { return sandbox.FlightWaiters(e) == 1 }, time.Minute, time.Millisecond)
	cancel()
	require.ErrorIs(t, bounded.Recv(t, leaderDone, "the leader's call to end"), context.Canceled)
	got := bounded.Recv(t, waiter, "the waiter's call to end")
	require.NoError(t, got.err)
	require.Equal(t, 200, got.res.Status)
	require.Equal(t, sandbox.SourceRemote, got.res.Source)
	require.JSONEq(t, `{"temp_c": 20.0}`, string(got.res.Response))
	require.EqualValues(t, 2, up.hits.Load())
}

// sameJSON reports whether a and b are the same JSON document, spacing
// aside (a recording is stored compact; the first answer comes as sent).
func sameJSON(a []byte, b string) bool {
	var x, y bytes.Buffer
	return json.Compact(&x, a) == nil && json.Compact(&y, []byte(b)) == nil && bytes.Equal(x.Bytes(), y.Bytes())
}
