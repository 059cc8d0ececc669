package mocks

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/internal/bounded"
	"github.com/understudy/understudy/internal/clock"
	"github.com/understudy/understudy/mocks/failures"
	"github.com/understudy/understudy/mocks/faker"
	"github.com/understudy/understudy/mocks/internal/standintest"
	"github.com/understudy/understudy/mocks/standin"
	"github.com/understudy/understudy/mocks/world"
	"github.com/understudy/understudy/sandbox"
	"github.com/understudy/understudy/toolset"
)

// testTool is registered only in this package's tests; its APIs exercise
// the dispatcher.
const testTool = "mocks_core_test_tool"

var errPlain = errors.New("stand-in bug")

var notFound = &sandbox.Rejection{Status: http.StatusNotFound, Body: map[string]any{"message": "no such thing"}}

// testRegistry is the built-in registry plus the test tool's stand-ins.
func testRegistry() *standin.Registry {
	r := Builtin()
	r.Add(testTool, "echo", func(ctx context.Context, w *world.World, c *standin.Call) (any, error) {
		return map[string]any{"handler": "echo", "args": c.Args, "seed": fmt.Sprint(c.Seed), "now": c.Now.Format(time.RFC3339), "session": c.Session}, nil
	})
	r.Add(testTool, "panic", func(ctx context.Context, w *world.World, c *standin.Call) (any, error) {
		var m map[string]int
		m["boom"]++ // nil map write: a real bug, not a deliberate panic(string)
		return nil, nil
	})
	r.Add(testTool, "not_found", func(ctx context.Context, w *world.World, c *standin.Call) (any, error) { return nil, notFound })
	r.Add(testTool, "plain_error", func(ctx context.Context, w *world.World, c *standin.Call) (any, error) { return nil, errPlain })
	r.Add(testTool, "ctx", func(ctx context.Context, w *world.World, c *standin.Call) (any, error) { return nil, ctx.Err() })
	r.Add(testTool, "nan", func(ctx context.Context, w *world.World, c *standin.Call) (any, error) { return math.NaN(), nil })
	r.Add(testTool, "html", func(ctx context.Context, w *world.World, c *standin.Call) (any, error) {
		return map[string]any{"z": 1.0, "a": "<b>Fish & Chips</b>", "m": map[string]any{"y": 2.5, "b": 1e6}}, nil
	})
	r.Add(testTool, "counter", func(ctx context.Context, w *world.World, c *standin.Call) (any, error) {
		n := c.State.Update("test", "n", func(old any, ok bool) any {
			i, _ := old.(int)
			return i + 1
		})
		return map[string]any{"n": n}, nil
	})
	r.Add(testTool, "long", func(ctx context.Context, w *world.World, c *standin.Call) (any, error) {
		return map[string]any{"text": strings.Repeat("é", 5000)}, nil
	})
	r.Add(testTool, "trivial", func(ctx context.Context, w *world.World, c *standin.Call) (any, error) {
		return map[string]any{"ok": true}, nil
	})
	return r
}

func newTestMocker(t testing.TB, opts Options) *Mocker {
	t.Helper()
	if opts.World == nil {
		opts.World = standintest.World(t)
	}
	if opts.Registry == nil {
		opts.Registry = testRegistry()
	}
	m, err := New(opts)
	require.NoError(t, err)
	return m
}

func TestMockerDispatch(t *testing.T) {
	m := newTestMocker(t, Options{})
	ctx := context.Background()

	echo := standintest.API(testTool, "echo")
	require.True(t, m.HasStandIn(echo))
	body, err := m.Call(ctx, echo, map[string]any{"q": "Tokyo"}, "s1")
	require.NoError(t, err)
	var got map[string]any
	require.NoError(t, json.Unmarshal(body, &got))
	require.Equal(t, "echo", got["handler"], "the registered stand-in answered")
	require.Equal(t, map[string]any{"q": "Tokyo"}, got["args"])
	require.Equal(t, "2025-06-02T09:00:00Z", got["now"], "the frozen clock by default")
	require.Equal(t, "s1", got["session"])
	require.Equal(t, fmt.Sprint(standin.Seed(testTool, "echo", map[string]any{"q": "Tokyo"})), got["seed"])

	imported := standintest.API("some_imported_tool", "search")
	require.False(t, m.HasStandIn(imported))
	require.False(t, m.HasStandIn(nil))
	body, err = m.Call(ctx, imported, map[string]any{"q": "Tokyo"}, "")
	require.NoError(t, err)
	var faked any
	require.NoError(t, json.Unmarshal(body, &faked))
	require.False(t, faker.IsEcho(faked, map[string]any{"q": "Tokyo"}), "the faker answered, not an echo: %s", body)
	want, err := standin.Encode(faker.Fake(m.World(), &standin.Call{API: imported, Args: map[string]any{"q": "Tokyo"}, Now: clock.Default, Seed: standin.Seed("some_imported_tool", "search", map[string]any{"q": "Tokyo"}), State: standin.NewState()}))
	require.NoError(t, err)
	require.Equal(t, string(want), string(body), "the faker answered")

	_, err = m.Call(ctx, nil, nil, "")
	require.Error(t, err)
}

func TestMockerErrors(t *testing.T) {
	m := newTestMocker(t, Options{})
	ctx := context.Background()

	_, err := m.Call(ctx, standintest.API(testTool, "panic"), nil, "")
	var se *StandInError
	require.ErrorAs(t, err, &se)
	require.Equal(t, http.StatusInternalServerError, se.Status())
	require.Equal(t, testTool+".panic", se.API)
	require.NotNil(t, se.Panic)
	require.Contains(t, err.Error(), "stand-in "+testTool+".panic panicked")
	require.Contains(t, err.Error(), "nil map")

	// The Mocker keeps working after a panic.
	_, err = m.Call(ctx, standintest.API(testTool, "echo"), nil, "")
	require.NoError(t, err)

	_, err = m.Call(ctx, standintest.API(testTool, "not_found"), nil, "")
	require.Same(t, notFound, err, "a realistic failure comes back unchanged")

	_, err = m.Call(ctx, standintest.API(testTool, "plain_error"), nil, "")
	require.ErrorAs(t, err, &se)
	require.ErrorIs(t, err, errPlain)
	var ae *sandbox.Rejection
	require.False(t, errors.As(err, &ae), "a defect is not a realistic failure")

	_, err = m.Call(ctx, standintest.API(testTool, "nan"), nil, "")
	require.ErrorAs(t, err, &se)
	require.Contains(t, err.Error(), "encoding the response")

	_, err = m.Call(ctx, standintest.API(testTool, "echo"), map[string]any{"x": math.Inf(1)}, "")
	require.ErrorContains(t, err, "do not encode")

	cctx, cancel := context.WithCancel(ctx)
	cancel()
	_, err = m.Call(cctx, standintest.API(testTool, "echo"), nil, "")
	require.ErrorIs(t, err, context.Canceled)
	ctxHandler, _ := testRegistry().Lookup(testTool, "ctx")
	_, err = invokeStandIn(cctx, ctxHandler, m.World(), &standin.Call{API: standintest.API(testTool, "ctx"), State: standin.NewState()})
	require.ErrorIs(t, err, context.Canceled)
}

func TestMockerEncoding(t *testing.T) {
	m := newTestMocker(t, Options{})
	body, err := m.Call(context.Background(), standintest.API(testTool, "html"), nil, "")
	require.NoError(t, err)
	require.Equal(t, `{"a":"<b>Fish & Chips</b>","m":{"b":1000000,"y":2.5},"z":1}`, string(body))
}

func TestMockerSessions(t *testing.T) {
	m := newTestMocker(t, Options{MaxSessions: 2})
	ctx := context.Background()
	api := standintest.API(testTool, "counter")
	call := func(session string) string {
		body, err := m.Call(ctx, api, nil, session)
		require.NoError(t, err)
		return string(body)
	}
	require.Equal(t, `{"n":1}`, call("a"))
	require.Equal(t, `{"n":2}`, call("a"))
	require.Equal(t, `{"n":1}`, call("b"), "sessions are isolated")
	require.Equal(t, `{"n":1}`, call(""))
	require.Equal(t, `{"n":3}`, call("a"))
	require.Equal(t, `{"n":1}`, call("c"), "c evicts the least recently used session, b")
	require.Equal(t, `{"n":4}`, call("a"))
	require.Equal(t, `{"n":1}`, call("b"), "b was forgotten")
	require.Equal(t, `{"n":2}`, call(""), "the default session is never evicted")
}

// TestMockerForget: a forgotten session starts again from an empty state
// (sandbox.Engine.Reset between test cases); the others keep theirs.
func TestMockerForget(t *testing.T) {
	m := newTestMocker(t, Options{})
	ctx := context.Background()
	api := standintest.API(testTool, "counter")
	call := func(session string) string {
		body, err := m.Call(ctx, api, nil, session)
		require.NoError(t, err)
		return string(body)
	}
	for _, s := range []string{"a", "a", "b", "", ""} {
		call(s)
	}
	m.Forget("a")
	m.Forget("")
	m.Forget("never used")
	require.Equal(t, `{"n":1}`, call("a"))
	require.Equal(t, `{"n":1}`, call(""), "the default session is emptied")
	require.Equal(t, `{"n":2}`, call("b"))
}

func TestMockerConcurrentSessions(t *testing.T) {
	m := newTestMocker(t, Options{MaxSessions: 8})
	api := standintest.API(testTool, "counter")
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 50 {
				_, err := m.Call(context.Background(), api, nil, fmt.Sprint("s", i))
				require.NoError(t, err)
			}
		}()
	}
	bounded.Wait(t, &wg, "concurrent calls")
	for i := range 8 {
		body, err := m.Call(context.Background(), api, nil, fmt.Sprint("s", i))
		require.NoError(t, err)
		require.Equal(t, `{"n":51}`, string(body))
	}
}

func TestMockerDeterminism(t *testing.T) {
	w := standintest.World(t)
	at := clock.Fixed(time.Date(2025, 7, 1, 12, 0, 0, 0, time.UTC))
	a := newTestMocker(t, Options{World: w, Clock: at})
	b := newTestMocker(t, Options{World: w, Clock: at})
	imported := standintest.API("some_imported_tool", "search")
	imported.ExampleResponse = json.RawMessage(`{"results": [{"id": "ab12cd34", "price": 12.5, "url": "https://example.com/item/123"}]}`)
	for _, api := range []*toolset.API{standintest.API(testTool, "echo"), imported} {
		args := map[string]any{"q": "Tokyo", "n": 3.0, "nested": map[string]any{"b": true, "a": []any{"x", 1.0}}}
		x, err := a.Call(context.Background(), api, args, "s")
		require.NoError(t, err)
		y, err := b.Call(context.Background(), api, args, "s")
		require.NoError(t, err)
		require.Equal(t, string(x), string(y), "two Mockers give the same bytes")
		z, err := b.Call(context.Background(), api, map[string]any{"q": "Paris", "n": 3.0}, "s")
		require.NoError(t, err)
		require.NotEqual(t, string(x), string(z), "different inputs give different answers")
	}
}

func TestNewDefaults(t *testing.T) {
	m, err := New(Options{})
	require.NoError(t, err)
	require.NotNil(t, m.World())
	w, err := world.DefaultWorld()
	require.NoError(t, err)
	require.Same(t, w, m.World(), "the embedded world is loaded once")
}

func TestMockerFailures(t *testing.T) {
	ctx := context.Background()
	var slept []time.Duration
	sleep := func(ctx context.Context, d time.Duration) error {
		slept = append(slept, d)
		return ctx.Err()
	}
	policy := func(s string) *failures.Policy {
		p, err := failures.Parse(s)
		require.NoError(t, err)
		p.Sleep = sleep
		return p
	}
	api := standintest.API(testTool, "trivial")

	t.Run("latency", func(t *testing.T) {
		slept = nil
		m := newTestMocker(t, Options{Failures: policy("latency=50ms,jitter=10ms")})
		for i := range 20 {
			_, err := m.Call(ctx, api, map[string]any{"i": float64(i)}, "")
			require.NoError(t, err)
		}
		require.Len(t, slept, 20)
		distinct := map[time.Duration]bool{}
		for _, d := range slept {
			require.GreaterOrEqual(t, d, 50*time.Millisecond)
			require.Less(t, d, 60*time.Millisecond)
			distinct[d] = true
		}
		require.Greater(t, len(distinct), 10, "jitter varies")
		cctx, cancel := context.WithCancel(ctx)
		cancel()
		_, err := m.Call(cctx, api, nil, "")
		require.ErrorIs(t, err, context.Canceled)
	})

	t.Run("server errors", func(t *testing.T) {
		m := newTestMocker(t, Options{Failures: policy("error_rate=1")})
		statuses := map[int]bool{}
		for i := range 40 {
			_, err := m.Call(ctx, api, map[string]any{"i": float64(i)}, "")
			var ae *sandbox.Rejection
			require.ErrorAs(t, err, &ae)
			require.GreaterOrEqual(t, ae.Status, 500)
			statuses[ae.Status] = true
			_, limited := failures.RetryAfter(err)
			require.False(t, limited)
		}
		require.Len(t, statuses, 4, "500, 502, 503 and 504 all occur")
	})

	t.Run("rate limit", func(t *testing.T) {
		m := newTestMocker(t, Options{Failures: policy("rate_limit_rate=1,retry_after=3s")})
		_, err := m.Call(ctx, api, nil, "")
		var ae *sandbox.Rejection
		require.ErrorAs(t, err, &ae)
		require.Equal(t, http.StatusTooManyRequests, ae.Status)
		require.Contains(t, fmt.Sprint(ae.Body), "rate limit")
		d, ok := failures.RetryAfter(err)
		require.True(t, ok)
		require.Equal(t, 3*time.Second, d)
	})

	t.Run("per tool", func(t *testing.T) {
		m := newTestMocker(t, Options{Failures: policy("error_rate=0," + testTool + ":error_rate=1")})
		_, err := m.Call(ctx, api, nil, "")
		require.Error(t, err)
		_, err = m.Call(ctx, standintest.API("other_tool", "x"), nil, "")
		require.NoError(t, err)
	})

	t.Run("rates and retries", func(t *testing.T) {
		run := func() (fails int, trace string) {
			m := newTestMocker(t, Options{Failures: policy("error_rate=0.2,rate_limit_rate=0.1,seed=7")})
			var b strings.Builder
			for i := range 1000 {
				_, err := m.Call(ctx, api, map[string]any{"i": float64(i % 500)}, "")
				if err != nil {
					fails++
					b.WriteByte('x')
				} else {
					b.WriteByte('.')
				}
			}
			return fails, b.String()
		}
		fails, trace := run()
		require.InDelta(t, 300, fails, 60, "about 30%% of calls fail")
		_, again := run()
		require.Equal(t, trace, again, "the same sequence of calls fails at the same places")
		require.NotEqual(t, trace[:500], trace[500:], "a repeated call gets a fresh draw")
	})

	t.Run("truncate", func(t *testing.T) {
		m := newTestMocker(t, Options{Failures: policy("truncate")})
		body, err := m.Call(ctx, standintest.API(testTool, "long"), nil, "")
		require.NoError(t, err)
		var s string
		require.NoError(t, json.Unmarshal(body, &s), "a cut response is a JSON string")
		require.Equal(t, 2048, len([]rune(s)))
		require.True(t, strings.HasPrefix(s, `{"text":"éé`))
		body, err = m.Call(ctx, api, nil, "")
		require.NoError(t, err)
		require.Equal(t, `{"ok":true}`, string(body), "short responses are untouched")
	})
}

func BenchmarkMockerCall(b *testing.B) {
	m := newTestMocker(b, Options{})
	api := standintest.API(testTool, "trivial")
	args := map[string]any{"q": "Tokyo", "limit": 10.0}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := m.Call(ctx, api, args, "bench"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkMockerCallFaker(b *testing.B) {
	m := newTestMocker(b, Options{})
	api := standintest.API("some_imported_tool", "search")
	api.ExampleResponse = json.RawMessage(`{"data": [{"id": "ab12cd34", "name": "Tokyo Tower", "price": 12.5, "url": "https://example.com/item/123", "created": "2025-05-01T10:00:00Z"}], "status": true}`)
	args := map[string]any{"q": "Tokyo"}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := m.Call(ctx, api, args, ""); err != nil {
			b.Fatal(err)
		}
	}
}
