package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/understudy/understudy/agent/agenttest"
	"github.com/understudy/understudy/evaltasks/toolbench"
	"github.com/understudy/understudy/evaltasks/toolbench/tbtest"
	"github.com/understudy/understudy/internal/tbgen"
	"github.com/understudy/understudy/toolset/loader"
)

// BenchmarkAnyToolUniverse runs `evalrun -suite toolbench -solver anytool`
// and `-suite retrieval -retrievers bm25,self-assist,anytool` on the
// generated StableToolBench-size tree (12,301 tool files) against the
// scripted intended-path model, a few queries per group: the methods'
// cost at full size, start-up included.
//
//	go test ./cmd/evalrun -run '^$' -bench AnyToolUniverse -benchtime 1x -timeout 30m
func BenchmarkAnyToolUniverse(b *testing.B) {
	dir, _ := tbgen.WriteTB(b, tbgen.Options{Queries: []int{1, 1, 1, 1, 1, 1}})
	tools, queries := filepath.Join(dir, "tools"), filepath.Join(dir, "queries")
	c, err := loader.Load([]string{tools}, true)
	if err != nil {
		b.Fatal(err)
	}
	qs, err := toolbench.LoadQueries(os.DirFS(dir), "queries")
	if err != nil {
		b.Fatal(err)
	}
	rv := toolbench.NewResolver(c)
	var servable []toolbench.Query
	for _, q := range qs {
		if _, err := rv.Resolve(&q); err == nil {
			servable = append(servable, q)
		}
	}
	path, sa := tbtest.AnyToolPath(c, servable, true), tbtest.SelfAssistPath(c, servable)
	srv := agenttest.NewPolicyServer(b, func(req agenttest.ChatRequest) (agenttest.Turn, error) {
		if role, _ := tbtest.RoleOf(req); role != tbtest.RoleSolver {
			return path(req)
		}
		return sa(req)
	})
	for _, suite := range []struct {
		name string
		args []string
	}{
		{"toolbench-anytool", []string{"-suite", "toolbench", "-solver", "anytool", "-allow-errors"}},
		{"retrieval-models", []string{"-suite", "retrieval", "-retrievers", "bm25,self-assist,anytool"}},
	} {
		b.Run(suite.name, func(b *testing.B) {
			for b.Loop() {
				var out, errb bytes.Buffer
				args := append([]string{"-tools", tools, "-queries", queries, "-agent", "openai", "-base-url", srv.URL(), "-model", "scripted",
					"-out", b.TempDir(), "-quiet"}, suite.args...)
				if code := run(context.Background(), args, &out, &errb, false); code != exitOK {
					b.Fatalf("evalrun %v: exit %d: %s", args, code, errb.String())
				}
				b.Logf("\n%s", out.String())
			}
		})
	}
}
