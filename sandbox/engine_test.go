package sandbox_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/cache"
	"github.com/understudy/understudy/internal/assemble"
	"github.com/understudy/understudy/internal/clock"
	"github.com/understudy/understudy/mocks"
	"github.com/understudy/understudy/sandbox"
	"github.com/understudy/understudy/toolset"
	"github.com/understudy/understudy/toolset/loader"
)

func demoCatalog(t testing.TB) *toolset.Catalog {
	t.Helper()
	c, err := loader.Load([]string{"testdata/tools"}, false)
	require.NoError(t, err)
	return c
}

// upstream is a real local HTTP server standing in for RapidAPI.
type upstream struct {
	*httptest.Server
	hits    atomic.Int64
	lastKey atomic.Value
}

func newUpstream(t testing.TB, h func(w http.ResponseWriter, r *http.Request)) *upstream {
	u := &upstream{}
	u.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		u.hits.Add(1)
		u.lastKey.Store(r.Header.Get("X-RapidAPI-Key"))
		h(w, r)
	}))
	t.Cleanup(u.Close)
	return u
}

type engineOpts struct {
	mode     sandbox.Mode
	dir      string
	up       sandbox.Upstream
	limits   map[string]sandbox.Limit
	limitNow clock.Clock
	prov     sandbox.Provenance
	// validation is every call's mode ("" : each tool's own).
	validation toolset.ValidationMode
}

func newEngine(t testing.TB, o engineOpts) (*sandbox.Engine, *cache.Cache) {
	t.Helper()
	m, err := mocks.New(mocks.Options{})
	require.NoError(t, err)
	var store *cache.Store
	if o.dir != "" {
		store, err = cache.Open(o.dir, cache.Options{})
		require.NoError(t, err)
		t.Cleanup(func() { _ = store.Close() })
	}
	c, err := cache.NewCache(cache.CacheOptions{Store: store})
	require.NoError(t, err)
	e, err := sandbox.New(sandbox.Options{
		Catalog: demoCatalog(t), StandIns: m, Mode: o.mode,
		Recordings: assemble.Recordings{Cache: c}, Upstream: o.up,
		Limits: o.limits, LimitClock: o.limitNow, Provenance: o.prov,
		LooksLikeError: cache.LooksLikeUpstreamError, Validation: o.validation,
	})
	require.NoError(t, err)
	return e, c
}

func noSleep(context.Context, time.Duration) error { return nil }

func TestResolveAndValidate(t *testing.T) {
	e, _ := newEngine(t, engineOpts{mode: sandbox.ModeFake, validation: toolset.Strict})
	ctx := context.Background()

	_, err := e.Call(ctx, sandbox.Request{Tool: "demo_weather", API: "curent", Arguments: map[string]any{"city": "Lisbon"}})
	var nf *sandbox.NotFoundError
	require.ErrorAs(t, err, &nf)
	require.True(t, nf.ToolKnown)
	require.Contains(t, nf.Suggestions, "demo_weather.current")

	_, err = e.Call(ctx, sandbox.Request{Tool: "no_such_tool", API: "current"})
	require.ErrorAs(t, err, &nf)
	require.False(t, nf.ToolKnown)

	_, err = e.Call(ctx, sandbox.Request{Tool: "demo_weather", API: "current", Arguments: map[string]any{"units": "kelvin", "extra": 1}})
	var ve *toolset.ValidationError
	require.ErrorAs(t, err, &ve)
	codes := map[string]bool{}
	for _, v := range ve.Violations {
		codes[v.Code] = true
	}
	require.True(t, codes["required"], "missing city: %v", ve.Violations)
	require.True(t, codes["enum"], "bad units: %v", ve.Violations)
	require.True(t, codes["unknown"], "extra argument: %v", ve.Violations)

	// The function-name form resolves without a tool.
	res, err := e.Call(ctx, sandbox.Request{API: "current_for_demo_weather", Arguments: map[string]any{"city": "Lisbon"}})
	require.NoError(t, err)
	require.Equal(t, "current", res.API)

	// The demo tools are a ToolBench file of the test's: without a mode
	// chosen for all, they are validated leniently, the extra argument
	// being a warning of the result.
	lenient, _ := newEngine(t, engineOpts{mode: sandbox.ModeFake})
	res, err = lenient.Call(ctx, sandbox.Request{Tool: "demo_weather", API: "current", Arguments: map[string]any{"city": "Lisbon", "extra": 1}})
	require.NoError(t, err)
	require.Len(t, res.Warnings, 1)
	require.Equal(t, "undocumented", res.Warnings[0].Code)
	strictRes, err := e.Call(ctx, sandbox.Request{Tool: "demo_weather", API: "current", Arguments: map[string]any{"city": "Lisbon"}})
	require.NoError(t, err)
	require.JSONEq(t, string(strictRes.Response), string(res.Response), "the ignored argument changes nothing")
}

func TestFakeModeIsDeterministicAndOrderBlind(t *testing.T) {
	ctx := context.Background()
	e1, _ := newEngine(t, engineOpts{mode: sandbox.ModeFake})
	e2, _ := newEngine(t, engineOpts{mode: sandbox.ModeFake})
	a, err := e1.Call(ctx, sandbox.Request{Tool: "demo_weather", API: "current", Arguments: map[string]any{"city": "Lisbon", "units": "metric"}})
	require.NoError(t, err)
	b, err := e2.Call(ctx, sandbox.Request{Tool: "Demo Weather", API: "current", Arguments: map[string]any{"units": "metric", "city": "Lisbon"}})
	require.NoError(t, err)
	require.Equal(t, string(a.Response), string(b.Response))
	require.Equal(t, sandbox.SourceMock, a.Source)
	c, err := e1.Call(ctx, sandbox.Request{Tool: "demo_weather", API: "current", Arguments: map[string]any{"city": "Tokyo"}})
	require.NoError(t, err)
	require.NotEqual(t, string(a.Response), string(c.Response))
}

func TestReplayMode(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	e, c := newEngine(t, engineOpts{mode: sandbox.ModeReplay, dir: dir})
	_, err := e.Call(ctx, sandbox.Request{Tool: "demo_weather", API: "current", Arguments: map[string]any{"city": "Lisbon"}})
	var miss *sandbox.ReplayMissError
	require.ErrorAs(t, err, &miss)
	require.Len(t, miss.Key, 64)
	require.Contains(t, err.Error(), `"city":"Lisbon"`)

	// A recording made for the call with its defaults applied replays, in any argument order.
	args := map[string]any{"city": "Lisbon", "units": "metric", "days": 1.0}
	require.NoError(t, assemble.Recordings{Cache: c}.Put(ctx, "", "demo_weather", "current", args, sandbox.Recording{Status: 200, Response: json.RawMessage(`{"recorded":true}`)}))
	res, err := e.Call(ctx, sandbox.Request{Tool: "demo_weather", API: "current", Arguments: map[string]any{"days": "1", "city": "Lisbon"}})
	require.NoError(t, err)
	require.Equal(t, sandbox.SourceCache, res.Source)
	require.JSONEq(t, `{"recorded":true}`, string(res.Response))
}

func TestRecordMode(t *testing.T) {
	ctx := context.Background()
	const key = "secret-rapidapi-key-123"
	var status atomic.Int64
	status.Store(200)
	body := atomic.Value{}
	body.Store(`{"temp_c": 19.0, "city": "Lisbon"}`)
	up := newUpstream(t, func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(int(status.Load()))
		_, _ = w.Write([]byte(body.Load().(string)))
	})
	dir := t.TempDir()
	remote := sandbox.NewRapidAPI(up.URL, sandbox.RemoteOptions{Key: key, Retries: -1, Sleep: noSleep, PerSecond: 1000})
	e, _ := newEngine(t, engineOpts{mode: sandbox.ModeRecord, dir: dir, up: remote})

	call := func(city string) *sandbox.Result {
		t.Helper()
		res, err := e.Call(ctx, sandbox.Request{Tool: "demo_weather", API: "current", Arguments: map[string]any{"city": city}})
		require.NoError(t, err)
		return res
	}
	// Miss → upstream, recorded; hit → cache, no second upstream call.
	res := call("Lisbon")
	require.Equal(t, sandbox.SourceRemote, res.Source)
	require.Equal(t, key, up.lastKey.Load())
	require.EqualValues(t, 1, up.hits.Load())
	res = call("Lisbon")
	require.Equal(t, sandbox.SourceCache, res.Source)
	require.EqualValues(t, 1, up.hits.Load())

	// An invalid call never reaches the upstream.
	_, err := e.Call(ctx, sandbox.Request{Tool: "demo_weather", API: "current", Arguments: map[string]any{"city": 42, "units": "kelvin"}})
	require.Error(t, err)
	require.EqualValues(t, 1, up.hits.Load())

	// An error-looking 200 answer is served but not recorded.
	body.Store(`{"message": "You are not subscribed to this API."}`)
	res = call("Paris")
	require.Equal(t, sandbox.SourceRemote, res.Source)
	require.Contains(t, res.UpstreamError, "not recorded")
	hits := up.hits.Load()
	call("Paris")
	require.Equal(t, hits+1, up.hits.Load(), "the error answer must not have been recorded")

	// A failing upstream falls back to the stand-in, with the failure noted.
	status.Store(503)
	res = call("Tokyo")
	require.Equal(t, sandbox.SourceMock, res.Source)
	require.Contains(t, res.UpstreamError, "503")

	// The key never reaches the store.
	require.NoError(t, filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		require.NoError(t, err)
		if info.IsDir() {
			return nil
		}
		data, err := os.ReadFile(p)
		require.NoError(t, err)
		require.NotContains(t, string(data), key, p)
		return nil
	}))
}

func TestRemoteFailures(t *testing.T) {
	ctx := context.Background()
	const key = "k-987654321"
	cases := []struct {
		name    string
		handler func(w http.ResponseWriter, r *http.Request)
		timeout time.Duration
		retries int
		hits    int64
		want    string // in the error; "" when the upstream's status is passed through
		status  int
	}{
		{"timeout", func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() }, 50 * time.Millisecond, -1, 1, "timed out", 0},
		{"429 then retried", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Retry-After", "2")
			w.WriteHeader(http.StatusTooManyRequests)
		}, time.Second, 2, 3, "", 429},
		{"500 retried", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(500) }, time.Second, 1, 2, "", 500},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			up := newUpstream(t, tc.handler)
			var waits []time.Duration
			remote := sandbox.NewRapidAPI(up.URL, sandbox.RemoteOptions{Key: key, Timeout: tc.timeout, Retries: tc.retries, PerSecond: 1000,
				Sleep: func(_ context.Context, d time.Duration) error { waits = append(waits, d); return nil }})
			e, _ := newEngine(t, engineOpts{mode: sandbox.ModeLive, up: remote})
			res, err := e.Call(ctx, sandbox.Request{Tool: "demo_weather", API: "current", Arguments: map[string]any{"city": "Lisbon"}})
			if tc.want != "" {
				var ue *sandbox.UpstreamError
				require.ErrorAs(t, err, &ue)
				require.Contains(t, err.Error(), tc.want)
				require.NotContains(t, err.Error(), key)
			} else {
				require.NoError(t, err)
				require.Equal(t, tc.status, res.Status, "live mode passes the real API's answer through")
				require.Equal(t, sandbox.SourceRemote, res.Source)
			}
			require.Equal(t, tc.hits, up.hits.Load())
			if tc.name == "429 then retried" {
				require.Equal(t, []time.Duration{2 * time.Second, 2 * time.Second}, waits, "Retry-After is honoured")
			}
		})
	}

	t.Run("connection refused", func(t *testing.T) {
		up := newUpstream(t, func(http.ResponseWriter, *http.Request) {})
		url := up.URL
		up.Close()
		remote := sandbox.NewRapidAPI(url, sandbox.RemoteOptions{Key: key, Retries: -1, Sleep: noSleep})
		e, _ := newEngine(t, engineOpts{mode: sandbox.ModeLive, up: remote})
		_, err := e.Call(ctx, sandbox.Request{Tool: "demo_weather", API: "current", Arguments: map[string]any{"city": "Lisbon"}})
		var ue *sandbox.UpstreamError
		require.ErrorAs(t, err, &ue)
		require.Contains(t, err.Error(), "refused")
	})
}

// stepClock is a clock the test moves by hand.
type stepClock struct{ t time.Time }

func (c *stepClock) Now() time.Time { return c.t }

func TestRateLimitAndQuota(t *testing.T) {
	ctx := context.Background()
	clk := &stepClock{t: time.Date(2025, 6, 2, 23, 59, 0, 0, time.UTC)}
	e, _ := newEngine(t, engineOpts{mode: sandbox.ModeFake, limitNow: clk, limits: map[string]sandbox.Limit{"demo_weather": {PerSecond: 1, Burst: 1, PerDay: 3}}})
	call := func(client string) error {
		_, err := e.Call(ctx, sandbox.Request{Tool: "demo_weather", API: "current", Arguments: map[string]any{"city": "Lisbon"}, Client: client})
		return err
	}
	require.NoError(t, call("a"))
	err := call("a")
	var rl *sandbox.RateLimitError
	require.ErrorAs(t, err, &rl)
	require.False(t, rl.Quota)
	require.Equal(t, time.Second, rl.RetryAfter)
	require.NoError(t, call("b"), "clients have separate allowances")

	clk.t = clk.t.Add(time.Second)
	require.NoError(t, call("a"))
	clk.t = clk.t.Add(time.Second)
	require.NoError(t, call("a"))
	clk.t = clk.t.Add(time.Second)
	err = call("a")
	require.ErrorAs(t, err, &rl)
	require.True(t, rl.Quota)
	require.Equal(t, 57*time.Second, rl.RetryAfter, "until midnight UTC")

	clk.t = clk.t.Add(time.Minute) // a new day
	require.NoError(t, call("a"))
}

func TestParseLimits(t *testing.T) {
	got, err := sandbox.ParseLimits("*=20/s; skyscanner80=2/s,burst=4,500/day")
	require.NoError(t, err)
	require.Equal(t, map[string]sandbox.Limit{"*": {PerSecond: 20}, "skyscanner80": {PerSecond: 2, Burst: 4, PerDay: 500}}, got)
	for _, bad := range []string{"x", "=1/s", "a=0/s", "a=1/min", "a=burst=0", "a=-3/day", "a=NaN/s"} {
		_, err := sandbox.ParseLimits(bad)
		require.Error(t, err, bad)
	}
}

// refuser is a provenance check that refuses every station_id.
type refuser struct{ observed int }

func (r *refuser) Check(_ string, api *toolset.API, args map[string]any) sandbox.ProvenanceCheck {
	if api.Name != "station" {
		return sandbox.ProvenanceCheck{}
	}
	v := sandbox.Violation{Param: "station_id", Kind: "fabricated", Value: args["station_id"], Message: "never returned", Enforced: true}
	return sandbox.ProvenanceCheck{Violations: []sandbox.Violation{v}, Reject: &sandbox.Rejection{Status: 400, Body: map[string]any{"message": "Invalid station_id"}}}
}
func (r *refuser) Observe(string, int, *toolset.API, map[string]any, json.RawMessage) { r.observed++ }
func (r *refuser) Forget(string)                                                      {}

func TestProvenanceRejectionIsTraced(t *testing.T) {
	ctx := context.Background()
	p := &refuser{}
	e, _ := newEngine(t, engineOpts{mode: sandbox.ModeFake, prov: p})
	_, err := e.Call(ctx, sandbox.Request{Tool: "demo_weather", API: "current", Arguments: map[string]any{"city": "Lisbon"}, Session: "s1"})
	require.NoError(t, err)
	res, err := e.Call(ctx, sandbox.Request{Tool: "demo_weather", API: "station", Arguments: map[string]any{"station_id": "ST-404"}, Session: "s1"})
	require.NoError(t, err)
	require.Equal(t, 400, res.Status)
	require.Equal(t, sandbox.SourceSandbox, res.Source)
	require.JSONEq(t, `{"message":"Invalid station_id"}`, string(res.Response))
	require.Equal(t, 1, p.observed, "only the successful call is observed")

	tr, ok := e.Session("s1")
	require.True(t, ok)
	require.Len(t, tr.Calls, 2)
	require.Equal(t, 1, tr.Violations)
	require.True(t, tr.Calls[1].Rejected)
	require.Equal(t, []int{1, 2}, []int{tr.Calls[0].Seq, tr.Calls[1].Seq})
	_, ok = e.Session("other")
	require.False(t, ok)

	var buf strings.Builder
	require.NoError(t, e.Metrics().WritePrometheus(&buf))
	require.Contains(t, buf.String(), `understudy_calls_total{tool="demo_weather",api="station",outcome="rejected"} 1`)
}

func TestNewRejectsIncompleteModes(t *testing.T) {
	cat := demoCatalog(t)
	for _, m := range []sandbox.Mode{sandbox.ModeReplay, sandbox.ModeRecord, sandbox.ModeLive, "bogus"} {
		_, err := sandbox.New(sandbox.Options{Catalog: cat, Mode: m})
		var ce *sandbox.ConfigError
		require.True(t, errors.As(err, &ce), "mode %s: %v", m, err)
	}
	_, err := sandbox.ParseMode("Replay")
	require.NoError(t, err)
	_, err = sandbox.ParseMode("offline")
	require.Error(t, err)
}

// TestRecordIntoReadOnlyStoreKeepsServing: a store that cannot be written
// loses the recording, says so in the result, and the call is still served.
func TestRecordIntoReadOnlyStoreKeepsServing(t *testing.T) {
	ctx := context.Background()
	up := newUpstream(t, func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write([]byte(`{"temp_c": 18}`)) })
	store, err := cache.Open(t.TempDir(), cache.Options{ReadOnly: true})
	require.NoError(t, err)
	defer store.Close()
	c, err := cache.NewCache(cache.CacheOptions{Store: store})
	require.NoError(t, err)
	m, err := mocks.New(mocks.Options{})
	require.NoError(t, err)
	e, err := sandbox.New(sandbox.Options{Catalog: demoCatalog(t), StandIns: m, Mode: sandbox.ModeRecord,
		Recordings: assemble.Recordings{Cache: c}, Upstream: sandbox.NewRapidAPI(up.URL, sandbox.RemoteOptions{Retries: -1, Sleep: noSleep, PerSecond: 1000})})
	require.NoError(t, err)
	res, err := e.Call(ctx, sandbox.Request{Tool: "demo_weather", API: "current", Arguments: map[string]any{"city": "Lisbon"}})
	require.NoError(t, err)
	require.Equal(t, sandbox.SourceRemote, res.Source)
	require.JSONEq(t, `{"temp_c": 18}`, string(res.Response))
	require.Contains(t, res.UpstreamError, "not recorded")
	require.Zero(t, store.Len())
}

// TestCallAPI runs an API the caller resolved through the same pipeline
// as Call, and refuses an API of another catalog.
func TestCallAPI(t *testing.T) {
	ctx := context.Background()
	e, _ := newEngine(t, engineOpts{mode: sandbox.ModeFake, limits: map[string]sandbox.Limit{"demo_weather": {PerDay: 1}}})
	api, err := e.Resolve("demo_weather", "current")
	require.NoError(t, err)

	byName, err := e.Call(ctx, sandbox.Request{Tool: "demo_weather", API: "current", Arguments: map[string]any{"city": "Lisbon"}, Session: "s", Client: "a"})
	require.NoError(t, err)
	resolved, err := e.CallAPI(sandbox.WithClient(ctx, "b"), api, map[string]any{"city": "Lisbon"}, "s")
	require.NoError(t, err)
	require.Equal(t, string(byName.Response), string(resolved.Response))
	require.Equal(t, 2, resolved.Seq, "the same session trace")

	// The client in the context is the rate-limit client, for Call too.
	_, err = e.CallAPI(sandbox.WithClient(ctx, "b"), api, map[string]any{"city": "Lisbon"}, "s")
	require.Equal(t, sandbox.KindRateLimited, sandbox.KindOf(err))
	_, err = e.Call(sandbox.WithClient(ctx, "a"), sandbox.Request{Tool: "demo_weather", API: "current", Arguments: map[string]any{"city": "Lisbon"}})
	require.Equal(t, sandbox.KindRateLimited, sandbox.KindOf(err))
	_, err = e.CallAPI(sandbox.WithClient(ctx, "c"), api, map[string]any{"units": "kelvin"}, "s")
	require.Equal(t, sandbox.KindInvalidArguments, sandbox.KindOf(err), "validated like Call")

	other := demoCatalog(t).API("demo_weather", "current")
	require.NotNil(t, other)
	_, err = e.CallAPI(ctx, other, map[string]any{"city": "Lisbon"}, "s")
	var nf *sandbox.NotFoundError
	require.ErrorAs(t, err, &nf, "an API of another catalog is not this engine's")
	_, err = e.CallAPI(ctx, nil, nil, "s")
	require.ErrorAs(t, err, &nf)
}
