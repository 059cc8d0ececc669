package evaltasks

import (
	"strings"

	"github.com/understudy/understudy/agent"
	"github.com/understudy/understudy/evaltasks/claims"
	"github.com/understudy/understudy/evaltasks/clarify"
	"github.com/understudy/understudy/evaltasks/dataset"
	"github.com/understudy/understudy/toolset"
)

// oracleScript is what the oracle answers for an instance, from the gold
// annotations alone.
func (ev *evaluator) oracleScript(inst Instance) *agent.OracleScript {
	in := inst.In
	s := &agent.OracleScript{}
	goldStep := func() {
		if in.GoldCall == nil {
			return
		}
		if a := dataset.ResolveAPI(ev.cat, in.GoldCall.API); a != nil {
			s.Steps = []agent.OracleStep{{Name: toolset.ExportName(a, toolset.NameDotted), Arguments: in.GoldCall.FirstValues()}}
		}
	}
	switch inst.Task {
	case TaskDecide:
		if inst.Positive {
			goldStep()
		} else {
			s.Answer = in.ReferenceAnswer
		}
	case TaskSelect, TaskFill:
		goldStep()
	case TaskClarify:
		s.Answer = clarify.Gold(ev.cat, in)
	case TaskIntrinsic:
		s.Answer = in.ReferenceAnswer
		if claims.KeyPoints(in.Text, in.KeyPoints, s.Answer).Share < 1 {
			s.Answer += "\n\nIn short: " + strings.Join(in.KeyPoints, "; ") + "."
		}
	case TaskToolReturn:
		s.Answer = "Here is what the result says: " + strings.Join(in.ExpectedFacts, "; ") + "."
	case TaskChain:
		for _, st := range in.Chain {
			name := st.API
			if a := dataset.ResolveAPI(ev.cat, st.API); a != nil {
				name = toolset.ExportName(a, toolset.NameDotted)
			}
			// Task 7 runs in the solvers' loop, which shows a tool result
			// as {"error": ..., "response": ...}.
			os := agent.OracleStep{Name: name, Arguments: st.Arguments, Repeat: st.Repeat}
			if st.Until != "" {
				os.Until = observedPath(st.Until)
			}
			for param, b := range st.Bindings {
				if os.Bindings == nil {
					os.Bindings = map[string]agent.OracleSource{}
				}
				os.Bindings[param] = agent.OracleSource{Step: b.Step, Path: observedPath(b.Path)}
			}
			s.Steps = append(s.Steps, os)
		}
		s.Answer = "Done: every step of the request has been carried out."
	case TaskPlan:
		s.Answer = ev.plans().Gold(in)
	}
	return s
}
