package toolbench_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/agent"
	"github.com/understudy/understudy/agent/agenttest"
	"github.com/understudy/understudy/evaltasks/toolbench"
	"github.com/understudy/understudy/evaltasks/toolbench/tbtest"
	"github.com/understudy/understudy/internal/assemble"
	"github.com/understudy/understudy/internal/tbgen"
	"github.com/understudy/understudy/toolset"
	"github.com/understudy/understudy/toolset/loader"
)

// universe is the committed slice of the generated StableToolBench
// universe (internal/tbgen), loaded beside the built-in tools the way
// `evalrun -tools` loads a tree: its catalog and sandbox, queries and
// ground truth.
type universe struct {
	stack    *assemble.Stack
	queries  []toolbench.Query
	manifest *tbgen.Manifest
	truth    map[string]tbgen.QueryTruth
}

var sliceUniverse = sync.OnceValues(func() (*universe, error) { return loadUniverse(tbgen.SliceDir()) })

// loadUniverse loads a universe tbgen wrote into dir.
func loadUniverse(dir string) (*universe, error) {
	cat, err := loader.Load([]string{filepath.Join(dir, "tools")}, true)
	if err != nil {
		return nil, err
	}
	st, err := assemble.Build(assemble.Config{Catalog: cat})
	if err != nil {
		return nil, err
	}
	abs, err := filepath.Abs(filepath.Join(dir, "queries"))
	if err != nil {
		return nil, err
	}
	qs, err := toolbench.LoadQueries(os.DirFS("/"), strings.TrimPrefix(filepath.ToSlash(abs), "/"))
	if err != nil {
		return nil, err
	}
	m, err := tbgen.ReadManifest(dir)
	if err != nil {
		return nil, err
	}
	u := &universe{stack: st, queries: qs, manifest: m, truth: map[string]tbgen.QueryTruth{}}
	for _, t := range m.QueryTruth {
		u.truth[fmt.Sprintf("%s/%d", t.Group, t.ID)] = t
	}
	return u, nil
}

// truthCalls are the universe's truth calls by query key, as tbtest's
// TruthCalls takes them.
func (u *universe) truthCalls() map[string][]tbtest.TruthCall {
	truth := map[string][]tbtest.TruthCall{}
	for k, qt := range u.truth {
		for _, c := range qt.Calls {
			truth[k] = append(truth[k], tbtest.TruthCall{Category: c.Category, Tool: c.Tool, API: c.API, Arguments: c.Arguments, From: c.From})
		}
	}
	return truth
}

func mustUniverse(t *testing.T) *universe {
	t.Helper()
	u, err := sliceUniverse()
	require.NoError(t, err)
	return u
}

// skippedTools are the tools of the files the loader left out (a defect
// it does not repair), as category and standardized name, that no other
// file of the category provides.
func (u *universe) skippedTools(t *testing.T) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	for _, sk := range u.stack.Catalog.Skipped() {
		data, err := os.ReadFile(sk.File)
		if err != nil {
			continue
		}
		var tool struct {
			Name string `json:"tool_name"`
		}
		if json.Unmarshal(data, &tool) != nil || tool.Name == "" {
			continue
		}
		cat := filepath.Base(filepath.Dir(sk.File))
		if u.stack.Catalog.ToolIn(cat, tool.Name) == nil {
			out[toolset.Standardize(cat)+"/"+toolset.Standardize(tool.Name)] = true
		}
	}
	return out
}

// On the generated slice, every query resolves as its ground truth says:
// a query naming a relevant API the tree lacks (or a tool of a file the
// loader skipped) is unresolved with the truth's reason; one lacking only
// another api_list entry resolves without it; a tool name two categories
// hold resolves to the tool of the query's category.
func TestResolveGeneratedSlice(t *testing.T) {
	u := mustUniverse(t)
	skipped := u.skippedTools(t)
	rv := toolbench.NewResolver(u.stack.Catalog)
	twins, unresolved, partial := 0, 0, 0
	for i := range u.queries {
		q := &u.queries[i]
		truth, ok := u.truth[q.Key()]
		require.True(t, ok, q.Key())
		missing := map[string]string{} // tool/api → reason
		relevantMissing := map[string]bool{}
		for _, m := range truth.Missing {
			missing[m.Tool+"/"+m.API] = m.Reason
			relevantMissing[m.Tool+"/"+m.API] = m.Relevant
		}
		for _, e := range q.APIs {
			if skipped[toolset.Standardize(e.Category)+"/"+toolset.Standardize(e.Tool)] {
				key := e.Tool + "/" + e.API
				missing[key] = toolbench.ReasonToolAbsent
				relevantMissing[key] = relevantMissing[key] || isRelevant(q, e)
			}
		}
		wantReason := ""
		for k, rel := range relevantMissing {
			if rel && (wantReason == "" || missing[k] == toolbench.ReasonToolAbsent) {
				wantReason = missing[k]
			}
		}
		r, err := rv.Resolve(q)
		if wantReason != "" {
			var ue *toolbench.UnresolvedError
			require.ErrorAs(t, err, &ue, q.Key())
			require.Equal(t, wantReason, ue.Reason(), "%s: %v", q.Key(), err)
			unresolved++
			continue
		}
		require.NoError(t, err, q.Key())
		var absent []string
		for _, a := range r.Absent {
			require.False(t, a.Relevant, q.Key())
			absent = append(absent, a.Ref.Tool+"/"+a.Ref.API)
			reason := missing[a.Ref.Tool+"/"+a.Ref.API]
			if reason == "" {
				reason = missing[a.Ref.Tool+"/"]
			}
			require.Equal(t, reason, a.Reason, "%s: %s: %s", q.Key(), a.Ref, a.Detail)
		}
		require.Len(t, absent, len(missing), "%s: absent %v, truth %v", q.Key(), absent, truth.Missing)
		if len(absent) > 0 {
			partial++
		}
		// Every resolved API is of the category the query names for it.
		for _, e := range q.APIs {
			for _, a := range append(r.Relevant, r.Offered...) {
				if toolset.Standardize(a.Tool.Name) == toolset.Standardize(e.Tool) || toolset.Standardize(a.Tool.Title) == toolset.Standardize(e.Tool) {
					if a.Name == e.API {
						require.Equal(t, toolset.Standardize(e.Category), toolset.Standardize(a.Tool.Category), "%s: %s", q.Key(), e)
					}
				}
			}
		}
		for _, f := range truth.TwinTools {
			for _, a := range r.Relevant {
				if strings.HasSuffix(filepath.ToSlash(a.Tool.Source), "/"+f) {
					twins++
				}
			}
		}
	}
	require.Positive(t, twins, "some relevant tool is a category twin, resolved by its category")
	require.Positive(t, partial, "some query lacks only a non-relevant API and still resolves")
	require.GreaterOrEqual(t, unresolved, u.manifest.QueriesUnscorable-u.manifest.QueriesMissingOnlyOther)
}

func isRelevant(q *toolbench.Query, e toolbench.APIRef) bool {
	for _, r := range q.Relevant {
		if toolset.Standardize(r.Tool) == toolset.Standardize(e.Tool) && r.API == e.API {
			return true
		}
	}
	return false
}

// A tool is its category and its name: a name found only in another
// category is absent (never that other tool), any of ToolBench's
// spellings of a name finds it, and a relevant API takes its category
// from the api_list entry that names it.
func TestResolveByCategory(t *testing.T) {
	st := mustStack(t)
	rv := toolbench.NewResolver(st.Catalog)
	for _, tc := range []struct {
		name, rec, err, reason string
		want                   []string
	}{
		{"title and API name", `{"api_list": [{"category_name": "Weather", "tool_name": "WeatherAPI.com", "api_name": "realtime_weather_api"}], "relevant APIs": [["WeatherAPI.com", "realtime_weather_api"]]}`, "", "", []string{"weatherapi_com.realtime_weather_api"}},
		{"standardized names", `{"api_list": [{"category_name": "Weather", "tool_name": "weatherapi_com", "api_name": "Realtime Weather API"}], "relevant APIs": [["weatherapi_com", "Realtime Weather API"]]}`, "", "", []string{"weatherapi_com.realtime_weather_api"}},
		{"function name", `{"api_list": [{"category_name": "Weather", "tool_name": "WeatherAPI.com", "api_name": "realtime_weather_api_for_weatherapi_com"}], "relevant APIs": [["WeatherAPI.com", "realtime_weather_api_for_weatherapi_com"]]}`, "", "", []string{"weatherapi_com.realtime_weather_api"}},
		{"no category", `{"relevant APIs": [["WeatherAPI.com", "realtime_weather_api"]]}`, "", "", []string{"weatherapi_com.realtime_weather_api"}},
		{"another category's tool", `{"api_list": [{"category_name": "Finance", "tool_name": "WeatherAPI.com", "api_name": "realtime_weather_api"}], "relevant APIs": [["WeatherAPI.com", "realtime_weather_api"]]}`,
			`no tool "WeatherAPI.com" in category Finance (Weather has one of that name`, toolbench.ReasonToolAbsent, nil},
		{"absent API", `{"api_list": [{"category_name": "Weather", "tool_name": "WeatherAPI.com", "api_name": "history"}], "relevant APIs": [["WeatherAPI.com", "history"]]}`,
			`has no API "history"`, toolbench.ReasonAPIAbsent, nil},
		{"absent tool and API", `{"api_list": [{"category_name": "Weather", "tool_name": "Nope", "api_name": "x"}, {"category_name": "Weather", "tool_name": "WeatherAPI.com", "api_name": "history"}], "relevant APIs": [["Nope", "x"], ["WeatherAPI.com", "history"]]}`,
			`no tool "Nope" in category Weather, nor in any other`, toolbench.ReasonToolAbsent, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			qs, err := toolbench.ParseQueries([]byte(`[{"query_id": 1, "query": "q", `+tc.rec[1:]+`]`), "G1_query.json")
			require.NoError(t, err)
			r, err := rv.Resolve(&qs[0])
			if tc.err != "" {
				var ue *toolbench.UnresolvedError
				require.ErrorAs(t, err, &ue)
				require.Contains(t, err.Error(), tc.err)
				require.Equal(t, tc.reason, ue.Reason())
				return
			}
			require.NoError(t, err)
			require.Equal(t, tc.want, r.RelevantIDs())
		})
	}
}

// The rule verdict credits what an API found, never what the agent handed
// it: an agent that makes the right calls with values of its own ("test",
// 100, true) and answers with what the responses echo of them and their
// status words ("Here is what I found: test; success; 100") solves
// nothing, on the shipped queries and on the generated slice, while an
// agent making the same calls and quoting the responses' own fields
// solves every query whose responses hold one.
func TestEchoesAreNoEvidence(t *testing.T) {
	st := mustStack(t)
	shippedQs := shipped(t)
	u := mustUniverse(t)
	truth := u.truthCalls()
	for _, tc := range []struct {
		name   string
		stack  *assemble.Stack
		qs     []toolbench.Query
		call   tbtest.Caller
		answer tbtest.Answerer
		echo   bool
	}{
		{"shipped/echoes", st, shippedQs, tbtest.Inventing(tbtest.AnnotatedCalls(st.Catalog)), tbtest.QuoteEchoes, true},
		{"shipped/fields", st, shippedQs, tbtest.AnnotatedCalls(st.Catalog), tbtest.QuoteFields, false},
		{"slice/echoes", u.stack, u.queries, tbtest.Inventing(tbtest.TruthCalls(u.stack.Catalog, truth)), tbtest.QuoteEchoes, true},
		{"slice/fields", u.stack, u.queries, tbtest.TruthCalls(u.stack.Catalog, truth), tbtest.QuoteFields, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := agenttest.NewPolicyServer(t, tbtest.Agent(tc.qs, tc.call, tc.answer))
			dir := t.TempDir()
			rep, err := toolbench.Run(context.Background(), toolbench.Config{Queries: tc.qs, Agent: client(t, srv.URL()), AgentName: "scripted",
				Solver: toolbench.SolverReAct, Stack: tc.stack, OutDir: dir})
			require.NoError(t, err)
			require.Zero(t, rep.Overall.Errors)
			results := readResults(t, dir)
			answered, solved, grounding := 0, 0, 0
			for _, res := range results {
				if res.Outcome == toolbench.OutcomeUnresolved {
					continue
				}
				require.NotNil(t, res.Verdict, res.Key)
				if res.Outcome != "answer" {
					continue
				}
				answered++
				if res.Verdict.Solved {
					solved++
				}
				if len(res.Verdict.Missing) == 0 {
					grounding++
					if tc.echo {
						require.False(t, res.Verdict.Grounded, "%s: %q credited: %s", res.Key, res.Answer, res.Verdict.Reason)
					} else {
						require.True(t, res.Verdict.Solved, "%s: %q: %s", res.Key, res.Answer, res.Verdict.Reason)
					}
				}
			}
			scored := rep.Overall.Scored
			t.Logf("%s: %d scored, %d answered, %d with every relevant API called, %d solved", tc.name, scored, answered, grounding, solved)
			if tc.echo {
				require.Zero(t, solved)
				require.Zero(t, rep.Overall.PassRate)
				require.Equal(t, scored, answered, "the echoing agent always answers")
				require.GreaterOrEqual(t, grounding*10, scored*7, "most echo answers fail for their evidence alone, every relevant API called")
			} else {
				require.GreaterOrEqual(t, solved*10, scored*7, "most queries' responses hold a field worth quoting")
			}
		})
	}
}

func readResults(t *testing.T, dir string) []toolbench.Result {
	t.Helper()
	f, err := os.ReadFile(filepath.Join(dir, "results.jsonl"))
	require.NoError(t, err)
	var out []toolbench.Result
	for _, line := range strings.Split(strings.TrimSpace(string(f)), "\n") {
		var r toolbench.Result
		require.NoError(t, json.Unmarshal([]byte(line), &r))
		out = append(out, r)
	}
	return out
}

// A run over the generated slice reports the queries it cannot serve
// apart from the pass rates, by reason, in report.json, report.md and
// the printed table; they are never sent to the model, and every rate is
// over the queries it can serve.
func TestUnresolvedQueriesReportedApart(t *testing.T) {
	u := mustUniverse(t)
	rv := toolbench.NewResolver(u.stack.Catalog)
	reasons := map[string]int{}
	for i := range u.queries {
		var ue *toolbench.UnresolvedError
		if _, err := rv.Resolve(&u.queries[i]); errors.As(err, &ue) {
			reasons[ue.Reason()]++
		}
	}
	require.NotEmpty(t, reasons[toolbench.ReasonToolAbsent])
	require.NotEmpty(t, reasons[toolbench.ReasonAPIAbsent])
	unresolved := reasons[toolbench.ReasonToolAbsent] + reasons[toolbench.ReasonAPIAbsent]

	srv := agenttest.NewPolicyServer(t, tbtest.Agent(u.queries, tbtest.Inventing(tbtest.AnnotatedCalls(u.stack.Catalog)), tbtest.QuoteEchoes))
	dir := t.TempDir()
	rep, err := toolbench.Run(context.Background(), toolbench.Config{Queries: u.queries, Agent: client(t, srv.URL()), AgentName: "scripted",
		Solver: toolbench.SolverReAct, Stack: u.stack, OutDir: dir})
	require.NoError(t, err)
	o := rep.Overall
	require.Equal(t, len(u.queries), o.Planned)
	require.Equal(t, unresolved, o.Unresolved)
	require.Equal(t, reasons, o.UnresolvedReasons)
	require.Equal(t, o.Planned-o.Unresolved, o.Scored)
	require.Positive(t, o.MissingOther)
	require.Len(t, rep.Unresolved, unresolved)
	require.Equal(t, o.Scored, o.Outcomes["answer"], "every scored query was run; no unresolved one was")
	for _, q := range rep.Unresolved {
		require.Contains(t, []string{toolbench.ReasonToolAbsent, toolbench.ReasonAPIAbsent}, q.Reason)
		require.NotEmpty(t, q.Detail, q.Key)
	}
	sum := 0
	for _, g := range rep.Groups {
		sum += g.Unresolved
		require.Equal(t, g.Planned-g.Unresolved, g.Scored, g.Group)
	}
	require.Equal(t, unresolved, sum)

	md, err := os.ReadFile(filepath.Join(dir, "report.md"))
	require.NoError(t, err)
	require.Contains(t, string(md), "## Unresolved queries")
	require.Contains(t, string(md), rep.Unresolved[0].Key)
	require.Contains(t, string(md), fmt.Sprintf("%d of %d queries are unresolved", unresolved, o.Planned))
	var table strings.Builder
	require.NoError(t, rep.WriteTable(&table))
	require.Contains(t, table.String(), "unresolved")
	require.Contains(t, table.String(), fmt.Sprintf("%d of %d queries are unresolved (API absent %d, tool absent %d)", unresolved, o.Planned,
		reasons[toolbench.ReasonAPIAbsent], reasons[toolbench.ReasonToolAbsent]))
	for _, res := range readResults(t, dir) {
		if res.Outcome == toolbench.OutcomeUnresolved {
			require.Nil(t, res.Trajectory, res.Key)
			require.NotEmpty(t, res.Absent, res.Key)
		}
	}
}

// -sample keeps at most n queries, the same ones for the same seed, each
// query file keeping its share; a run records the sample in run.json and
// its report, and a resumed run must ask for the same one.
func TestSample(t *testing.T) {
	u := mustUniverse(t)
	all := u.queries
	groups := map[string]int{}
	for _, q := range all {
		groups[q.Group]++
	}
	keys := func(qs []toolbench.Query) []string {
		var out []string
		for _, q := range qs {
			out = append(out, q.Key())
		}
		return out
	}
	for _, n := range []int{6, 12, 30} {
		s := toolbench.Sample(all, n, 7)
		require.Len(t, s, n)
		require.Equal(t, keys(s), keys(toolbench.Sample(all, n, 7)), "the seed decides")
		require.NotEqual(t, keys(s), keys(toolbench.Sample(all, n, 8)), "another seed, another sample")
		got := map[string]int{}
		for _, q := range s {
			got[q.Group]++
		}
		for g, size := range groups {
			share := float64(size) * float64(n) / float64(len(all))
			require.InDelta(t, share, got[g], 1, "%s keeps its share of %d", g, n)
		}
	}
	require.Len(t, toolbench.Sample(all, 0, 7), len(all))
	require.Len(t, toolbench.Sample(all, len(all)+5, 7), len(all))

	srv := agenttest.NewPolicyServer(t, tbtest.GiveUp)
	dir := t.TempDir()
	cfg := toolbench.Config{Queries: all, Sample: 12, Seed: 3, Agent: client(t, srv.URL()), Solver: toolbench.SolverReAct, Stack: u.stack, OutDir: dir}
	rep, err := toolbench.Run(context.Background(), cfg)
	require.NoError(t, err)
	require.Equal(t, 12, rep.Overall.Planned)
	require.Equal(t, 12, rep.Sample)
	require.Equal(t, uint64(3), rep.Seed)
	manifest, err := os.ReadFile(filepath.Join(dir, "run.json"))
	require.NoError(t, err)
	require.Contains(t, string(manifest), `"sample": 12`)
	require.Contains(t, string(manifest), `"seed": 3`)
	require.Len(t, readResults(t, dir), 12)
	var table strings.Builder
	require.NoError(t, rep.WriteTable(&table))
	require.Contains(t, table.String(), "A sample of 12 of the queries (-sample 12 -seed 3)")

	cfg.Resume, cfg.Seed = true, 4
	_, err = toolbench.Run(context.Background(), cfg)
	require.ErrorContains(t, err, "seed")
}

// A query naming a category twin (a tool whose name a tool of another
// category has too, which the catalog calls "<name>_for_<category>") is
// offered its functions under ToolBench's own names, "<api>_for_<tool>"
// with the tool's name as the query's api_list writes it, and a call
// under such a name runs the API of the tool of the query's category.
func TestTwinsOfferedUnderToolBenchNames(t *testing.T) {
	// A universe where twins are common: the committed slice has few
	// queries naming the twin the catalog renames.
	rates := tbgen.DefaultRates()
	rates.CategoryTwin, rates.QueryCategoryTwin, rates.QueryMissingRelevant, rates.QueryMissingOther = 0.1, 0.9, 0, 0
	dir, _ := tbgen.WriteTB(t, tbgen.Options{Seed: 5, Tools: 300, Queries: []int{8, 8, 8, 8, 8, 8}, Rates: &rates, Compact: true})
	u, err := loadUniverse(dir)
	require.NoError(t, err)
	c := u.stack.Catalog
	twinFiles := map[string]bool{}
	var qs []toolbench.Query
	for _, q := range u.queries {
		if tr := u.truth[q.Key()]; tr.Scorable && len(tr.TwinTools) > 0 {
			qs = append(qs, q)
			for _, f := range tr.TwinTools {
				twinFiles[f] = true
			}
		}
	}
	require.NotEmpty(t, qs, "the universe has queries naming twins")
	isTwin := func(source string) bool {
		for f := range twinFiles {
			if strings.HasSuffix(filepath.ToSlash(source), "/"+f) {
				return true
			}
		}
		return false
	}
	var mu sync.Mutex
	offered := map[string][]string{} // query text → function names offered
	inner := tbtest.Agent(qs, tbtest.TruthCalls(c, u.truthCalls()), tbtest.QuoteFields)
	srv := agenttest.NewPolicyServer(t, func(req agenttest.ChatRequest) (agenttest.Turn, error) {
		for _, m := range req.Messages {
			if m.Role == "user" {
				mu.Lock()
				for _, f := range req.Tools {
					offered[m.Content] = append(offered[m.Content], f.Function.Name)
				}
				mu.Unlock()
				break
			}
		}
		return inner(req)
	})
	out := t.TempDir()
	_, err = toolbench.Run(context.Background(), toolbench.Config{Queries: qs, Agent: client(t, srv.URL()), AgentName: "scripted",
		Solver: toolbench.SolverReAct, Stack: u.stack, OutDir: out})
	require.NoError(t, err)
	byKey := map[string]toolbench.Result{}
	for _, r := range readResults(t, out) {
		byKey[r.Key] = r
	}
	renamed, called := 0, 0
	for _, q := range qs {
		res := byKey[q.Key()]
		if res.Outcome == toolbench.OutcomeUnresolved {
			continue
		}
		names := offered[q.Text]
		for _, e := range q.APIs {
			a := c.ToolIn(e.Category, e.Tool)
			if a == nil || !isTwin(a.Source) || a.API(e.API) == nil {
				continue
			}
			api := a.API(e.API)
			// ToolBench's name, formed from the api_list entry alone.
			want := toolset.StandardizeAPIName(api.Name) + "_for_" + toolset.Standardize(e.Tool)
			if len(want) > toolset.MaxAPINameLen {
				want = want[len(want)-toolset.MaxAPINameLen:]
			}
			require.Contains(t, names, want, "%s: %s/%s offered as ToolBench names it", q.Key(), e.Category, e.Tool)
			isRenamed := toolset.ExportName(api, toolset.NameToolBench) != want
			if isRenamed {
				renamed++
				require.NotContains(t, names, toolset.ExportName(api, toolset.NameToolBench), q.Key())
			}
			for _, call := range res.Trajectory.Calls() {
				if call.Function != want {
					continue
				}
				require.NotEqual(t, agent.ErrUnknownFunction, call.ErrorKind, "%s: %s", q.Key(), call.Error)
				if call.API == "" {
					// Refused before it ran (an argument a failed handoff
					// left out): by this API's own checks.
					require.Contains(t, call.Error, api.ID(), q.Key())
					continue
				}
				require.Equal(t, api.ID(), call.API, "%s: %s runs the tool of category %s", q.Key(), want, e.Category)
				if call.OK() && isRenamed {
					called++
				}
			}
		}
	}
	t.Logf("%d queries name twins: %d offered functions renamed from the catalog's names, %d successful calls under those names", len(qs), renamed, called)
	require.Positive(t, renamed, "some twin is the one the catalog renames")
	require.Positive(t, called, "some call runs a renamed twin by ToolBench's name")
}
