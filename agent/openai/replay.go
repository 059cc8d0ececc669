package openai

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/understudy/understudy/agent"
	"github.com/understudy/understudy/agent/internal/clip"
	"github.com/understudy/understudy/toolset"
)

// Recorder is an Agent that passes calls to another Agent and records each
// reply in a Transcript. A request already recorded is answered from the
// transcript unless Overwrite is set, so identical requests get identical
// replies and a recorded run matches its replay. Failed calls are not recorded.
//
// Keys come from the wrapped agent's BuildRequest when it is a
// RequestBuilder (as Client is), else from the messages and tools alone.
type Recorder struct {
	Agent      agent.Agent
	Transcript *Transcript
	Overwrite  bool

	mu       sync.Mutex
	inflight map[string]*pendingCall
}

type pendingCall struct {
	done  chan struct{}
	reply agent.Reply
	err   error
}

// NewRecorder records a's replies in t.
func NewRecorder(a agent.Agent, t *Transcript) *Recorder {
	return &Recorder{Agent: a, Transcript: t}
}

var (
	_ agent.Agent = (*Recorder)(nil)
	_ agent.Agent = (*Replayer)(nil)
)

// Respond answers from the transcript or from the wrapped agent, recording the latter.
func (r *Recorder) Respond(ctx context.Context, messages []agent.Message, tools []toolset.OpenAITool) (agent.Reply, error) {
	req, err := requestFor(r.Agent, messages, tools)
	if err != nil {
		return agent.Reply{}, err
	}
	key, canonReq, err := RequestKey(req)
	if err != nil {
		return agent.Reply{}, err
	}
	if !r.Overwrite {
		if e, ok, err := r.Transcript.Get(key); err != nil {
			return agent.Reply{}, err
		} else if ok {
			return e.Reply, nil
		}
	}
	// Concurrent identical requests share one call, so they cannot record
	// different replies under one key.
	r.mu.Lock()
	if p, ok := r.inflight[key]; ok {
		r.mu.Unlock()
		select {
		case <-p.done:
			return p.reply, p.err
		case <-ctx.Done():
			return agent.Reply{}, ctx.Err()
		}
	}
	if r.inflight == nil {
		r.inflight = map[string]*pendingCall{}
	}
	p := &pendingCall{done: make(chan struct{})}
	r.inflight[key] = p
	r.mu.Unlock()
	defer func() {
		r.mu.Lock()
		delete(r.inflight, key)
		r.mu.Unlock()
		close(p.done)
	}()

	reply, err := r.Agent.Respond(ctx, messages, tools)
	if err != nil {
		p.err = err
		return reply, err
	}
	if err := r.Transcript.Put(Entry{Key: key, Request: canonReq, Reply: reply}); err != nil {
		p.err = err
		return agent.Reply{}, err
	}
	// Answer with the stored form, exactly what a replay will give.
	e, _, err := r.Transcript.Get(key)
	p.reply, p.err = e.Reply, err
	return e.Reply, err
}

// Replayer is an Agent that answers only from a Transcript. Builder must be
// configured as the recorded agent was (same model, protocol and
// parameters) so requests get the same keys; nil means keys from the
// messages and tools alone. It needs no network.
type Replayer struct {
	Transcript *Transcript
	Builder    RequestBuilder
}

// NewReplayer answers from t, keying requests with b.
func NewReplayer(t *Transcript, b RequestBuilder) *Replayer {
	return &Replayer{Transcript: t, Builder: b}
}

// MissError reports a request with no recorded reply.
type MissError struct {
	Key string
	Dir string // "" for an in-memory transcript
	// Nearest is the recorded request most like the missing one, "" if the
	// transcript is empty; Difference names the first part where they differ.
	Nearest    string
	Difference string
}

func (e *MissError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "agent: no recorded reply for request %s", e.Key)
	if e.Dir != "" {
		fmt.Fprintf(&b, " in %s", e.Dir)
	}
	switch {
	case e.Nearest == "":
		b.WriteString("; the transcript is empty")
	case e.Difference != "":
		fmt.Fprintf(&b, "; nearest recording %s differs at %s", e.Nearest, e.Difference)
	}
	return b.String()
}

// Respond returns the recorded reply for the conversation or a *MissError.
func (r *Replayer) Respond(ctx context.Context, messages []agent.Message, tools []toolset.OpenAITool) (agent.Reply, error) {
	if err := ctx.Err(); err != nil {
		return agent.Reply{}, err
	}
	var builder any
	if r.Builder != nil {
		builder = r.Builder
	}
	req, err := requestFor(builder, messages, tools)
	if err != nil {
		return agent.Reply{}, err
	}
	key, canonReq, err := RequestKey(req)
	if err != nil {
		return agent.Reply{}, err
	}
	e, ok, err := r.Transcript.Get(key)
	if err != nil {
		return agent.Reply{}, err
	}
	if !ok {
		return agent.Reply{}, r.miss(key, canonReq)
	}
	return e.Reply, nil
}

// miss builds the MissError, finding the recording that shares the longest
// prefix of canonical bytes with the request (ties go to the smaller key).
func (r *Replayer) miss(key string, canonReq []byte) error {
	me := &MissError{Key: key, Dir: r.Transcript.Dir()}
	keys, err := r.Transcript.Keys()
	if err != nil {
		return fmt.Errorf("%w (listing recordings: %v)", me, err)
	}
	best, bestLen := Entry{}, -1
	for _, k := range keys {
		e, ok, err := r.Transcript.Get(k)
		if err != nil || !ok {
			continue
		}
		if n := commonPrefix(e.Request, canonReq); n > bestLen {
			best, bestLen = e, n
		}
	}
	if bestLen < 0 {
		return me
	}
	me.Nearest = best.Key
	me.Difference = FirstDifference(best.Request, canonReq)
	return me
}

func commonPrefix(a, b []byte) int {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

// FirstDifference names the first place, in sorted-key order, where two
// JSON documents differ, as `path: recorded X, requested Y`; "" when equal.
func FirstDifference(recorded, requested []byte) string {
	a, errA := decodeAny(recorded)
	b, errB := decodeAny(requested)
	if errA != nil || errB != nil {
		return "the whole request (one side is not JSON)"
	}
	return diffValue("", a, b)
}

func decodeAny(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	err := dec.Decode(&v)
	return v, err
}

func diffValue(path string, a, b any) string {
	where := path
	if where == "" {
		where = "the request"
	}
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok {
			return describeDiff(where, a, b)
		}
		keys := make([]string, 0, len(x)+len(y))
		for k := range x {
			keys = append(keys, k)
		}
		for k := range y {
			if _, dup := x[k]; !dup {
				keys = append(keys, k)
			}
		}
		sort.Strings(keys)
		for _, k := range keys {
			p := k
			if path != "" {
				p = path + "." + k
			}
			va, inA := x[k]
			vb, inB := y[k]
			switch {
			case !inA:
				return fmt.Sprintf("%s: absent in the recording, requested %s", p, shortJSON(vb))
			case !inB:
				return fmt.Sprintf("%s: recorded %s, absent in the request", p, shortJSON(va))
			}
			if d := diffValue(p, va, vb); d != "" {
				return d
			}
		}
		return ""
	case []any:
		y, ok := b.([]any)
		if !ok {
			return describeDiff(where, a, b)
		}
		for i := 0; i < min(len(x), len(y)); i++ {
			if d := diffValue(fmt.Sprintf("%s[%d]", path, i), x[i], y[i]); d != "" {
				return d
			}
		}
		if len(x) != len(y) {
			return fmt.Sprintf("%s: recorded %d items, requested %d", where, len(x), len(y))
		}
		return ""
	}
	if shortJSON(a) == shortJSON(b) && fmt.Sprintf("%T", a) == fmt.Sprintf("%T", b) {
		return ""
	}
	return describeDiff(where, a, b)
}

func describeDiff(where string, a, b any) string {
	return fmt.Sprintf("%s: recorded %s, requested %s", where, shortJSON(a), shortJSON(b))
}

func shortJSON(v any) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Sprint(v)
	}
	return clip.Text(strings.TrimSpace(buf.String()), 80)
}
