package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/understudy/understudy/deps"
	"github.com/understudy/understudy/toolset"
)

// OracleStep is one tool call of an oracle script. Bound parameters take
// the first value at a path of the result of an earlier step, so the
// oracle follows a dependency chain with the values the tools really
// returned.
type OracleStep struct {
	// Name is the exported function name to call.
	Name      string                  `json:"name"`
	Arguments map[string]any          `json:"arguments,omitempty"`
	Bindings  map[string]OracleSource `json:"bindings,omitempty"`
	// Repeat marks a polling step: it is called again until Until
	// ("path == value") holds in its last result, at most MaxOraclePolls times.
	Repeat bool   `json:"repeat,omitempty"`
	Until  string `json:"until,omitempty"`
}

// OracleSource names a value in an earlier step's result.
type OracleSource struct {
	Step int    `json:"step"` // index into OracleScript.Steps
	Path string `json:"path"` // dotted, "[]" walks arrays (deps.Values)
}

// OracleScript is what the oracle answers for one instance: its tool
// calls in order, one per turn, then a final text answer.
type OracleScript struct {
	Steps  []OracleStep `json:"steps,omitempty"`
	Answer string       `json:"answer"`
}

// MaxOraclePolls bounds the calls of one polling step.
const MaxOraclePolls = 10

type oracleKey struct{}

// WithOracleScript returns a context carrying the script the oracle
// answers with. The evaluator attaches one per instance, built from the
// gold annotations; other agents ignore it.
func WithOracleScript(ctx context.Context, s *OracleScript) context.Context {
	return context.WithValue(ctx, oracleKey{}, s)
}

// OracleScriptFrom returns the script attached to ctx, if any.
func OracleScriptFrom(ctx context.Context) (*OracleScript, bool) {
	s, ok := ctx.Value(oracleKey{}).(*OracleScript)
	return s, ok && s != nil
}

// ErrNoOracleScript is returned by the oracle when the context carries no script.
var ErrNoOracleScript = errors.New("agent: the oracle needs a script in the context (WithOracleScript)")

// OracleError reports a script the conversation cannot follow (a binding
// whose value is not in the earlier result).
type OracleError struct {
	Step int
	Err  error
}

func (e *OracleError) Error() string {
	return fmt.Sprintf("agent: oracle step %d: %v", e.Step+1, e.Err)
}
func (e *OracleError) Unwrap() error { return e.Err }

// Oracle answers from the gold annotations: it replays the script in its
// context. It is stateless: where it stands in the script is read from the
// conversation (its own call IDs and the tool messages answering them), so
// one Oracle serves any number of concurrent instances.
type Oracle struct{}

var _ Agent = Oracle{}

// oracleCallPrefix marks the call IDs the oracle issues: "oracle_<step>_<n>".
const oracleCallPrefix = "oracle_"

// Respond makes the next call of the script, or gives the answer once
// every step is done.
func (Oracle) Respond(ctx context.Context, messages []Message, _ []toolset.OpenAITool) (Reply, error) {
	s, ok := OracleScriptFrom(ctx)
	if !ok {
		return Reply{}, ErrNoOracleScript
	}
	// Results of the oracle's own earlier calls, by step (the last call wins).
	results := map[int]any{}
	calls := map[int]int{}
	byID := map[string]int{}
	for _, m := range messages {
		switch m.Role {
		case RoleAssistant:
			for _, tc := range m.ToolCalls {
				if step, ok := oracleStep(tc.ID); ok {
					byID[tc.ID] = step
					calls[step]++
				}
			}
		case RoleTool:
			if step, ok := byID[m.ToolCallID]; ok {
				var doc any
				if json.Unmarshal([]byte(m.Content), &doc) != nil {
					doc = m.Content
				}
				results[step] = doc
			}
		}
	}
	next := 0
	for next < len(s.Steps) && calls[next] > 0 {
		st := s.Steps[next]
		if st.Repeat && calls[next] < MaxOraclePolls && !deps.UntilHolds(results[next], st.Until) {
			break // poll again
		}
		next++
	}
	if next >= len(s.Steps) {
		return Reply{Content: s.Answer}, nil
	}
	st := s.Steps[next]
	args := map[string]any{}
	for k, v := range st.Arguments {
		args[k] = v
	}
	for param, b := range st.Bindings {
		if b.Step < 0 || b.Step >= next {
			return Reply{}, &OracleError{Step: next, Err: fmt.Errorf("binding of %s refers to step %d, not an earlier one", param, b.Step+1)}
		}
		vals := deps.Values(results[b.Step], b.Path)
		if len(vals) == 0 {
			return Reply{}, &OracleError{Step: next, Err: fmt.Errorf("no value at %s in the result of step %d for %s", b.Path, b.Step+1, param)}
		}
		args[param] = vals[0]
	}
	raw, err := json.Marshal(args)
	if err != nil {
		return Reply{}, &OracleError{Step: next, Err: err}
	}
	id := oracleCallPrefix + strconv.Itoa(next) + "_" + strconv.Itoa(calls[next]+1)
	return Reply{ToolCalls: []ToolCall{{ID: id, Name: st.Name, Arguments: raw}}}, nil
}

func oracleStep(id string) (int, bool) {
	rest, ok := strings.CutPrefix(id, oracleCallPrefix)
	if !ok {
		return 0, false
	}
	step, _, ok := strings.Cut(rest, "_")
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(step)
	return n, err == nil && n >= 0
}
