// Package recgen records every built-in API's documented example from the stand-ins, the recordings shipped in fixtures/recordings that replay mode answers from out of the box.
package recgen

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/understudy/understudy/cache"
	"github.com/understudy/understudy/deps"
	"github.com/understudy/understudy/internal/assemble"
	"github.com/understudy/understudy/internal/clock"
	"github.com/understudy/understudy/sandbox"
	"github.com/understudy/understudy/toolset"
)

// Source marks every generated entry: the answer is a stand-in's, not a
// real API's (cache.Entry.Source documents "mock" for that).
const Source = "mock"

// Session is the one sandbox session the example chain runs in, so that
// an opaque ID a dependent API documents is one an earlier call minted.
const Session = "recorded-examples"

// Call is one recorded example.
type Call struct {
	Tool, API string
	Arguments map[string]any
	// Status is the status the stand-in must answer with; 0 means any 2xx.
	Status int
}

// ReadmeCalls are the calls the README and docs/toolserver.md show
// besides the documented defaults, so that its examples answer in replay mode too.
var ReadmeCalls = []Call{
	{Tool: "skyscanner80", API: "flights_auto_complete", Arguments: map[string]any{"query": "Lisbon"}},
	{Tool: "iso_codes", API: "country_by_code", Arguments: map[string]any{"code": "ZZ"}, Status: 404},
}

// Examples lists every API of cat with its documented arguments (see
// documented), producers before the APIs
// whose parameters depend on them, after ReadmeCalls (whose answers
// supply IDs too, see Minted). Ties keep the
// catalog's order, so the list is the same on every run.
func Examples(cat *toolset.Catalog) ([]Call, error) {
	apis := cat.APIs()
	done := map[*toolset.API]bool{}
	var out []Call
	for len(done) < len(apis) {
		progress := false
		for _, a := range apis {
			if done[a] || !producersDone(cat, a, done) {
				continue
			}
			done[a] = true
			progress = true
			out = append(out, Call{Tool: a.Tool.StandardizedName, API: a.Name, Arguments: documented(a)})
		}
		if !progress {
			var left []string
			for _, a := range apis {
				if !done[a] {
					left = append(left, a.ID())
				}
			}
			return nil, fmt.Errorf("recgen: dependency cycle among %s", strings.Join(left, ", "))
		}
	}
	return append(slices.Clone(ReadmeCalls), out...), nil
}

// documented is the call a's documentation suggests: the examples given as
// required parameters' defaults. Optional parameters are left out, since
// validation fills in their defaults and keys the call the same either way.
func documented(a *toolset.API) map[string]any {
	args := map[string]any{}
	for _, p := range a.Params {
		if p.Required && p.Default != nil {
			args[p.Name] = p.Default
		}
	}
	return args
}

// producersDone reports whether every API a's parameters depend on is
// already in the list (a dependency on itself or outside cat is ignored).
func producersDone(cat *toolset.Catalog, a *toolset.API, done map[*toolset.API]bool) bool {
	for _, p := range a.Params {
		for _, d := range p.Depends {
			tool := d.Tool
			if tool == "" {
				tool = a.Tool.StandardizedName
			}
			if src := cat.API(tool, d.API); src != nil && src != a && !done[src] {
				return false
			}
		}
	}
	return true
}

// FailedError says that an example did not run as documented: the engine
// refused it (a documented opaque ID no earlier example minted) or the
// stand-in failed.
type FailedError struct {
	Call   Call
	Status int
	Body   string
	Err    error
}

func (e *FailedError) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("recgen: %s.%s: %v", e.Call.Tool, e.Call.API, e.Err)
	}
	return fmt.Sprintf("recgen: %s.%s was refused (%d %s)", e.Call.Tool, e.Call.API, e.Status, e.Body)
}

func (e *FailedError) Unwrap() error { return e.Err }

// Generate runs the examples against the built-in stand-ins on the frozen
// clock and writes them to dir in the store's layout (<ab>/<hash>.json and
// index.jsonl), replacing the recordings there; other files (a README)
// are left alone. It returns how many entries were written. The output is
// the same bytes on every run.
func Generate(dir string) (int, error) {
	st, err := assemble.Build(assemble.Config{Mode: sandbox.ModeFake, Clock: clock.Frozen()})
	if err != nil {
		return 0, err
	}
	defer st.Close()
	calls, err := Examples(st.Catalog)
	if err != nil {
		return 0, err
	}
	tmp, err := os.MkdirTemp("", "understudy-recgen-")
	if err != nil {
		return 0, fmt.Errorf("recgen: %w", err)
	}
	defer os.RemoveAll(tmp)
	store, err := cache.Open(tmp, cache.Options{Clock: clock.Frozen(), Strict: true})
	if err != nil {
		return 0, err
	}
	n := 0
	seen := map[string]bool{}
	answers := map[*toolset.API][]any{} // decoded successful answers so far
	for _, c := range calls {
		api := st.Catalog.API(c.Tool, c.API)
		if api == nil {
			store.Close()
			return 0, fmt.Errorf("recgen: no API %s.%s in the catalog", c.Tool, c.API)
		}
		c.Arguments = Minted(st.Catalog, api, c.Arguments, answers)
		res, err := st.Engine.CallAPI(context.Background(), api, c.Arguments, Session)
		if err != nil {
			store.Close()
			return 0, &FailedError{Call: c, Err: err}
		}
		ok := res.Status == c.Status || (c.Status == 0 && res.Status >= 200 && res.Status < 300)
		if res.Source == sandbox.SourceSandbox || !ok {
			store.Close()
			return 0, &FailedError{Call: c, Status: res.Status, Body: string(res.Response)}
		}
		if res.Status >= 200 && res.Status < 300 {
			var doc any
			if json.Unmarshal(res.Response, &doc) == nil {
				answers[api] = append(answers[api], doc)
			}
		}
		args, err := api.Validate(c.Arguments)
		if err != nil {
			store.Close()
			return 0, &FailedError{Call: c, Err: err}
		}
		k := cache.KeyOf(c.Tool, c.API, args)
		if seen[k.Hash()] {
			continue
		}
		seen[k.Hash()] = true
		if err := store.Put(k, cache.Entry{Tool: c.Tool, API: c.API, Arguments: []byte(k.Args()), Status: res.Status,
			Response: res.Response, Source: Source, RecordedAt: clock.Default}); err != nil {
			store.Close()
			return 0, err
		}
		n++
	}
	if err := store.Close(); err != nil {
		return 0, err
	}
	if err := replace(tmp, dir); err != nil {
		return 0, err
	}
	return n, nil
}

// Minted returns args with each opaque argument that no earlier answer
// holds replaced by the first value an earlier answer of a producer holds
// at the dependency's path: documentation examples of opaque IDs are often
// the real API's, which the stand-ins do not mint. An argument that is
// minted, or that has no earlier producer answer, is kept.
func Minted(cat *toolset.Catalog, a *toolset.API, args map[string]any, answers map[*toolset.API][]any) map[string]any {
	out := maps.Clone(args)
	for _, p := range a.Params {
		v, ok := out[p.Name]
		if !ok || !p.Opaque || len(p.Depends) == 0 {
			continue
		}
		var found []any
		for _, d := range p.Depends {
			tool := d.Tool
			if tool == "" {
				tool = a.Tool.StandardizedName
			}
			for _, doc := range answers[cat.API(tool, d.API)] {
				found = append(found, deps.Values(doc, d.Path)...)
			}
		}
		same := func(x any) func(any) bool { return func(y any) bool { return fmt.Sprint(x) == fmt.Sprint(y) } }
		if len(found) == 0 || slices.ContainsFunc(found, same(v)) {
			continue
		}
		// The first value no other argument holds: two IDs of a call
		// (from and to, say) stay different.
		for _, f := range found {
			if !slices.ContainsFunc(slices.Collect(maps.Values(out)), same(f)) {
				out[p.Name] = f
				break
			}
		}
	}
	return out
}

// replace swaps the recordings in dir (index.jsonl and the two-hex-digit
// shard folders) for those of src, leaving every other file of dir.
func replace(src, dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("recgen: %w", err)
	}
	old, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("recgen: %w", err)
	}
	for _, e := range old {
		if e.Name() == "index.jsonl" || (e.IsDir() && isShard(e.Name())) {
			if err := os.RemoveAll(filepath.Join(dir, e.Name())); err != nil {
				return fmt.Errorf("recgen: %w", err)
			}
		}
	}
	var names []string
	err = filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() || strings.HasPrefix(d.Name(), ".") {
			return nil
		}
		if rel != "index.jsonl" && !isShard(filepath.Dir(rel)) {
			return nil
		}
		names = append(names, rel)
		return nil
	})
	if err != nil {
		return fmt.Errorf("recgen: %w", err)
	}
	slices.Sort(names)
	for _, rel := range names {
		b, err := os.ReadFile(filepath.Join(src, rel))
		if err != nil {
			return fmt.Errorf("recgen: %w", err)
		}
		to := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			return fmt.Errorf("recgen: %w", err)
		}
		if err := os.WriteFile(to, b, 0o644); err != nil {
			return fmt.Errorf("recgen: %w", err)
		}
	}
	if len(names) == 0 {
		return errors.New("recgen: nothing was recorded")
	}
	return nil
}

// isShard reports whether name is a store's shard folder: two lowercase
// hex digits.
func isShard(name string) bool {
	return len(name) == 2 && strings.Trim(name, "0123456789abcdef") == ""
}
