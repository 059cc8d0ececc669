package sandbox_test

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"github.com/understudy/understudy/fixtures"
	"github.com/understudy/understudy/internal/assemble"
	"github.com/understudy/understudy/sandbox"
)

// BenchmarkStandIns is every built-in stand-in's answer to its API's
// documented example (the calls fixtures/recordings holds) through the
// whole engine in fake mode: validation, dependency check, the stand-in,
// canonical encoding, provenance and trace. The examples run once first, in
// one session and in the recorded order, so that dependent calls find the
// IDs their producers minted.
//
//	go test ./sandbox -run '^$' -bench StandIns -benchmem
func BenchmarkStandIns(b *testing.B) {
	st, err := assemble.Build(assemble.Config{Mode: sandbox.ModeFake})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	idx, err := fixtures.FS.ReadFile("recordings/index.jsonl")
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	const session = "bench"
	var reqs []sandbox.Request
	for line := range bytes.Lines(idx) {
		var rec struct {
			Tool, API string
			Arguments map[string]any
		}
		if err := json.Unmarshal(line, &rec); err != nil {
			b.Fatal(err)
		}
		req := sandbox.Request{Tool: rec.Tool, API: rec.API, Arguments: rec.Arguments, Session: session}
		if _, err := st.Engine.Call(ctx, req); err != nil {
			b.Fatalf("%s.%s: %v", rec.Tool, rec.API, err)
		}
		reqs = append(reqs, req)
	}
	for _, req := range reqs {
		b.Run(req.Tool+"."+req.API, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := st.Engine.Call(ctx, req); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
