// Package failures makes stand-ins fail the way real APIs do, on request:
// a middleware that adds latency, server errors, rate limiting and
// ToolBench's truncation of long responses around any stand-in.
package failures

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/understudy/understudy/internal/retry"
	"github.com/understudy/understudy/mocks/standin"
	"github.com/understudy/understudy/mocks/world"
	"github.com/understudy/understudy/sandbox"
	"github.com/understudy/understudy/toolset"
)

// Policy makes stand-ins fail the way real APIs do, on request: added
// latency, server errors and rate limiting, and ToolBench's truncation of
// long responses. It is opt-in (a nil policy does nothing) and deterministic:
// whether a call fails depends only on the policy's seed, the call's seed and
// how many times the session has made that same call before, so a rerun of
// the same sequence of calls fails at the same places while a retry of a
// failed call gets a fresh draw.
type Policy struct {
	Seed    uint64
	Default Rule
	// Tools overrides Default for single tools, by standardized tool name.
	// A tool's rule starts from Default and changes only what it names.
	Tools map[string]Rule
	// Sleep waits for d or until ctx is done; nil means a real timer. Tests
	// inject one that records the delay and returns at once.
	Sleep func(ctx context.Context, d time.Duration) error
}

// Rule is the failure behaviour of one tool (or of all).
type Rule struct {
	Latency time.Duration // added to every call
	Jitter  time.Duration // plus a uniform draw in [0, Jitter)
	// ErrorRate is the probability of a 5xx gateway or server error.
	ErrorRate float64
	// RateLimitRate is the probability of a 429; ErrorRate + RateLimitRate <= 1.
	RateLimitRate float64
	// RetryAfter is the hint a 429 carries; zero means DefaultRetryAfter.
	RetryAfter time.Duration
	// Truncate cuts responses longer than this many characters, as
	// ToolBench's server does (0 means never; ToolBench uses 2048).
	Truncate int
}

// DefaultRetryAfter is the Retry-After hint of a simulated 429.
const DefaultRetryAfter = time.Second

// ToolBenchTruncate is the response length ToolBench's server cuts observations at.
const ToolBenchTruncate = 2048

// maxPolicyDuration bounds latency settings: a simulated delay longer than
// this is a typo (50s for 50ms), not a test of slowness.
const maxPolicyDuration = 10 * time.Minute

// active reports whether the rule changes anything.
func (r Rule) active() bool { return r != Rule{} }

// Rule returns the rule that applies to a tool.
func (p *Policy) Rule(tool string) Rule {
	if p == nil {
		return Rule{}
	}
	if r, ok := p.Tools[tool]; ok {
		return r
	}
	return p.Default
}

// Middleware wraps a stand-in in the policy: before it runs, the latency
// and the draw of a failure; after, the truncation of a long response. A
// nil policy, or a tool whose rule changes nothing, leaves next as it is.
func (p *Policy) Middleware(next standin.Handler) standin.Handler {
	if p == nil {
		return next
	}
	return func(ctx context.Context, w *world.World, c *standin.Call) (any, error) {
		tool := standin.ToolName(c.API)
		rule := p.Rule(tool)
		if !rule.active() {
			return next(ctx, w, c)
		}
		attempt := c.State.Update(attemptKind, strconv.FormatUint(c.Seed, 16), func(old any, ok bool) any {
			n, _ := old.(uint64)
			if ok {
				n++
			}
			return n
		}).(uint64)
		if err := p.before(ctx, tool, c.Seed, attempt); err != nil {
			return nil, err
		}
		v, err := next(ctx, w, c)
		if err != nil || rule.Truncate <= 0 {
			return v, err
		}
		body, err := standin.Encode(v)
		if err != nil {
			return nil, fmt.Errorf("encoding the response: %w", err)
		}
		if body, err = truncateResponse(body, rule.Truncate); err != nil {
			return nil, err
		}
		return json.RawMessage(body), nil
	}
}

// RateLimitError is a simulated 429: the sandbox.Rejection a client sees,
// whose Retry-After header carries the hint, plus the hint as a duration.
// errors.As finds the *sandbox.Rejection inside it.
type RateLimitError struct {
	*sandbox.Rejection
	RetryAfter time.Duration
}

func (e *RateLimitError) Error() string {
	return fmt.Sprintf("%s (retry after %s)", e.Rejection.Error(), e.RetryAfter)
}

func (e *RateLimitError) Unwrap() error { return e.Rejection }

// RetryAfter returns the Retry-After hint carried by err, if any.
func RetryAfter(err error) (time.Duration, bool) {
	var rl *RateLimitError
	if errors.As(err, &rl) {
		return rl.RetryAfter, true
	}
	return 0, false
}

// The bodies RapidAPI's gateway answers with, verbatim in shape.
var (
	rateLimitBody = map[string]any{"message": "You have exceeded the rate limit per second for your plan, BASIC, by the API provider"}
	serverErrors  = []struct {
		status int
		body   map[string]any
	}{
		{http.StatusInternalServerError, map[string]any{"message": "Internal Server Error"}},
		{http.StatusBadGateway, map[string]any{"messages": "The API is unreachable, please contact the API provider", "info": "Your Client (working) ---> Gateway (working) ---> API (not working)"}},
		{http.StatusServiceUnavailable, map[string]any{"message": "Service Unavailable"}},
		{http.StatusGatewayTimeout, map[string]any{"messages": "The request to the API has timed out. Please try again later, or if the issue persists, please contact the API provider", "info": "Your Client (working) ---> Gateway (working) ---> API (took too long to respond)"}},
	}
)

// attemptKind is the session-state kind counting repeats of a call.
const attemptKind = "mocks.failures.attempt"

// before applies the policy ahead of dispatching a call: it waits out the
// latency, then draws whether the call is rate limited or fails. attempt is
// how many times the session made this call before.
func (p *Policy) before(ctx context.Context, tool string, seed, attempt uint64) error {
	r := p.Rule(tool)
	if !r.active() {
		return nil
	}
	rng := splitMix64{p.Seed ^ seed ^ (attempt+1)*0x9e3779b97f4a7c15}
	delay := r.Latency
	if r.Jitter > 0 {
		delay += time.Duration(rng.next() % uint64(r.Jitter))
	}
	if delay > 0 {
		sleep := p.Sleep
		if sleep == nil {
			sleep = retry.Sleep
		}
		if err := sleep(ctx, delay); err != nil {
			return err
		}
	}
	u := rng.float()
	switch {
	case u < r.RateLimitRate:
		ra := r.RetryAfter
		if ra <= 0 {
			ra = DefaultRetryAfter
		}
		return &RateLimitError{Rejection: &sandbox.Rejection{
			Status: http.StatusTooManyRequests, Body: rateLimitBody,
			Header: http.Header{"Retry-After": {sandbox.RetryAfterValue(ra)}},
		}, RetryAfter: ra}
	case u < r.RateLimitRate+r.ErrorRate:
		e := serverErrors[rng.next()%uint64(len(serverErrors))]
		return &sandbox.Rejection{Status: e.status, Body: e.body}
	}
	return nil
}

// splitMix64 is SplitMix64: a tiny, fast, well-mixed generator for the few
// draws a failure decision needs.
type splitMix64 struct{ s uint64 }

func (g *splitMix64) next() uint64 {
	g.s += 0x9e3779b97f4a7c15
	z := g.s
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// float returns a draw in [0, 1).
func (g *splitMix64) float() float64 { return float64(g.next()>>11) / (1 << 53) }

// Truncate cuts body to at most limit characters (Unicode code points, as
// ToolBench's Python slice str(observation)[:2048] counts them), never
// splitting a character. Bodies within the limit, and limits <= 0, leave
// body unchanged. The result of a cut is generally not valid JSON.
func Truncate(body []byte, limit int) []byte {
	if limit <= 0 || len(body) <= limit {
		return body
	}
	n := 0
	for i := range string(body) {
		if n == limit {
			return body[:i]
		}
		n++
	}
	return body
}

// truncateResponse applies a rule's Truncate to an encoded response. A cut
// response is returned as a JSON string holding the cut text, which is
// what ToolBench's server answers, so the result stays valid JSON.
func truncateResponse(body []byte, limit int) ([]byte, error) {
	if limit <= 0 || len(body) <= limit || utf8.RuneCount(body) <= limit {
		return body, nil
	}
	return standin.Encode(string(Truncate(body, limit)))
}

// PolicyError is a malformed failure-policy flag.
type PolicyError struct {
	Item string // the offending item
	Err  error
}

func (e *PolicyError) Error() string {
	return fmt.Sprintf("failure policy item %q: %v", e.Item, e.Err)
}

func (e *PolicyError) Unwrap() error { return e.Err }

// Parse reads a policy flag: key=value items separated by commas or
// semicolons, each optionally prefixed by a tool name and a colon to apply
// to that tool only, e.g. "latency=50ms,error_rate=0.05,seed=7;
// skyscanner80:rate_limit_rate=0.1" (the example of toolserver -h). Keys:
// latency, jitter, retry_after (durations such as 50ms), error_rate,
// rate_limit_rate (0 to 1), truncate (characters; "truncate" alone means
// 2048) and, globally only, seed. The empty string is the policy that does
// nothing.
//
// A prefix applies to its own item only. Because -limit scopes everything
// after "<tool>=" up to the next semicolon to that tool, an unprefixed item
// after a prefixed one in the same semicolon section is ambiguous and
// rejected, rather than read one way when the writer meant the other.
func Parse(s string) (*Policy, error) {
	p := &Policy{}
	type item struct{ raw, key, value string }
	perTool := map[string][]item{}
	var order []string
	seen := map[string]bool{}
	if strings.TrimSpace(s) == "" {
		return p, nil
	}
	sections := strings.Split(s, ";")
	for _, section := range sections {
		sectionTool := ""
		for raw := range strings.SplitSeq(section, ",") {
			raw = strings.TrimSpace(raw)
			if raw == "" {
				return nil, &PolicyError{Item: raw, Err: errors.New("empty item")}
			}
			key, value, hasValue := strings.Cut(raw, "=")
			tool := ""
			if t, k, ok := strings.Cut(key, ":"); ok {
				tool, key = toolset.Standardize(strings.TrimSpace(t)), k
				if tool == "" {
					return nil, &PolicyError{Item: raw, Err: errors.New("empty tool name before ':'")}
				}
				sectionTool = tool
			} else if sectionTool != "" && len(sections) > 1 {
				return nil, &PolicyError{Item: raw, Err: fmt.Errorf("follows %s: in the same ';' section: write %s:%s for that tool, or put it before the ';' for every tool", sectionTool, sectionTool, raw)}
			}
			key, value = strings.ToLower(strings.TrimSpace(key)), strings.TrimSpace(value)
			if !hasValue {
				if key != "truncate" {
					return nil, &PolicyError{Item: raw, Err: errors.New("want key=value")}
				}
				value = strconv.Itoa(ToolBenchTruncate)
			}
			if seen[tool+":"+key] {
				return nil, &PolicyError{Item: raw, Err: fmt.Errorf("%s given twice", key)}
			}
			seen[tool+":"+key] = true
			if key == "seed" {
				if tool != "" {
					return nil, &PolicyError{Item: raw, Err: errors.New("seed is global, not per tool")}
				}
				v, err := strconv.ParseUint(value, 10, 64)
				if err != nil {
					return nil, &PolicyError{Item: raw, Err: fmt.Errorf("seed: want a non-negative integer: %w", err)}
				}
				p.Seed = v
				continue
			}
			if tool == "" {
				if err := setRule(&p.Default, key, value); err != nil {
					return nil, &PolicyError{Item: raw, Err: err}
				}
				continue
			}
			if _, ok := perTool[tool]; !ok {
				order = append(order, tool)
			}
			perTool[tool] = append(perTool[tool], item{raw, key, value})
		}
	}
	if err := p.Default.check(); err != nil {
		return nil, &PolicyError{Item: s, Err: err}
	}
	// Tool rules start from the global one, whatever the order of items.
	for _, tool := range order {
		r := p.Default
		for _, it := range perTool[tool] {
			if err := setRule(&r, it.key, it.value); err != nil {
				return nil, &PolicyError{Item: it.raw, Err: err}
			}
		}
		if err := r.check(); err != nil {
			return nil, &PolicyError{Item: tool, Err: err}
		}
		if p.Tools == nil {
			p.Tools = map[string]Rule{}
		}
		p.Tools[tool] = r
	}
	return p, nil
}

func setRule(r *Rule, key, value string) error {
	switch key {
	case "latency", "jitter", "retry_after":
		d, err := time.ParseDuration(value)
		if err != nil {
			return err
		}
		if d < 0 || d > maxPolicyDuration {
			return fmt.Errorf("%s %s is outside [0, %s]", key, d, maxPolicyDuration)
		}
		switch key {
		case "latency":
			r.Latency = d
		case "jitter":
			r.Jitter = d
		default:
			r.RetryAfter = d
		}
	case "error_rate", "rate_limit_rate":
		f, err := strconv.ParseFloat(value, 64)
		if err != nil {
			return fmt.Errorf("%s: want a number from 0 to 1: %w", key, err)
		}
		if !(f >= 0 && f <= 1) {
			return fmt.Errorf("%s %v is outside [0, 1]", key, f)
		}
		if key == "error_rate" {
			r.ErrorRate = f
		} else {
			r.RateLimitRate = f
		}
	case "truncate":
		n, err := strconv.Atoi(value)
		if err != nil || n < 0 {
			return fmt.Errorf("truncate: want a non-negative number of characters, got %q", value)
		}
		r.Truncate = n
	default:
		return fmt.Errorf("unknown key %q (want latency, jitter, error_rate, rate_limit_rate, retry_after, truncate or seed)", key)
	}
	return nil
}

func (r Rule) check() error {
	if r.ErrorRate+r.RateLimitRate > 1+1e-12 {
		return fmt.Errorf("error_rate %v + rate_limit_rate %v exceed 1", r.ErrorRate, r.RateLimitRate)
	}
	return nil
}

// String is the policy in the flag syntax Parse reads, global items first
// and then one semicolon section per tool, with keys in a fixed order, so
// that parsing it gives the same policy back.
func (p *Policy) String() string {
	if p == nil {
		return ""
	}
	var items []string
	if p.Seed != 0 {
		items = append(items, "seed="+strconv.FormatUint(p.Seed, 10))
	}
	items = append(items, p.Default.items("", Rule{})...)
	sections := []string{strings.Join(items, ",")}
	for _, t := range slices.Sorted(maps.Keys(p.Tools)) {
		if ti := p.Tools[t].items(t+":", p.Default); len(ti) > 0 {
			sections = append(sections, strings.Join(ti, ","))
		}
	}
	if sections[0] == "" {
		sections = sections[1:]
	}
	return strings.Join(sections, ";")
}

// items renders the fields of r that differ from base.
func (r Rule) items(prefix string, base Rule) []string {
	var out []string
	add := func(key, v string) { out = append(out, prefix+key+"="+v) }
	if r.Latency != base.Latency {
		add("latency", r.Latency.String())
	}
	if r.Jitter != base.Jitter {
		add("jitter", r.Jitter.String())
	}
	if r.ErrorRate != base.ErrorRate {
		add("error_rate", strconv.FormatFloat(r.ErrorRate, 'g', -1, 64))
	}
	if r.RateLimitRate != base.RateLimitRate {
		add("rate_limit_rate", strconv.FormatFloat(r.RateLimitRate, 'g', -1, 64))
	}
	if r.RetryAfter != base.RetryAfter {
		add("retry_after", r.RetryAfter.String())
	}
	if r.Truncate != base.Truncate {
		add("truncate", strconv.Itoa(r.Truncate))
	}
	return out
}

var (
	_ error        = (*RateLimitError)(nil)
	_ error        = (*PolicyError)(nil)
	_ fmt.Stringer = (*Policy)(nil)
)
