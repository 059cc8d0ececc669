package objects_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/deps"
	"github.com/understudy/understudy/mocks/objects"
	"github.com/understudy/understudy/mocks/standin"
	"github.com/understudy/understudy/mocks/world"
	"github.com/understudy/understudy/toolset"
)

// TestLinkerFollowsEveryPathForm drives the linker directly with scripted
// answers: the source answers list, the detail answers detail, and the
// detail call must come back as want.
func TestLinkerFollowsEveryPathForm(t *testing.T) {
	cases := []struct {
		name, path, method string
		list, detail, want string
		documented         bool
		id                 any
	}{
		{"array in a field", "data[].id", "GET", `{"data":[{"id":"a","n":1},{"id":"b","n":2}]}`, `{"id":"x","n":9,"extra":true}`, `{"id":"b","n":2,"extra":true}`, true, "b"},
		{"bare array", "[].id", "GET", `[{"id":5,"n":1}]`, `{"result":{"id":0,"n":0}}`, `{"result":{"id":5,"n":1}}`, true, "5"},
		{"the answer itself", "id", "GET", `{"id":"s-1","n":3}`, `{"id":"z","n":0}`, `{"id":"s-1","n":3}`, true, "s-1"},
		{"no path: any depth", "", "GET", `{"a":{"b":[{"k":"q","n":4}]}}`, `{"k":"?","n":0}`, `{"k":"q","n":4}`, true, "q"},
		{"undocumented detail answers the object", "data[].id", "GET", `{"data":[{"id":"a","n":1}]}`, `{"status":"success"}`, `{"id":"a","n":1}`, false, "a"},
		{"another shape is left alone", "data[].id", "GET", `{"data":[{"id":"a","n":1}]}`, `{"weather":"sunny"}`, `{"weather":"sunny"}`, true, "a"},
		{"not a read", "data[].id", "POST", `{"data":[{"id":"a","n":1}]}`, `{"id":"o-1","n":0}`, `{"id":"o-1","n":0}`, true, "a"},
		{"unknown ID", "data[].id", "GET", `{"data":[{"id":"a","n":1}]}`, `{"id":"x","n":0}`, `{"id":"x","n":0}`, true, "nope"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			param := "id"
			if tc.path == "" {
				param = "k"
			}
			list := &toolset.API{Name: "list", Method: "GET"}
			detail := &toolset.API{Name: "detail", Method: tc.method, Params: []*toolset.Param{{Name: param, Kind: toolset.KindString, Required: true}}}
			if tc.documented {
				detail.ExampleResponse = json.RawMessage(tc.detail)
			}
			cat, err := toolset.NewCatalog([]*toolset.Tool{{Name: "shop", Category: "Data", APIs: []*toolset.API{list, detail}}})
			require.NoError(t, err)
			g, err := deps.Build(cat, deps.Options{})
			require.NoError(t, err)
			require.Empty(t, g.Edges())
			detail.Params[0].Depends = []toolset.Dependency{{API: "list", Path: tc.path}}
			if tc.path == "" {
				detail.Params[0].Depends[0].Path = "unused"
			}
			g, err = deps.Build(cat, deps.Options{Annotations: true})
			require.NoError(t, err)
			edges := g.Edges()
			require.Len(t, edges, 1)
			if tc.path == "" {
				// An inferred edge may name no path; rebuild it that way.
				edges[0].Path = ""
			}
			l := objects.New(g)
			answers := map[*toolset.API]string{list: tc.list, detail: tc.detail}
			answer := func(_ context.Context, _ *world.World, c *standin.Call) (any, error) {
				var v any
				require.NoError(t, json.Unmarshal([]byte(answers[c.API]), &v))
				return v, nil
			}
			encode := func(v any) string {
				b, err := json.Marshal(v)
				require.NoError(t, err)
				return string(b)
			}
			h := l.Wrap(answer)
			st := standin.NewState()
			_, err = h(context.Background(), nil, &standin.Call{API: list, Args: map[string]any{}, State: st})
			require.NoError(t, err)
			call := &standin.Call{API: detail, Args: map[string]any{param: tc.id}, State: st}
			got, err := h(context.Background(), nil, call)
			require.NoError(t, err)
			require.JSONEq(t, tc.want, encode(got))

			// Wrap is Remember over Agree: Agree alone gives the same
			// answer, and Remember alone (a recorded answer) leaves it.
			v, err := answer(context.Background(), nil, call)
			require.NoError(t, err)
			require.JSONEq(t, tc.want, encode(l.Agree(call, v)))
			kept, err := l.Remember(answer)(context.Background(), nil, call)
			require.NoError(t, err)
			require.JSONEq(t, tc.detail, encode(kept))
		})
	}
}
