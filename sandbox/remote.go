package sandbox

import (
	"github.com/understudy/understudy/internal/retry"

	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"golang.org/x/time/rate"

	"github.com/understudy/understudy/internal/canon"
	"github.com/understudy/understudy/toolset"
)

// Upstream is a real API behind the sandbox, used in record and live modes.
type Upstream interface {
	Do(ctx context.Context, api *toolset.API, args map[string]any) (UpstreamResponse, error)
}

// UpstreamResponse is what the real API answered.
type UpstreamResponse struct {
	Status int
	Body   json.RawMessage // always JSON: a non-JSON answer is kept as a JSON string
	// Header holds the response headers a client acts on (Retry-After),
	// nil when there are none.
	Header http.Header
}

// MaxUpstreamBody bounds what is read from an upstream answer.
const MaxUpstreamBody = 8 << 20

// RemoteOptions configures calls to a real API.
type RemoteOptions struct {
	// Key is the RapidAPI or ToolBench key. It is sent upstream only: it
	// is scrubbed, with its common encodings, from every answer body and
	// every error before they reach the engine, so no transport, recording
	// or log can show it.
	Key string
	// Timeout bounds one attempt (default 15 s).
	Timeout time.Duration
	// Retries is how many times a 429, a 5xx or a connection failure is
	// retried (default 2).
	Retries int
	// MaxBackoff caps the wait between attempts, Retry-After included (default 30 s).
	MaxBackoff time.Duration
	// PerSecond protects the upstream account: at most this many requests
	// per second leave the machine (default 5; waits, never drops).
	PerSecond float64
	// Client is the HTTP client (default: one with no overall timeout; the
	// per-attempt Timeout applies).
	Client *http.Client
	// Sleep waits between attempts; tests inject one that does not wait.
	Sleep func(ctx context.Context, d time.Duration) error

	scrub *scrubber
}

func (o *RemoteOptions) defaults() {
	if o.Timeout <= 0 {
		o.Timeout = 15 * time.Second
	}
	if o.Retries < 0 {
		o.Retries = 0
	} else if o.Retries == 0 {
		o.Retries = 2
	}
	if o.MaxBackoff <= 0 {
		o.MaxBackoff = 30 * time.Second
	}
	if o.PerSecond <= 0 {
		o.PerSecond = 5
	}
	if o.Client == nil {
		o.Client = &http.Client{}
	}
	if o.Sleep == nil {
		o.Sleep = retry.Sleep
	}
	o.scrub = newScrubber(o.Key)
}

// RapidAPI calls the real RapidAPI endpoint of an API:
// https://<host><path> with X-RapidAPI-Key and X-RapidAPI-Host.
type RapidAPI struct {
	opts RemoteOptions
	// BaseURL, when set, replaces "https://<host>" (a local stand-in
	// upstream in tests, or a corporate proxy).
	BaseURL string
	limit   *rate.Limiter
}

// NewRapidAPI returns a RapidAPI upstream.
func NewRapidAPI(baseURL string, opts RemoteOptions) *RapidAPI {
	opts.defaults()
	return &RapidAPI{opts: opts, BaseURL: strings.TrimRight(baseURL, "/"), limit: rate.NewLimiter(rate.Limit(opts.PerSecond), 1)}
}

// Do sends the call and returns the answer, retrying 429/5xx and connection failures.
func (r *RapidAPI) Do(ctx context.Context, api *toolset.API, args map[string]any) (UpstreamResponse, error) {
	if api.Tool == nil || api.Tool.Host == "" {
		return UpstreamResponse{}, fmt.Errorf("tool of %s has no RapidAPI host", api.Name)
	}
	return doWithRetries(ctx, &r.opts, r.limit, func(ctx context.Context) (*http.Request, error) {
		return r.request(ctx, api, args)
	})
}

func (r *RapidAPI) request(ctx context.Context, api *toolset.API, args map[string]any) (*http.Request, error) {
	p := api.Path
	q := url.Values{}
	body := map[string]any{}
	headers := http.Header{}
	for _, prm := range api.Params {
		v, ok := args[prm.Name]
		if !ok {
			continue
		}
		s := scalarString(v)
		switch prm.In {
		case toolset.InPath:
			p = strings.ReplaceAll(p, "{"+prm.Name+"}", url.PathEscape(s))
		case toolset.InHeader:
			headers.Set(prm.Name, s)
		case toolset.InBody:
			body[prm.Name] = v
		default:
			q.Set(prm.Name, s)
		}
	}
	base := r.BaseURL
	if base == "" {
		base = "https://" + api.Tool.Host
	}
	u := base + p
	if len(q) > 0 {
		u += "?" + q.Encode()
	}
	var rdr io.Reader
	if len(body) > 0 {
		b, err := canon.JSON(body)
		if err != nil {
			return nil, err
		}
		rdr = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, api.Method, u, rdr)
	if err != nil {
		return nil, err
	}
	req.Header = headers
	if rdr != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("X-RapidAPI-Key", r.opts.Key)
	req.Header.Set("X-RapidAPI-Host", api.Tool.Host)
	return req, nil
}

// ToolBenchServer calls a ToolBench-compatible server (ToolBench's
// /rapidapi or StableToolBench's /virtual) with its JSON request.
type ToolBenchServer struct {
	opts  RemoteOptions
	URL   string
	limit *rate.Limiter
}

// NewToolBenchServer returns an upstream that posts to a ToolBench-compatible URL.
func NewToolBenchServer(serverURL string, opts RemoteOptions) *ToolBenchServer {
	opts.defaults()
	return &ToolBenchServer{opts: opts, URL: serverURL, limit: rate.NewLimiter(rate.Limit(opts.PerSecond), 1)}
}

// Do sends the call in ToolBench's format and unwraps {"error", "response"}.
func (t *ToolBenchServer) Do(ctx context.Context, api *toolset.API, args map[string]any) (UpstreamResponse, error) {
	input, err := canon.JSON(args)
	if err != nil {
		return UpstreamResponse{}, err
	}
	payload, err := json.Marshal(map[string]any{
		"category":      api.Tool.Category,
		"tool_name":     api.Tool.StandardizedName,
		"api_name":      toolset.StandardizeAPIName(api.Name),
		"tool_input":    string(input),
		"strip":         "",
		"toolbench_key": t.opts.Key,
	})
	if err != nil {
		return UpstreamResponse{}, err
	}
	resp, err := doWithRetries(ctx, &t.opts, t.limit, func(ctx context.Context) (*http.Request, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, t.URL, bytes.NewReader(payload))
		if err != nil {
			return nil, err
		}
		req.Header.Set("Content-Type", "application/json")
		if t.opts.Key != "" {
			req.Header.Set("toolbench_key", t.opts.Key)
		}
		return req, nil
	})
	if err != nil {
		return resp, err
	}
	var wrapped struct {
		Error    string          `json:"error"`
		Response json.RawMessage `json:"response"`
	}
	if json.Unmarshal(resp.Body, &wrapped) != nil {
		return resp, errors.New("answer is not ToolBench's {\"error\", \"response\"} object")
	}
	if wrapped.Error != "" {
		return UpstreamResponse{Status: http.StatusBadGateway, Body: resp.Body}, errors.New(t.opts.scrub.String(wrapped.Error))
	}
	body := wrapped.Response
	if len(body) == 0 {
		body = json.RawMessage(`""`)
	}
	return UpstreamResponse{Status: http.StatusOK, Body: asJSON(body), Header: resp.Header}, nil
}

// doWithRetries runs attempts through retry.Do, retrying 429, 5xx and
// connection failures with capped exponential backoff that honours
// Retry-After. Every body and every error has the key scrubbed. When ctx
// ends, the error is its cause (the server shutting down, say).
func doWithRetries(ctx context.Context, o *RemoteOptions, limit *rate.Limiter, build func(context.Context) (*http.Request, error)) (UpstreamResponse, error) {
	var last UpstreamResponse
	_, err := retry.Do(ctx, retry.Policy{Retries: o.Retries, Sleep: o.Sleep}, func(n int) (time.Duration, bool, error) {
		if err := limit.Wait(ctx); err != nil {
			return 0, false, err
		}
		resp, wait, err := attempt1(ctx, o, build)
		last = resp
		again := err != nil && ctx.Err() == nil
		if err == nil && (resp.Status == http.StatusTooManyRequests || resp.Status >= 500) {
			again, err = true, fmt.Errorf("status %d", resp.Status)
		}
		if wait <= 0 {
			wait = retry.Backoff(250*time.Millisecond, o.MaxBackoff, n, nil)
		}
		return min(wait, o.MaxBackoff), again, err
	})
	var we *retry.WaitError
	if errors.As(err, &we) {
		err = we.Err
	}
	if err != nil && ctx.Err() != nil {
		err = fmt.Errorf("upstream call abandoned: %w", context.Cause(ctx))
	}
	return last, err
}

// attempt1 makes one request. The answer's body is scrubbed of the key
// here, the one place upstream bytes enter the engine, before anything
// (retry logic, recording, any transport) sees it.
func attempt1(ctx context.Context, o *RemoteOptions, build func(context.Context) (*http.Request, error)) (UpstreamResponse, time.Duration, error) {
	actx, cancel := context.WithTimeout(ctx, o.Timeout)
	defer cancel()
	req, err := build(actx)
	if err != nil {
		return UpstreamResponse{}, 0, errors.New(o.scrub.String(err.Error()))
	}
	resp, err := o.Client.Do(req)
	if err != nil {
		if errors.Is(actx.Err(), context.DeadlineExceeded) && ctx.Err() == nil {
			return UpstreamResponse{}, 0, fmt.Errorf("timed out after %s", o.Timeout)
		}
		return UpstreamResponse{}, 0, errors.New(o.scrub.String(err.Error()))
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, MaxUpstreamBody+1))
	if err != nil {
		if errors.Is(actx.Err(), context.DeadlineExceeded) {
			return UpstreamResponse{}, 0, fmt.Errorf("timed out after %s reading the answer", o.Timeout)
		}
		return UpstreamResponse{}, 0, errors.New(o.scrub.String(err.Error()))
	}
	if len(data) > MaxUpstreamBody {
		return UpstreamResponse{Status: resp.StatusCode}, 0, fmt.Errorf("answer larger than %d bytes", MaxUpstreamBody)
	}
	now := time.Now()
	out := UpstreamResponse{Status: resp.StatusCode, Body: asJSON(o.scrub.Bytes(data))}
	wait := retry.After(resp.Header, now)
	if wait > 0 {
		out.Header = http.Header{"Retry-After": {RetryAfterValue(wait)}}
	}
	return out, wait, nil
}

// asJSON keeps a JSON answer as is and wraps anything else as a JSON string.
func asJSON(b []byte) json.RawMessage {
	t := bytes.TrimSpace(b)
	if len(t) > 0 && json.Valid(t) {
		return json.RawMessage(t)
	}
	s, _ := json.Marshal(string(b))
	return s
}

// RetryAfterValue is a wait as a Retry-After header value: whole seconds,
// rounded up and at least 1, so that a client never retries at once.
func RetryAfterValue(d time.Duration) string {
	return strconv.Itoa(max(int(math.Ceil(d.Seconds())), 1))
}

func scalarString(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(x)
	default:
		b, _ := canon.JSON(x)
		return string(b)
	}
}
