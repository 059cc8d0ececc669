// Command datagen writes the instruction dataset (fixtures/instructions/type1…type5.jsonl) from authored phrasings, executing every gold call on the stand-ins to take the expected facts from their actual responses.
//
// Usage: go run ./internal/datagen [-out fixtures/instructions]
//
// The output is deterministic: the same code and fixtures give the same bytes.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"

	"github.com/understudy/understudy/deps"
	"github.com/understudy/understudy/evaltasks/dataset"
	"github.com/understudy/understudy/internal/assemble"
	"github.com/understudy/understudy/internal/atomicfile"
	"github.com/understudy/understudy/internal/canon"
	"github.com/understudy/understudy/mocks/world"
	"github.com/understudy/understudy/toolset"
)

func main() {
	out := flag.String("out", "fixtures/instructions", "directory to write type1.jsonl … type5.jsonl into")
	flag.Parse()
	if err := run(*out); err != nil {
		fmt.Fprintln(os.Stderr, "datagen:", err)
		os.Exit(1)
	}
}

// gen holds what every type's builder needs.
type gen struct {
	ctx   context.Context
	st    *assemble.Stack
	cat   *toolset.Catalog
	graph *deps.Graph // annotations only
	world *world.World
	out   map[int][]dataset.Instruction
	errs  []error
	// dropped counts candidates left out as near-duplicates.
	dropped int
	// beyondBudget are the Type-IV questions left out because they need
	// more of a result than a model is shown.
	beyondBudget []string
}

func run(dir string) error {
	st, err := assemble.Build(assemble.Config{})
	if err != nil {
		return err
	}
	defer st.Close()
	g := &gen{ctx: context.Background(), st: st, cat: st.Catalog, out: map[int][]dataset.Instruction{}}
	g.graph, err = deps.Build(st.Catalog, deps.Options{Annotations: true})
	if err != nil {
		return err
	}
	g.world, err = world.DefaultWorld()
	if err != nil {
		return err
	}
	g.typeI()
	g.typeII()
	g.typeIII()
	g.typeIV()
	g.typeV()
	if len(g.errs) > 0 {
		for _, e := range g.errs {
			fmt.Fprintln(os.Stderr, "  ", e)
		}
		return fmt.Errorf("%d record(s) could not be built", len(g.errs))
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for t := 1; t <= 5; t++ {
		ins := g.out[t]
		sort.SliceStable(ins, func(i, j int) bool { return ins[i].ID < ins[j].ID })
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		for _, in := range ins {
			if err := in.Check(); err != nil {
				return err
			}
			if err := enc.Encode(in); err != nil {
				return err
			}
		}
		if err := atomicfile.WriteFile(filepath.Join(dir, fmt.Sprintf("type%d.jsonl", t)), b.Bytes(), 0o644); err != nil {
			return err
		}
		fmt.Printf("type %d: %d instructions\n", t, len(ins))
	}
	fmt.Printf("near-duplicate candidates left out: %d\n", g.dropped)
	fmt.Printf("questions left out, needing more of a result than a model is shown: %d %v\n", len(g.beyondBudget), g.beyondBudget)
	return nil
}

func (g *gen) fail(format string, args ...any) { g.errs = append(g.errs, fmt.Errorf(format, args...)) }

// add keeps the first candidate phrasing of a record that is not a
// near-duplicate of one already kept (the validator's own measure, with a
// margin); the candidates share the record's ID. When every phrasing
// collides under the framing the ID picks, other opener and closer
// phrases are drawn (by a hash of the ID and the attempt); whether the
// text has an opener and a closer stays the ID's, so the framing odds are
// those of every type. It tells whether one was kept.
func (g *gen) add(cands ...dataset.Instruction) bool {
	if cands[0].Type <= dataset.TypeMissing {
		n := len(cands)
		for _, in := range cands[:n] {
			for _, t := range rewordings(in.Text) {
				alt := in
				alt.Text = t
				cands = append(cands, alt)
			}
		}
	}
	for attempt := 0; attempt < maxFramings; attempt++ {
	next:
		for _, in := range cands {
			if in.Type <= dataset.TypeMissing {
				in.Text = frame(in.ID, attempt, in.Text)
			}
			in.Text = typo(in.ID, in.Text, in.Type != dataset.TypeMissing)
			for _, prev := range g.out[in.Type] {
				if dataset.TextSimilarity(prev.Text, in.Text) >= 0.75 {
					continue next
				}
			}
			g.out[in.Type] = append(g.out[in.Type], in)
			return true
		}
		if cands[0].Type > dataset.TypeMissing {
			break
		}
	}
	g.dropped++
	return false
}

// maxFramings bounds how often a record's framing is drawn.
const maxFramings = 12

func (g *gen) api(id string) *toolset.API {
	a := dataset.ResolveAPI(g.cat, id)
	if a == nil {
		g.fail("unknown API %s", id)
	}
	return a
}

func (g *gen) scenario(id string) string {
	if a := g.api(id); a != nil {
		return a.Tool.Scenario
	}
	return ""
}

// answer is one executed call: its decoded response, and what a model is
// shown of it (dataset.ShownResult: whole up to the budget, else cut).
type answer struct {
	doc, shown any
	note       string // what was cut; "" when the model sees it whole
}

// call executes one call in a session and decodes the response.
func (g *gen) call(id string, args map[string]any, session string) (answer, error) {
	a := g.api(id)
	if a == nil {
		return answer{}, fmt.Errorf("unknown API %s", id)
	}
	res, err := g.st.Engine.CallAPI(g.ctx, a, args, session)
	if err != nil {
		return answer{}, err
	}
	if res.Status >= 300 {
		b, _ := json.Marshal(args)
		return answer{}, fmt.Errorf("%s%s answered %d: %.300s", id, b, res.Status, res.Response)
	}
	doc, err := canon.Decode(res.Response)
	if err != nil {
		return answer{}, err
	}
	f := dataset.ShownResult(a, res.Response, args)
	return answer{doc: doc, shown: dataset.ShownDoc(f), note: f.Note}, nil
}

// runChain executes gold steps in one session, returning each answer. A
// value a step takes from an earlier one must be in what a model is shown
// of that answer: a chain that needs what the budget cut is an error.
func (g *gen) runChain(steps []dataset.GoldStep, session string) ([]answer, error) {
	var out []answer
	for i, st := range steps {
		args := map[string]any{}
		for k, v := range st.Arguments {
			args[k] = v
		}
		for _, p := range slices.Sorted(maps.Keys(st.Bindings)) {
			b := st.Bindings[p]
			vals := deps.Values(out[b.Step].doc, b.Path)
			if len(vals) == 0 {
				return out, fmt.Errorf("step %d %s: nothing at %s", i, st.API, b.Path)
			}
			if !shows(out[b.Step].shown, b.Path, vals[0]) {
				return out, fmt.Errorf("step %d %s: %v at %s is cut from what a model is shown of step %d (%s)", i, st.API, vals[0], b.Path, b.Step, out[b.Step].note)
			}
			args[p] = vals[0]
		}
		var ans answer
		var err error
		for n := 0; n < deps.MaxPolls; n++ {
			ans, err = g.call(st.API, args, session)
			if err != nil {
				return out, fmt.Errorf("step %d: %w", i, err)
			}
			if !st.Repeat || until(ans.doc, st.Until) {
				break
			}
		}
		out = append(out, ans)
	}
	return out, nil
}

// shows tells whether a value is at path in what a model is shown.
func shows(shown any, path string, val any) bool {
	want, ok := deps.ScalarKey(val)
	for _, v := range deps.Values(shown, path) {
		if k, kok := deps.ScalarKey(v); ok && kok && k == want {
			return true
		}
	}
	return false
}

func until(doc any, cond string) bool {
	for i := 0; i+4 <= len(cond); i++ {
		if cond[i:i+4] == " == " {
			for _, v := range deps.Values(doc, cond[:i]) {
				if s, ok := v.(string); ok && s == cond[i+4:] {
					return true
				}
			}
			return false
		}
	}
	return true
}

// step builds a gold step; binds are "param<-stepIndex" resolved to the
// annotated path from that step's API.
func (g *gen) step(api string, args map[string]any, binds ...any) dataset.GoldStep {
	st := dataset.GoldStep{API: api, Arguments: args}
	for i := 0; i+1 < len(binds); i += 2 {
		param := binds[i].(string)
		st.Bindings = mapSet(st.Bindings, param, dataset.Binding{Step: binds[i+1].(int)})
	}
	if ch, err := g.graph.ChainFor(api); err == nil {
		last := ch.Steps[len(ch.Steps)-1]
		st.Repeat, st.Until = last.Repeat, last.Until
	}
	return st
}

// resolve fills each binding's path from the annotated edge between the
// bound step's API and this one.
func (g *gen) resolve(steps []dataset.GoldStep) []dataset.GoldStep {
	for i := range steps {
		for p, b := range steps[i].Bindings {
			from := steps[b.Step].API
			found := false
			for _, e := range g.graph.Into(steps[i].API) {
				if e.From == from && e.Param == p {
					b.Path, found = e.Path, true
					break
				}
			}
			if !found {
				g.fail("no edge %s → %s (%s)", from, steps[i].API, p)
			}
			steps[i].Bindings[p] = b
		}
	}
	return steps
}

func mapSet[V any](m map[string]V, k string, v V) map[string]V {
	if m == nil {
		m = map[string]V{}
	}
	m[k] = v
	return m
}
