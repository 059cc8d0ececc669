// Package simulate answers imported tools' calls with a language model, as StableToolBench's virtual server does, and records every answer in the response store so that later runs replay it offline.
package simulate

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/understudy/understudy/agent"
	"github.com/understudy/understudy/cache"
	"github.com/understudy/understudy/internal/canon"
	"github.com/understudy/understudy/mocks/standin"
	"github.com/understudy/understudy/mocks/world"
	"github.com/understudy/understudy/sandbox"
	"github.com/understudy/understudy/toolset"
)

// Source marks the recordings the simulator writes.
const Source = "simulated"

// Attempts is how many times the model is asked for one call before the
// simulator gives up on it (StableToolBench asks three times too).
const Attempts = 3

// maxExampleBytes bounds the documented example shown to the model, as
// StableToolBench cuts its examples to 2,048 characters.
const maxExampleBytes = 2048

// Model is an OpenAI-compatible chat model (*openai.Client).
type Model interface {
	Respond(ctx context.Context, messages []agent.Message, tools []toolset.OpenAITool) (agent.Reply, error)
}

// Store is the response store answers are recorded in and replayed from:
// the engine's own (*cache.Cache, or with replicas sharing Redis the
// *redisstate.Entries over it), so that what one run or replica recorded
// every other one replays.
type Store interface {
	Get(ctx context.Context, key cache.Key) (cache.Entry, bool, error)
	Put(ctx context.Context, key cache.Key, e cache.Entry) error
}

// KeyLocker is a Store shared by several processes that lets one of them
// at a time fill a missing key (*redisstate.Entries): concurrent misses of
// one call across replicas then ask the model once, and the others replay
// its answer.
type KeyLocker interface {
	LockKey(ctx context.Context, key cache.Key) (unlock func(), e cache.Entry, found bool, err error)
}

// StoreError is a response store that failed the simulator: it did not
// answer (a shared store that is down), or did not keep the model's
// answer. The call fails with it rather than being answered by the faker,
// which would differ from what the other replicas answer.
type StoreError struct {
	API string // "<tool>.<api>"
	Op  string // "read", "lock", "record"
	Err error
}

func (e *StoreError) Error() string {
	return fmt.Sprintf("simulate %s: %s the answer: %v", e.API, e.Op, e.Err)
}

func (e *StoreError) Unwrap() error { return e.Err }

// Simulator asks a model for the answers of calls no recording has, and
// records them under the call's canonical key: the engine's replay mode
// and every later run answer from the recording, without the model. It is
// safe for concurrent use; concurrent identical calls ask the model once.
type Simulator struct {
	model Model
	store Store
	opts  Options

	mu       sync.Mutex
	inflight map[string]*flight
	// fellBack counts, by tool and API, the calls the model failed and the
	// faker answered.
	fellBack sync.Map // [2]string{tool, api} -> *atomic.Int64
}

type flight struct {
	done chan struct{}
	body json.RawMessage
	err  error
}

// Options configures a Simulator.
type Options struct {
	// Agree, when set, makes a model's answer agree with what the call's
	// session has seen (objects.Linker.Agree) before it is recorded. The
	// recording is then the answer the session was given, and a recorded
	// answer is served as it is: replay mode, which answers recordings
	// verbatim, answers a session as fake mode did.
	Agree func(c *standin.Call, v any) any
	// Logger gets a warning for every call the model failed and the
	// faker answered instead (default: discarded).
	Logger *slog.Logger
}

// New returns a simulator asking model and recording in store.
func New(model Model, store Store, opts Options) (*Simulator, error) {
	if model == nil || store == nil {
		return nil, errors.New("simulate: needs a model and a response store")
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	return &Simulator{model: model, store: store, opts: opts, inflight: map[string]*flight{}}, nil
}

// AnswerError is a call the model did not answer usably: it failed, or
// its replies were not JSON, Attempts times.
type AnswerError struct {
	API     string // "<tool>.<api>"
	Replies []string
	Err     error
}

func (e *AnswerError) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("simulate %s: %v", e.API, e.Err)
	}
	return fmt.Sprintf("simulate %s: no JSON answer in %d replies (last: %.120q)", e.API, len(e.Replies), e.Replies[len(e.Replies)-1])
}

func (e *AnswerError) Unwrap() error { return e.Err }

// Wrap returns a stand-in that answers from the recording of the call,
// else from the model (recording the answer), else, when the model
// fails, with next; next's answers are never recorded. A store that fails
// (*StoreError) fails the call.
func (s *Simulator) Wrap(next standin.Handler) standin.Handler {
	return func(ctx context.Context, w *world.World, c *standin.Call) (any, error) {
		if c.API == nil {
			return next(ctx, w, c)
		}
		body, err := s.Answer(ctx, c)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			if se := (*StoreError)(nil); errors.As(err, &se) {
				return nil, err
			}
			// Never silent: a model that stopped answering would
			// otherwise only show as answers that are the faker's.
			s.fallBack(c.API, err)
			return next(ctx, w, c)
		}
		return canon.Decode(body)
	}
}

// Answer returns the recorded answer of the call, or the model's (then
// recorded). Args must be the validated arguments the engine keys with.
func (s *Simulator) Answer(ctx context.Context, c *standin.Call) (json.RawMessage, error) {
	tool := standin.ToolName(c.API)
	key := cache.KeyOf(tool, c.API.Name, c.Args)
	if e, ok, err := s.store.Get(ctx, key); ok {
		return e.Response, nil
	} else if err != nil && !corrupt(err) {
		return nil, &StoreError{API: c.API.ID(), Op: "read", Err: err}
	}
	s.mu.Lock()
	if f, ok := s.inflight[key.Hash()]; ok {
		s.mu.Unlock()
		select {
		case <-f.done:
			return f.body, f.err
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	f := &flight{done: make(chan struct{})}
	s.inflight[key.Hash()] = f
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.inflight, key.Hash())
		s.mu.Unlock()
		close(f.done)
	}()

	// Replicas sharing the store take turns too: the one holding the
	// key's lock asks the model, the others then read its answer.
	if l, ok := s.store.(KeyLocker); ok {
		unlock, e, found, err := l.LockKey(ctx, key)
		if err != nil {
			f.err = &StoreError{API: c.API.ID(), Op: "lock", Err: err}
			return nil, f.err
		}
		if found {
			f.body = e.Response
			return f.body, nil
		}
		defer unlock() // after the answer is recorded: waiters then find it
	}
	f.body, f.err = s.ask(ctx, c)
	if f.err != nil {
		return nil, f.err
	}
	if s.opts.Agree != nil {
		if f.body, f.err = s.agree(c, f.body); f.err != nil {
			return nil, f.err
		}
	}
	// The answer was paid for: it is kept even if the caller has gone.
	if err := s.store.Put(context.WithoutCancel(ctx), key, cache.Entry{Tool: tool, API: c.API.Name, Arguments: []byte(key.Args()),
		Status: 200, Response: f.body, Source: Source, RecordedAt: c.Now}); err != nil && !errors.As(err, new(*sandbox.KeptError)) {
		// A recording one store kept (the local mirror of a Redis that did
		// not answer) is recorded: the answer stands.
		f.err = &StoreError{API: c.API.ID(), Op: "record", Err: err}
		return nil, f.err
	}
	return f.body, nil
}

// agree is Options.Agree on an answer's canonical JSON.
func (s *Simulator) agree(c *standin.Call, body json.RawMessage) (json.RawMessage, error) {
	v, err := canon.Decode(body)
	if err != nil {
		return nil, fmt.Errorf("simulate %s: %w", c.API.ID(), err)
	}
	b, err := canon.JSON(s.opts.Agree(c, v))
	if err != nil {
		return nil, fmt.Errorf("simulate %s: the agreed answer does not encode: %w", c.API.ID(), err)
	}
	return b, nil
}

// corrupt reports a broken recording: the engine treats it as a miss, and
// so does the simulator (the model's answer replaces it).
func corrupt(err error) bool {
	var ce *cache.CorruptError
	return errors.As(err, &ce)
}

// ask puts the call to the model until it answers JSON.
func (s *Simulator) ask(ctx context.Context, c *standin.Call) (json.RawMessage, error) {
	messages, err := Prompt(c.API, c.Args)
	if err != nil {
		return nil, err
	}
	ae := &AnswerError{API: c.API.ID()}
	for range Attempts {
		reply, err := s.model.Respond(ctx, messages, nil)
		if err != nil {
			ae.Err = err
			return nil, ae
		}
		ae.Replies = append(ae.Replies, reply.Content)
		if body, ok := ParseAnswer(reply.Content); ok {
			return body, nil
		}
	}
	return nil, ae
}

const systemPrompt = `Imagine you are an API server within a tool that holds a collection of APIs. From the API documentation, understand what the API does; given the input of a call, answer as the API would.

Answer with one JSON object and nothing else:
{"error": "", "response": <the API's JSON response>}

Keep "error" empty. Make the response realistic and consistent with the documentation, the example and the input (echo the entities the input names), with the fields the example shows. Keep it short: a few items at most.`

// Prompt is what the model is asked for a call: the API's documentation
// (tool, API, method, parameters), its documented example answer (not an
// error reply), its template_response when it has one, and the call's
// arguments.
func Prompt(api *toolset.API, args map[string]any) ([]agent.Message, error) {
	type paramDoc struct {
		Name        string `json:"name"`
		Type        string `json:"type"`
		Required    bool   `json:"required"`
		Description string `json:"description,omitempty"`
	}
	doc := struct {
		Tool            string     `json:"tool"`
		ToolDescription string     `json:"tool_description,omitempty"`
		API             string     `json:"api"`
		Description     string     `json:"description,omitempty"`
		Method          string     `json:"method,omitempty"`
		URL             string     `json:"url,omitempty"`
		Parameters      []paramDoc `json:"parameters"`
	}{API: api.Name, Description: api.Description, Method: api.Method, URL: api.URL, Parameters: []paramDoc{}}
	if api.Tool != nil {
		doc.Tool, doc.ToolDescription = api.Tool.Name, api.Tool.Description
	}
	for _, p := range api.Params {
		doc.Parameters = append(doc.Parameters, paramDoc{Name: p.Name, Type: string(p.Kind), Required: p.Required, Description: p.Description})
	}
	docJSON, err := canon.JSON(doc)
	if err != nil {
		return nil, fmt.Errorf("simulate %s: %w", api.ID(), err)
	}
	input, err := canon.JSON(args)
	if err != nil {
		return nil, fmt.Errorf("simulate %s: the arguments do not encode: %w", api.ID(), err)
	}
	example := "(none documented)"
	if ex := strings.TrimSpace(string(api.ExampleResponse)); ex != "" {
		// A tool file's test_endpoint is often an error reply ("You are
		// not subscribed to this API."): no example of an answer.
		if _, bad := cache.LooksLikeUpstreamError(api.ExampleResponse); !bad {
			example = cutRunes(ex, maxExampleBytes)
		}
	}
	var b strings.Builder
	b.WriteString("API documentation: ")
	b.Write(docJSON)
	b.WriteString("\nAPI example response: ")
	b.WriteString(example)
	if t := strings.TrimSpace(string(api.TemplateResponse)); t != "" {
		b.WriteString("\nAPI response template (the answer's shape, with each value's type): ")
		b.WriteString(cutRunes(t, maxExampleBytes))
	}
	b.WriteString("\nAPI input: ")
	b.Write(input)
	b.WriteString("\n")
	return []agent.Message{{Role: "system", Content: systemPrompt}, {Role: "user", Content: b.String()}}, nil
}

func cutRunes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}

// ParseAnswer reads a model's reply: JSON, possibly in a ```json fence.
// A reply of the asked form {"error": "", "response": R} answers R (a
// string R that holds a JSON object or array answers that); any other
// JSON answers itself. A non-empty "error" is not an answer. The answer
// comes back as canonical JSON.
func ParseAnswer(reply string) (json.RawMessage, bool) {
	text := strings.TrimSpace(reply)
	if i := strings.Index(text, "```"); i >= 0 {
		text = text[i+3:]
		text = strings.TrimPrefix(text, "json")
		if j := strings.Index(text, "```"); j >= 0 {
			text = text[:j]
		}
		text = strings.TrimSpace(text)
	}
	v, err := canon.Decode([]byte(text))
	if err != nil || v == nil {
		return nil, false
	}
	if m, ok := v.(map[string]any); ok && len(m) == 2 {
		resp, hasResp := m["response"]
		errText, hasErr := m["error"]
		if hasResp && hasErr {
			if e, _ := errText.(string); e != "" || (errText != nil && !isString(errText)) {
				return nil, false
			}
			if s, ok := resp.(string); ok {
				if inner, err := canon.Decode([]byte(strings.TrimSpace(s))); err == nil && isContainer(inner) {
					resp = inner
				}
			}
			v = resp
		}
	}
	b, err := canon.JSON(v)
	if err != nil {
		return nil, false
	}
	return b, true
}

func isString(v any) bool { _, ok := v.(string); return ok }

func isContainer(v any) bool {
	switch v.(type) {
	case map[string]any, []any:
		return true
	}
	return false
}

// fallBack notes a call the model failed, which the faker answers.
func (s *Simulator) fallBack(api *toolset.API, err error) {
	k := [2]string{standin.ToolName(api), api.Name}
	v, ok := s.fellBack.Load(k)
	if !ok {
		v, _ = s.fellBack.LoadOrStore(k, new(atomic.Int64))
	}
	v.(*atomic.Int64).Add(1)
	s.opts.Logger.Warn("simulate: the model did not answer; the faker answers instead (not recorded)", "api", api.ID(), "err", err)
}

// FellBack is how many calls of tool.api the model failed and the faker
// answered.
func (s *Simulator) FellBack(tool, api string) int64 {
	if v, ok := s.fellBack.Load([2]string{tool, api}); ok {
		return v.(*atomic.Int64).Load()
	}
	return 0
}

// WritePrometheus writes understudy_simulate_fallbacks_total, by tool and
// API, in the text exposition format (GET /metrics).
func (s *Simulator) WritePrometheus(w io.Writer) error {
	type row struct {
		k [2]string
		v int64
	}
	var rows []row
	s.fellBack.Range(func(k, v any) bool {
		rows = append(rows, row{k.([2]string), v.(*atomic.Int64).Load()})
		return true
	})
	slices.SortFunc(rows, func(a, b row) int {
		return cmp.Or(strings.Compare(a.k[0], b.k[0]), strings.Compare(a.k[1], b.k[1]))
	})
	if _, err := io.WriteString(w, "# HELP understudy_simulate_fallbacks_total Calls the -simulate model did not answer, which the faker answered instead (not recorded), by tool and API.\n# TYPE understudy_simulate_fallbacks_total counter\n"); err != nil {
		return err
	}
	for _, r := range rows {
		if _, err := fmt.Fprintf(w, "understudy_simulate_fallbacks_total{tool=%q,api=%q} %d\n", oneLine(r.k[0]), oneLine(r.k[1]), r.v); err != nil {
			return err
		}
	}
	return nil
}

// oneLine keeps a label value on one line; %q quotes and escapes the rest.
func oneLine(s string) string { return strings.ReplaceAll(s, "\n", " ") }
