package coherence

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/deps"
	"github.com/understudy/understudy/evaltasks/dataset"
	"github.com/understudy/understudy/fixtures"
)

// walked are the answers a walk of every dependency chain got, with how
// each was reached.
type walked struct {
	answers []answer
	// resolved are the calls of a dependent API with an ID (or value) an
	// earlier answer showed, with the item of that answer it came from.
	resolved []resolution
}

// resolution is one value of a source's answer used by a dependent API.
type resolution struct {
	Edge   deps.Edge
	Params []string // the parameters bound from Item (lat and lon together)
	Item   any      // the element of the source's list the value is in
	Source answer
	Answer answer
}

// walk calls, through the engine, every chain the project knows: the
// graph's chain of every built-in API, every gold chain of the dataset's
// Type-IV instructions, and every edge of the graph with each of the
// first few values its source's answer shows.
func walk(t *testing.T, h *harness) *walked {
	t.Helper()
	w := &walked{}
	for _, a := range h.st.Catalog.APIs() {
		if !a.Tool.Builtin {
			continue
		}
		session := "walk/chain/" + a.ID()
		p := h.prepare(session, a.ID())
		w.answers = append(w.answers, p.Steps...)
		w.answers = append(w.answers, h.call(session, a.ID(), p.Args))
	}
	ins, err := dataset.LoadDir(fixtures.FS, "instructions")
	require.NoError(t, err)
	gold := 0
	for _, in := range ins {
		if in.Type != dataset.TypeDependencies {
			continue
		}
		gold++
		w.answers = append(w.answers, h.runGold(t, "walk/gold/"+in.ID, in.Chain)...)
	}
	require.Positive(t, gold, "the dataset has Type-IV chains")
	w.walkEdges(t, h)
	return w
}

// runGold runs a gold chain in a session, each step's bindings taken from
// the earlier steps' answers, polling steps until they hold.
func (h *harness) runGold(t *testing.T, session string, steps []dataset.GoldStep) []answer {
	t.Helper()
	var out []answer
	for i, st := range steps {
		args := maps.Clone(st.Arguments)
		if args == nil {
			args = map[string]any{}
		}
		for p, b := range st.Bindings {
			vals := values(out[b.Step].Doc, b.Path)
			require.NotEmpty(t, vals, "%s step %d: nothing at %s", session, i, b.Path)
			args[p] = vals[0]
		}
		var a answer
		for n := 0; n < deps.MaxPolls; n++ {
			a = h.ok(session, st.API, args)
			if !st.Repeat || deps.UntilHolds(a.Doc, st.Until) {
				break
			}
		}
		out = append(out, a)
	}
	return out
}

// edgeItems says which items of a source's list a dependent API takes:
// locations_search lists attractions too, and attractions_list takes the
// location_id of a geo only, as its documentation says.
var edgeItems = map[string]func(item any) bool{
	"travel_advisor.locations_search>travel_advisor.attractions_list": func(item any) bool {
		return str(firstOr(item, "result_type")) == "geos"
	},
}

// maxItems bounds the values of one source's answer a walk follows.
const maxItems = 4

// walkEdges follows every edge of the graph: the source's prepared call,
// then the dependent API with each of the first items of the source's
// answer. Parameters bound from the same list (lat and lon, dest_id and
// search_type) take their values from one item; the others keep their
// prepared values.
func (w *walked) walkEdges(t *testing.T, h *harness) {
	type group struct {
		from, to, items string
		edges           []deps.Edge
		nth             int // the source's n-th call in a chain of to (userArgs)
	}
	var groups []*group
	byKey := map[string]*group{}
	for _, e := range h.st.Graph.Edges() {
		if e.Path == "" {
			continue // a "see listquotes" reference, not a value
		}
		key := e.From + ">" + e.To
		g := byKey[key]
		if g == nil || slices.ContainsFunc(g.edges, func(x deps.Edge) bool { return x.Path == e.Path }) {
			// Two parameters from the same path (fromId and toId) are two
			// places: each is walked alone, the other keeps its value.
			g = &group{from: e.From, to: e.To}
			if byKey[key] != nil {
				g.nth = byKey[key].nth + 1
			}
			groups = append(groups, g)
			byKey[key] = g
		}
		if items, _ := splitItems(e.Path); items != "" {
			require.True(t, g.items == "" || g.items == items, "%s: two lists feed %s", key, e.Param)
			g.items = items
		}
		g.edges = append(g.edges, e)
	}
	for gi, g := range groups {
		src := fmt.Sprintf("walk/edge/%d/", gi)
		p := h.prepare(src+"source", g.from)
		if u := userArgs[g.from]; len(u) > 0 {
			maps.Copy(p.Args, u[min(g.nth, len(u)-1)])
		}
		source := h.ok(src+"source", g.from, p.Args)
		keep := edgeItems[g.from+">"+g.to]
		n := 0
		for i, item := range listAt(source.Doc, g.items) {
			if keep != nil && !keep(item) {
				continue
			}
			if n++; n > maxItems {
				break
			}
			session := fmt.Sprintf("%sitem%d", src, i)
			// The dependent's own chain, then the source's call again, so
			// the values are ones the session saw last.
			q := h.prepare(session, g.to)
			again := h.ok(session, g.from, p.Args)
			require.Equal(t, string(source.Raw), string(again.Raw), "%s answers the same call the same", g.from)
			args := q.Args
			var params []string
			for _, e := range g.edges {
				items, field := splitItems(e.Path)
				from := again.Doc
				if items != "" {
					from = item
				}
				v := firstOr(from, field)
				require.NotNil(t, v, "%s: no value at %s", g.from, e.Path)
				args[e.Param] = v
				params = append(params, e.Param)
			}
			a := h.call(session, g.to, args)
			require.True(t, a.ok(), "%s showed %s at %s, which %s refuses: %s", g.from, canonical(item), g.items, g.to, a)
			w.answers = append(w.answers, again, a)
			w.resolved = append(w.resolved, resolution{Edge: g.edges[0], Params: params, Item: item, Source: again, Answer: a})
		}
		require.Positive(t, n, "%s's answer shows no item at %s for %s", g.from, g.items, g.to)
	}
}

// splitItems cuts a dependency path into the list it walks and the field
// of each item: "data.hotels[].hotel_id" is "data.hotels[]" and
// "hotel_id"; a path without a list ("data.token") is "" and itself.
func splitItems(path string) (items, field string) {
	i := strings.LastIndex(path, "[]")
	if i < 0 {
		return "", path
	}
	return path[:i+2], strings.TrimPrefix(path[i+2:], ".")
}

// listAt is the items at a list path, or the answer itself as the one item
// when the path has no list.
func listAt(doc any, items string) []any {
	if items == "" {
		return []any{doc}
	}
	return values(doc, items)
}

// firstOr is the first value at path, or nil.
func firstOr(doc any, path string) any {
	if v := values(doc, path); len(v) > 0 {
		return v[0]
	}
	return nil
}

// byAPI is the answers of one API, in walk order.
func (w *walked) byAPI(id string) []answer {
	var out []answer
	for _, a := range w.answers {
		if a.API == id && a.ok() {
			out = append(out, a)
		}
	}
	return out
}
