package tbtest

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/understudy/understudy/agent"
	"github.com/understudy/understudy/agent/agenttest"
	"github.com/understudy/understudy/agent/anytool"
	"github.com/understudy/understudy/agent/solve"
	"github.com/understudy/understudy/evaltasks/toolbench"
	"github.com/understudy/understudy/toolset"
)

// AnyTool roles, told apart by the system prompt as a model reads it.
const (
	RoleMeta     = "meta"
	RoleCategory = "category"
	RoleTool     = "tool"
	RoleCheck    = "check"
	RoleSolver   = "solver"
)

// RoleOf says which of AnyTool's conversations a request belongs to.
func RoleOf(req agenttest.ChatRequest) (role, system string) {
	if len(req.Messages) == 0 {
		return RoleSolver, ""
	}
	sys := req.Messages[0].Content
	switch {
	case strings.Contains(sys, "organised into these categories"):
		return RoleMeta, sys
	case strings.Contains(sys, "You are an API search agent for the category"):
		return RoleCategory, sys
	case strings.Contains(sys, "You are an API search agent for the tools"):
		return RoleTool, sys
	case strings.Contains(sys, "You judge whether a set of APIs is enough"):
		return RoleCheck, sys
	}
	return RoleSolver, sys
}

// calledSoFar lists the functions the conversation has called, in order.
func calledSoFar(req agenttest.ChatRequest) []string {
	var out []string
	for _, m := range req.Messages {
		for _, tc := range m.ToolCalls {
			out = append(out, tc.Function.Name)
		}
	}
	return out
}

// reactivated tells whether a reflection note reached the conversation.
func reactivated(req agenttest.ChatRequest) bool {
	for _, m := range req.Messages[1:] {
		if m.Role == agent.RoleUser && strings.HasPrefix(m.Content, "The APIs found so far did not solve the query") {
			return true
		}
	}
	return false
}

func call(name string, args any) agenttest.Turn {
	b, _ := json.Marshal(args)
	return agenttest.Tool(name, string(b))
}

// gold are the APIs a query's intended path pools: its relevant APIs and
// those its annotated calls use.
func gold(c *toolset.Catalog, q *toolbench.Query) ([]*toolset.API, error) {
	rv := toolbench.NewResolver(c)
	var out []*toolset.API
	refs := slices.Clone(q.Relevant)
	for _, cl := range q.Calls {
		refs = append(refs, toolbench.APIRef{Tool: cl.Tool, API: cl.API})
	}
	for _, ref := range refs {
		a, err := rv.Find(ref)
		if err != nil {
			return nil, fmt.Errorf("query %s: %w", q.ID, err)
		}
		if !slices.Contains(out, a) {
			out = append(out, a)
		}
	}
	return out, nil
}

// AnyToolPath follows AnyTool's intended path: the meta-agent hands each
// category of the query's APIs to an agent, each category agent hands
// their tools to a tool agent, each tool agent pools their APIs and checks
// the pool (found enough), and the solver makes the annotated calls.
// With decoys set, a tool agent first pools its tools' other APIs and the
// solver gives up naming them while the query's own are missing; the
// reflection note sends the tool agent back for the right ones.
func AnyToolPath(c *toolset.Catalog, qs []toolbench.Query, decoys bool) Policy {
	return AnyToolPathWith(c, qs, decoys, Solver(c, qs))
}

// AnyToolPathWith is AnyToolPath whose solver, once every needed function
// is offered, is solver: for trees whose queries carry no x-calls, an
// Agent making the generator's truth calls.
func AnyToolPathWith(c *toolset.Catalog, qs []toolbench.Query, decoys bool, solver Policy) Policy {
	return func(req agenttest.ChatRequest) (agenttest.Turn, error) {
		role, sys := RoleOf(req)
		q, err := query(req, qs)
		if err != nil {
			return agenttest.Turn{}, err
		}
		apis, err := gold(c, q)
		if err != nil {
			return agenttest.Turn{}, err
		}
		done := calledSoFar(req)
		switch role {
		case RoleMeta:
			var cats []string
			for _, a := range apis {
				if !slices.Contains(cats, a.Tool.Category) {
					cats = append(cats, a.Tool.Category)
				}
			}
			if len(done) == 0 {
				return call(anytool.FnToolsInCategory, map[string]any{"category": cats[0]}), nil
			}
			if n := len(done) - 1; n < len(cats) {
				return call(anytool.FnCreateCategory, map[string]any{"category": cats[n]}), nil
			}
			return call(anytool.FnFinishSearch, map[string]any{}), nil
		case RoleCategory:
			if len(done) > 0 {
				return call(anytool.FnFinishSearch, map[string]any{}), nil
			}
			var tools []string
			for _, a := range apis {
				if strings.Contains(sys, "'"+a.Tool.Category+"'") && !slices.Contains(tools, a.Tool.Name) {
					tools = append(tools, a.Tool.Name)
				}
			}
			return call(anytool.FnCreateTool, map[string]any{"tools": tools}), nil
		case RoleTool:
			var mine, other []string
			var first string
			for _, a := range apis {
				if strings.Contains(sys, "'"+a.Tool.Name+"'") {
					mine = append(mine, a.Name)
					if first == "" {
						first = a.Tool.Name
					}
					for _, o := range a.Tool.APIs {
						if !slices.ContainsFunc(apis, func(g *toolset.API) bool { return g == o }) && !slices.Contains(other, o.Name) {
							other = append(other, o.Name)
						}
					}
				}
			}
			switch {
			case decoys && !reactivated(req):
				if len(done) == 0 {
					return call(anytool.FnAPIsInTool, map[string]any{"tool": first}), nil
				}
				if len(done) == 1 && len(other) > 0 {
					return call(anytool.FnAddAPIs, map[string]any{"apis": other[:1]}), nil
				}
				if !slices.Contains(done, anytool.FnCheckSolvable) {
					return call(anytool.FnCheckSolvable, map[string]any{}), nil
				}
				return agenttest.Text("Nothing more to add for now."), nil
			case !slices.Contains(done, anytool.FnAddAPIs) || decoys && lastNote(req):
				return call(anytool.FnAddAPIs, map[string]any{"apis": mine}), nil
			case done[len(done)-1] != anytool.FnCheckSolvable:
				return call(anytool.FnCheckSolvable, map[string]any{}), nil
			}
			return call(anytool.FnFinishSearch, map[string]any{}), nil
		case RoleCheck:
			// A careful judge: True only once every API the query needs is documented.
			last := req.Messages[len(req.Messages)-1].Content
			var docs []struct {
				Name string `json:"name"`
				Tool string `json:"tool"`
			}
			if err := json.Unmarshal([]byte(strings.TrimPrefix(last, "The APIs:\n")), &docs); err != nil {
				return agenttest.Turn{}, fmt.Errorf("check: %w", err)
			}
			for _, a := range apis {
				if !slices.ContainsFunc(docs, func(d struct {
					Name string `json:"name"`
					Tool string `json:"tool"`
				}) bool {
					return d.Name == a.Name && d.Tool == a.Tool.Name
				}) {
					return agenttest.Text("False. Nothing here does " + a.Name + "."), nil
				}
			}
			return agenttest.Text("True. The pooled APIs cover the query."), nil
		}
		// The solver: the annotated calls when their functions are offered,
		// else a give-up naming the functions that do not fit.
		var offered []string
		for _, t := range req.Tools {
			if t.Function.Name != agent.FinishName {
				offered = append(offered, t.Function.Name)
			}
		}
		var needed, unfit []string
		for _, a := range apis {
			needed = append(needed, toolset.ExportName(a, toolset.NameToolBench))
		}
		for _, f := range offered {
			if !slices.Contains(needed, f) {
				unfit = append(unfit, f)
			}
		}
		for _, f := range needed {
			if !slices.Contains(offered, f) {
				return Finish(solve.ReturnGiveUp, "No function offered does what the query needs; these do not fit: "+strings.Join(unfit, ", ")+"."), nil
			}
		}
		return solver(req)
	}
}

// lastNote tells whether the conversation's last message is a reflection note.
func lastNote(req agenttest.ChatRequest) bool {
	m := req.Messages[len(req.Messages)-1]
	return m.Role == agent.RoleUser && strings.HasPrefix(m.Content, "The APIs found so far did not solve the query")
}

// AnyToolGiveUp searches as AnyToolPath does but its solver always gives up.
func AnyToolGiveUp(c *toolset.Catalog, qs []toolbench.Query) Policy {
	path := AnyToolPath(c, qs, false)
	return func(req agenttest.ChatRequest) (agenttest.Turn, error) {
		if role, _ := RoleOf(req); role == RoleSolver {
			return Finish(solve.ReturnGiveUp, "I cannot do this."), nil
		}
		return path(req)
	}
}

// Nonsense answers every request with text unrelated to it: no agent
// calls a function, and the solver's answer says nothing of the query.
func Nonsense(agenttest.ChatRequest) (agenttest.Turn, error) {
	return agenttest.Text("Purple elephants hum quietly under the seventh moon."), nil
}
