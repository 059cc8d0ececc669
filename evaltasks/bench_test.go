package evaltasks

import (
	"context"
	"fmt"
	"testing"

	"github.com/understudy/understudy/agent"
	"github.com/understudy/understudy/evaltasks/dataset"
)

// BenchmarkScoreOracle10k evaluates 10,000 instances (the mini dataset's
// records repeated under new IDs, every task) with the oracle, in memory.
func BenchmarkScoreOracle10k(b *testing.B) {
	base := miniData(b)
	st := testStack(b)
	var ins []dataset.Instruction
	perCopy := len(Instances(base, []int{1, 2, 3, 4, 5, 6, 7, 8}))
	for i := 0; i*perCopy < 10000; i++ {
		for _, in := range base {
			in.ID = fmt.Sprintf("%s-%05d", in.ID, i)
			ins = append(ins, in)
		}
	}
	insts := Instances(ins, []int{1, 2, 3, 4, 5, 6, 7, 8})
	b.ReportMetric(float64(len(insts)), "instances")
	b.ResetTimer()
	for b.Loop() {
		rep, err := Run(context.Background(), Config{Agent: agent.Oracle{}, AgentName: "oracle", Instructions: ins, Stack: st, Concurrency: 2})
		if err != nil {
			b.Fatal(err)
		}
		if rep.Tasks[0].Metrics["f1"] != 1 {
			b.Fatal("the oracle must score 1")
		}
	}
}
