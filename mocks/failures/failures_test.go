package failures

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/mocks/internal/standintest"
	"github.com/understudy/understudy/mocks/standin"
	"github.com/understudy/understudy/mocks/world"
	"github.com/understudy/understudy/sandbox"
)

func TestParseFailurePolicy(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Policy
	}{
		{"", Policy{}},
		{"  ", Policy{}},
		{"latency=50ms,error_rate=0.05,rate_limit_rate=0.02,seed=7", Policy{Seed: 7, Default: Rule{Latency: 50 * time.Millisecond, ErrorRate: 0.05, RateLimitRate: 0.02}}},
		{"skyscanner80:error_rate=0.1", Policy{Tools: map[string]Rule{"skyscanner80": {ErrorRate: 0.1}}}},
		// A tool rule starts from the global one, wherever the global items are.
		{"Skyscanner 80:error_rate=0.1, latency=1s", Policy{Default: Rule{Latency: time.Second}, Tools: map[string]Rule{"skyscanner_80": {Latency: time.Second, ErrorRate: 0.1}}}},
		{"truncate", Policy{Default: Rule{Truncate: 2048}}},
		{"truncate=100,jitter=5ms,retry_after=2s", Policy{Default: Rule{Truncate: 100, Jitter: 5 * time.Millisecond, RetryAfter: 2 * time.Second}}},
		{"LATENCY=1ms", Policy{Default: Rule{Latency: time.Millisecond}}},
		// The example toolserver -h and docs/toolserver.md give.
		{"latency=50ms,error_rate=0.05,seed=7;skyscanner80:rate_limit_rate=0.1", Policy{Seed: 7,
			Default: Rule{Latency: 50 * time.Millisecond, ErrorRate: 0.05},
			Tools:   map[string]Rule{"skyscanner80": {Latency: 50 * time.Millisecond, ErrorRate: 0.05, RateLimitRate: 0.1}}}},
		// Sections may come in any order, and semicolons may separate
		// global items too.
		{"a:error_rate=0.2,a:retry_after=3s;seed=1;b:truncate ; jitter=1ms", Policy{Seed: 1,
			Default: Rule{Jitter: time.Millisecond},
			Tools: map[string]Rule{
				"a": {Jitter: time.Millisecond, ErrorRate: 0.2, RetryAfter: 3 * time.Second},
				"b": {Jitter: time.Millisecond, Truncate: 2048},
			}}},
	} {
		t.Run(tc.in, func(t *testing.T) {
			p, err := Parse(tc.in)
			require.NoError(t, err)
			require.Equal(t, tc.want, *p)
			back, err := Parse(p.String())
			require.NoError(t, err, "String() = %q", p.String())
			require.Equal(t, tc.want.Seed, back.Seed)
			require.Equal(t, tc.want.Default, back.Default)
			for tool, r := range tc.want.Tools {
				require.Equal(t, r, back.Rule(tool))
			}
		})
	}
	require.Equal(t, "seed=7,latency=50ms,error_rate=0.05;skyscanner80:error_rate=0.1",
		mustPolicy(t, "skyscanner80:error_rate=0.1,error_rate=0.05,seed=7,latency=50ms").String())
}

func mustPolicy(t *testing.T, s string) *Policy {
	t.Helper()
	p, err := Parse(s)
	require.NoError(t, err)
	return p
}

func TestParseFailurePolicyErrors(t *testing.T) {
	for _, tc := range []struct{ in, item, msg string }{
		{"latency", "latency", "want key=value"},
		{"latency=fast", "latency=fast", "invalid duration"},
		{"latency=-1s", "latency=-1s", "outside"},
		{"latency=11m", "latency=11m", "outside"},
		{"error_rate=1.5", "error_rate=1.5", "outside [0, 1]"},
		{"error_rate=NaN", "error_rate=NaN", "outside [0, 1]"},
		{"error_rate=x", "error_rate=x", "want a number"},
		{"error_rate=0.7,rate_limit_rate=0.5", "error_rate=0.7,rate_limit_rate=0.5", "exceed 1"},
		{"t:error_rate=0.7,t:rate_limit_rate=0.5", "t", "exceed 1"},
		{"seed=-1", "seed=-1", "non-negative"},
		{"t:seed=1", "t:seed=1", "global"},
		{"latency=1ms,latency=2ms", "latency=2ms", "twice"},
		{"colour=red", "colour=red", "unknown key"},
		{"latency=1ms,,seed=1", "", "empty item"},
		{":error_rate=0.1", ":error_rate=0.1", "empty tool name"},
		{"truncate=-5", "truncate=-5", "non-negative"},
		// With semicolons, an unprefixed item after a tool's is ambiguous
		// (-limit would scope it to the tool).
		{"seed=7;skyscanner80:rate_limit_rate=0.1,error_rate=0.2", "error_rate=0.2", "skyscanner80:error_rate=0.2"},
		{"seed=7;", "", "empty item"},
		{";", "", "empty item"},
		{"seed=7;;latency=1ms", "", "empty item"},
		{"a:seed=7;latency=1ms", "a:seed=7", "global"},
	} {
		t.Run(tc.in, func(t *testing.T) {
			_, err := Parse(tc.in)
			var pe *PolicyError
			require.ErrorAs(t, err, &pe)
			require.Equal(t, tc.item, pe.Item)
			require.ErrorContains(t, err, tc.msg)
		})
	}
}

func FuzzParseFailurePolicy(f *testing.F) {
	for _, s := range []string{"", "latency=50ms,error_rate=0.05,seed=7;skyscanner80:rate_limit_rate=0.1", "a:jitter=1ms;b:truncate,b:latency=2s;seed=3", "x;y:z=1,w=2", "latency=50ms,error_rate=0.05,rate_limit_rate=0.02,seed=7", "skyscanner80:error_rate=0.1", "truncate", "a:latency=1s,b:jitter=2ms,truncate=9", "error_rate=1e-3", "x:y:z=1", "=,=", "latency=1h"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := Parse(s)
		if err != nil {
			require.Nil(t, p)
			var pe *PolicyError
			require.ErrorAs(t, err, &pe)
			return
		}
		for _, r := range append([]Rule{p.Default}, valuesOf(p.Tools)...) {
			require.True(t, r.ErrorRate >= 0 && r.RateLimitRate >= 0 && r.ErrorRate+r.RateLimitRate <= 1+1e-12)
			require.True(t, r.Latency >= 0 && r.Jitter >= 0 && r.RetryAfter >= 0 && r.Truncate >= 0)
		}
		back, err := Parse(p.String())
		require.NoError(t, err, "String() = %q", p.String())
		require.Equal(t, p.Seed, back.Seed)
		require.Equal(t, p.Default, back.Default)
		for tool, r := range p.Tools {
			require.Equal(t, r, back.Rule(tool))
		}
	})
}

func valuesOf(m map[string]Rule) []Rule {
	var out []Rule
	for _, r := range m {
		out = append(out, r)
	}
	return out
}

func TestTruncate(t *testing.T) {
	long := strings.Repeat("a", 3000)
	require.Equal(t, long[:2048], string(Truncate([]byte(long), ToolBenchTruncate)))
	require.Equal(t, "short", string(Truncate([]byte("short"), 2048)))
	require.Equal(t, long, string(Truncate([]byte(long), 0)), "limit 0 means no limit")
	// Characters, not bytes: "é" is two bytes and one character.
	accents := strings.Repeat("é", 3000)
	cut := Truncate([]byte(accents), 2048)
	require.True(t, utf8.Valid(cut))
	require.Equal(t, 2048, utf8.RuneCount(cut))
	require.Equal(t, "日本", string(Truncate([]byte("日本語"), 2)))
	require.Equal(t, "日本語", string(Truncate([]byte("日本語"), 3)))
}

func TestFailurePolicyNil(t *testing.T) {
	var p *Policy
	require.Equal(t, Rule{}, p.Rule("x"))
	require.Empty(t, p.String())
	require.NoError(t, (&Policy{}).before(context.Background(), "x", 1, 0))
}

func FuzzTruncate(f *testing.F) {
	f.Add([]byte(`{"a":"é日本"}`), 3)
	f.Add([]byte{0xff, 0xfe, 'a'}, 1)
	f.Fuzz(func(t *testing.T, b []byte, limit int) {
		out := Truncate(b, limit)
		require.True(t, len(out) <= len(b))
		require.Equal(t, string(b[:len(out)]), string(out), "a prefix")
		if limit > 0 && utf8.Valid(b) {
			require.True(t, utf8.Valid(out))
			require.LessOrEqual(t, utf8.RuneCount(out), limit)
		}
	})
}

// TestMiddleware wraps a stand-in directly: the policy decides before the
// stand-in runs, a refused call never reaches it, and truncation applies to
// the encoded answer.
func TestMiddleware(t *testing.T) {
	api := standintest.API("wrapped_tool", "get")
	long := map[string]any{"text": strings.Repeat("é", 50)}
	for _, tc := range []struct {
		name   string
		policy string
		calls  int    // times the stand-in must run
		status int    // the refusal's status, 0 for none
		want   string // the canonical answer when not refused
	}{
		{"no policy", "", 1, 0, `{"text":"` + strings.Repeat("é", 50) + `"}`},
		{"another tool's rule", "other_tool:rate_limit_rate=1", 1, 0, `{"text":"` + strings.Repeat("é", 50) + `"}`},
		{"rate limited", "rate_limit_rate=1", 0, http.StatusTooManyRequests, ""},
		{"server error", "wrapped_tool:error_rate=1", 0, -1, ""},
		{"truncated", "truncate=12", 1, 0, `"{\"text\":\"ééé"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := Parse(tc.policy)
			require.NoError(t, err)
			if tc.policy == "" {
				p = nil
			}
			calls := 0
			next := func(_ context.Context, _ *world.World, _ *standin.Call) (any, error) {
				calls++
				return long, nil
			}
			c := &standin.Call{API: api, Args: map[string]any{}, Seed: 7, State: standin.NewState()}
			v, err := p.Middleware(next)(context.Background(), nil, c)
			require.Equal(t, tc.calls, calls)
			if tc.status != 0 {
				var r *sandbox.Rejection
				require.ErrorAs(t, err, &r)
				if tc.status > 0 {
					require.Equal(t, tc.status, r.Status)
					d, ok := RetryAfter(err)
					require.True(t, ok, "a 429 carries its Retry-After")
					require.Equal(t, DefaultRetryAfter, d)
					require.Equal(t, "1", r.Header.Get("Retry-After"), "and sends it as the header")
				} else {
					require.GreaterOrEqual(t, r.Status, 500)
				}
				return
			}
			require.NoError(t, err)
			b, err := standin.Encode(v)
			require.NoError(t, err)
			require.Equal(t, tc.want, string(b))
		})
	}
}

// TestRateLimitRetryAfterHeader checks that the header a simulated 429
// sends says the policy's wait in whole seconds, rounded up and never 0.
func TestRateLimitRetryAfterHeader(t *testing.T) {
	for _, tc := range []struct{ policy, header string }{
		{"rate_limit_rate=1", "1"},
		{"rate_limit_rate=1,retry_after=1500ms", "2"},
		{"rate_limit_rate=1,retry_after=10ms", "1"},
		{"rate_limit_rate=1,retry_after=1m", "60"},
	} {
		t.Run(tc.policy, func(t *testing.T) {
			err := mustPolicy(t, tc.policy).before(context.Background(), "x", 1, 0)
			var r *sandbox.Rejection
			require.ErrorAs(t, err, &r)
			require.Equal(t, http.StatusTooManyRequests, r.Status)
			require.Equal(t, tc.header, r.Header.Get("Retry-After"))
		})
	}
}
