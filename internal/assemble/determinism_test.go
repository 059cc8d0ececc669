package assemble_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/deps"
	"github.com/understudy/understudy/internal/assemble"
	"github.com/understudy/understudy/toolset"
)

// childEnv makes the test binary print a transcript and exit, for the
// fresh-process half of TestSameBytesEverywhere.
const childEnv = "UNDERSTUDY_DETERMINISM_CHILD"

// call is one executed call of the transcript.
type call struct {
	API       string         `json:"api"`
	Arguments map[string]any `json:"arguments"`
	Status    int            `json:"status"`
	Response  string         `json:"response"`
}

var alternates = []string{"London", "Paris", "Tokyo"}

// transcript runs, for every built-in API in the given order, the chain
// that satisfies its dependencies with the documented example values, each
// chain in a session of its own, and returns every call keyed by API.
func transcript(t testing.TB, reverse bool) map[string][]call {
	st, err := assemble.Build(assemble.Config{})
	require.NoError(t, err)
	defer st.Close()
	g, err := deps.Build(st.Catalog, deps.Options{Annotations: true})
	require.NoError(t, err)
	apis := st.Catalog.APIs()
	if reverse {
		for i, j := 0, len(apis)-1; i < j; i, j = i+1, j-1 {
			apis[i], apis[j] = apis[j], apis[i]
		}
	}
	out := map[string][]call{}
	for _, a := range apis {
		ch, err := g.ChainFor(a.ID())
		require.NoError(t, err)
		seen := map[string]int{}
		args := func(i int, api *toolset.API) map[string]any {
			m := map[string]any{}
			n := seen[api.ID()]
			seen[api.ID()]++
			for _, p := range api.Params {
				if !p.Required || p.Default == nil {
					continue
				}
				if _, bound := ch.Steps[i].Bindings[p.Name]; bound {
					continue
				}
				m[p.Name] = p.Default
				if _, isString := p.Default.(string); isString && n > 0 && len(p.Enum) == 0 && p.Format == "" {
					m[p.Name] = alternates[(n-1)%len(alternates)]
				}
			}
			return m
		}
		steps, err := g.Run(context.Background(), st.Engine, ch, "determinism-"+a.ID(), args)
		require.NoError(t, err, a.ID())
		for _, s := range steps {
			out[a.ID()] = append(out[a.ID()], call{API: s.API, Arguments: s.Arguments, Status: s.Status, Response: string(s.Response)})
		}
	}
	return out
}

// TestSameBytesEverywhere requires byte-identical answers to identical
// calls in the forward and the reverse API order, in fresh stacks, and in a
// fresh process.
func TestSameBytesEverywhere(t *testing.T) {
	if os.Getenv(childEnv) != "" {
		b, err := json.Marshal(transcript(t, false))
		require.NoError(t, err)
		fmt.Fprintf(os.Stdout, "TRANSCRIPT %s\n", b)
		return
	}
	forward := transcript(t, false)
	require.NotEmpty(t, forward)
	require.Equal(t, forward, transcript(t, true), "the order of calls must not change any answer")

	cmd := exec.Command(os.Args[0], "-test.run", "^TestSameBytesEverywhere$", "-test.count=1")
	cmd.Env = append(os.Environ(), childEnv+"=1")
	outb, err := cmd.Output()
	require.NoError(t, err, string(outb))
	i := bytes.Index(outb, []byte("TRANSCRIPT "))
	require.GreaterOrEqual(t, i, 0, string(outb))
	line := outb[i+len("TRANSCRIPT "):]
	line = line[:bytes.IndexByte(line, '\n')]
	var child map[string][]call
	require.NoError(t, json.Unmarshal(line, &child))
	require.Equal(t, forward, child, "a fresh process must answer with the same bytes")
}
