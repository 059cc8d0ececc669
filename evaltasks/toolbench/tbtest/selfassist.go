package tbtest

import (
	"fmt"
	"strings"

	"github.com/understudy/understudy/agent/agenttest"
	"github.com/understudy/understudy/agent/selfassist"
	"github.com/understudy/understudy/evaltasks/toolbench"
	"github.com/understudy/understudy/toolset"
)

// SelfAssistPath follows Self-Assist's intended path: its tool
// description is the documentation of the APIs the query needs, its
// candidate analyses restate each candidate's description, and its
// selection names the candidates that are the query's; the solver then
// makes the annotated calls.
func SelfAssistPath(c *toolset.Catalog, qs []toolbench.Query) Policy {
	solver := Solver(c, qs)
	return func(req agenttest.ChatRequest) (agenttest.Turn, error) {
		stage := selfassist.Stage(req.Messages[0].Content)
		if stage == "" {
			return solver(req)
		}
		q, err := query(req, qs)
		if err != nil {
			return agenttest.Turn{}, err
		}
		apis, err := gold(c, q)
		if err != nil {
			return agenttest.Turn{}, err
		}
		switch stage {
		case selfassist.StageAnalysis:
			return agenttest.Text(fmt.Sprintf("The user asks for %d things; each needs a tool that looks it up.", len(apis))), nil
		case selfassist.StageDescription:
			var parts []string
			for _, a := range apis {
				parts = append(parts, a.Tool.Name+" "+a.Name+": "+a.Description)
			}
			return agenttest.Text(strings.Join(parts, "\n")), nil
		case selfassist.StageCandidate:
			doc := req.Messages[len(req.Messages)-1].Content
			return agenttest.Text("This API " + firstLine(doc)), nil
		}
		// The selection: the candidates that are the query's, by number.
		list := req.Messages[len(req.Messages)-1].Content
		var picks []string
		for _, line := range strings.Split(list, "\n") {
			for _, a := range apis {
				if strings.HasPrefix(line, "[") && strings.Contains(line, "] "+a.ID()+":") {
					picks = append(picks, line[:strings.Index(line, "]")+1])
				}
			}
		}
		if len(picks) == 0 {
			return agenttest.Text("None"), nil
		}
		return agenttest.Text("I choose " + strings.Join(picks, ", ") + "."), nil
	}
}

func firstLine(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, `"description"`) {
			return strings.TrimSpace(l)
		}
	}
	return "does what its documentation says."
}
