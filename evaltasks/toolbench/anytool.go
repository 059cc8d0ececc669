package toolbench

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/understudy/understudy/agent/anytool"
	"github.com/understudy/understudy/agent/solve"
	"github.com/understudy/understudy/toolset"
)

// SolverAnyTool is AnyTool (agent/anytool): the model's agents search the
// whole catalog for an API pool, the solver (Config.AnyToolSolver, DFSDT
// by default) works on the pool, and self-reflection widens it. The
// query's api_list is not offered: AnyTool finds its APIs itself.
const SolverAnyTool = "anytool"

// AnyToolSummary are a run's AnyTool figures: per-round pool sizes and
// pass rates (AnyTool's Figure 3), and the means per query of what the
// search spent.
type AnyToolSummary struct {
	Queries int `json:"queries"`
	// PassByRound is the revised pass rate had the run stopped after each
	// round (0 is the first search, then each reflection), over the
	// queries scored.
	PassByRound []float64 `json:"pass_by_round"`
	// MeanPoolByRound is the mean pool size the solver had at each round,
	// over the queries that reached it.
	MeanPoolByRound []float64 `json:"mean_pool_by_round"`
	ReachedRound    []int     `json:"reached_round"`
	MeanAgents      float64   `json:"mean_agents"`
	MeanReflections float64   `json:"mean_reflections"`
	MeanModelCalls  float64   `json:"mean_model_calls"`
	MeanPool        float64   `json:"mean_pool"`
	// PoolRecall is the mean share of a query's relevant APIs in its final pool.
	PoolRecall float64        `json:"pool_recall"`
	Functions  map[string]int `json:"functions"`
}

// newAnyTool is the AnyTool solver of a run.
func newAnyTool(cfg Config, c *toolset.Catalog, export map[string]toolset.OpenAITool, inner solve.Solver) *anytool.AnyTool {
	return &anytool.AnyTool{Agent: cfg.Agent, Catalog: c, Solver: inner, Export: export, Reflections: cfg.Reflections, Concurrency: cfg.AgentConcurrency, DateLine: cfg.DateLine}
}

// summariseAnyTool computes the AnyTool figures of the results.
func summariseAnyTool(keys []string, results map[string]*Result) *AnyToolSummary {
	s := &AnyToolSummary{Functions: map[string]int{}}
	var pass [][]bool
	var pools [][]int
	recall := 0.0
	for _, k := range keys {
		r := results[k]
		if r == nil || r.AnyTool == nil {
			continue
		}
		st := r.AnyTool
		s.Queries++
		s.MeanAgents += float64(st.Agents.Total())
		s.MeanReflections += float64(st.Reflections)
		s.MeanModelCalls += float64(st.ModelCalls)
		s.MeanPool += float64(len(st.Pool))
		for f, n := range st.Functions {
			s.Functions[f] += n
		}
		recall += poolRecall(st.Pool, r.Relevant)
		passed := r.Verdict != nil && r.Verdict.RevisedPass
		row := make([]bool, len(st.Rounds))
		if passed && len(row) > 0 {
			row[len(row)-1] = true
		}
		pass = append(pass, row)
		pools = append(pools, st.PoolSizes())
	}
	if s.Queries == 0 {
		return nil
	}
	n := float64(s.Queries)
	s.MeanAgents /= n
	s.MeanReflections /= n
	s.MeanModelCalls /= n
	s.MeanPool /= n
	s.PoolRecall = recall / n
	rounds := 0
	for _, p := range pools {
		rounds = max(rounds, len(p))
	}
	for i := range rounds {
		solved, reached, pool := 0, 0, 0
		for q, row := range pass {
			// A query solved at round j passes from j on.
			for j := 0; j <= i && j < len(row); j++ {
				if row[j] {
					solved++
					break
				}
			}
			if i < len(pools[q]) {
				reached++
				pool += pools[q][i]
			}
		}
		s.PassByRound = append(s.PassByRound, float64(solved)/n)
		s.ReachedRound = append(s.ReachedRound, reached)
		s.MeanPoolByRound = append(s.MeanPoolByRound, float64(pool)/float64(max(reached, 1)))
	}
	return s
}

// poolRecall is the share of relevant in pool.
func poolRecall(pool, relevant []string) float64 {
	if len(relevant) == 0 {
		return 0
	}
	hit := 0
	for _, r := range relevant {
		if slices.Contains(pool, r) {
			hit++
		}
	}
	return float64(hit) / float64(len(relevant))
}

// writeAnyTool prints the AnyTool figures under the table.
func (s *AnyToolSummary) write(w io.Writer) {
	if s == nil {
		return
	}
	fmt.Fprintf(w, "AnyTool: %d queries; per query %.1f agents, %.1f reflections, %.1f model calls, final pool %.1f APIs (recall of the relevant APIs %.2f)\n",
		s.Queries, s.MeanAgents, s.MeanReflections, s.MeanModelCalls, s.MeanPool, s.PoolRecall)
	fmt.Fprintf(w, "AnyTool rounds:")
	for i := range s.PassByRound {
		fmt.Fprintf(w, " [%d] pass %.2f pool %.1f (n=%d)", i, s.PassByRound[i], s.MeanPoolByRound[i], s.ReachedRound[i])
	}
	fmt.Fprintln(w)
	parts := make([]string, 0, len(s.Functions))
	for _, f := range slices.Sorted(maps.Keys(s.Functions)) {
		parts = append(parts, fmt.Sprintf("%s %d", f, s.Functions[f]))
	}
	fmt.Fprintf(w, "AnyTool functions called: %s\n", strings.Join(parts, ", "))
}

func (s *AnyToolSummary) markdown() []byte {
	if s == nil {
		return nil
	}
	var b bytes.Buffer
	b.WriteString("\n## AnyTool\n\n| Round | Revised pass rate | Mean pool | Queries reaching it |\n|---:|---:|---:|---:|\n")
	for i := range s.PassByRound {
		fmt.Fprintf(&b, "| %d | %.2f | %.1f | %d |\n", i, s.PassByRound[i], s.MeanPoolByRound[i], s.ReachedRound[i])
	}
	b.WriteString("\n")
	s.write(&b)
	return b.Bytes()
}

// solveAnyTool runs AnyTool on one query.
func solveAnyTool(ctx context.Context, at *anytool.AnyTool, p solve.Problem, res *Result) (*solve.Trace, error) {
	p.Tools = nil
	tr, st, err := at.Solve(ctx, p)
	res.AnyTool = st
	if st != nil {
		res.Offered = st.Pool
	}
	return tr, err
}
