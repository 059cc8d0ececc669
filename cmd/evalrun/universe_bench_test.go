package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/understudy/understudy/internal/tbgen"
)

// TestMain lets the test binary stand in for the command, so that the
// benchmarks can measure it as a real subprocess.
func TestMain(m *testing.M) {
	if os.Getenv("UNDERSTUDY_EVALRUN_MAIN") == "1" {
		code := run(context.Background(), os.Args[1:], os.Stdout, os.Stderr, false)
		if path := os.Getenv("UNDERSTUDY_EVALRUN_HWM"); path != "" {
			// The process's own peak: the rusage of a child counts the
			// parent's memory it was forked from.
			if status, err := os.ReadFile("/proc/self/status"); err == nil {
				_ = os.WriteFile(path, status, 0o644)
			}
		}
		os.Exit(code)
	}
	os.Exit(m.Run())
}

// BenchmarkUniverseSuites measures `evalrun -suite toolbench|retrieval
// -tools <tree>` on the generated StableToolBench universe (12,301 tool
// files, 44,692 APIs; internal/tbgen) with one query, so that the run is
// its start-up (loading the tree, inferring its dependencies, building the
// sandbox and the retrieval index) and one query: wall and CPU seconds and
// peak resident memory of the process (VmHWM). The same runs without -tools (the
// built-in catalog) are the baseline.
//
//	go test ./cmd/evalrun -run '^$' -bench UniverseSuites -benchtime 1x -timeout 30m
func BenchmarkUniverseSuites(b *testing.B) {
	dir, _ := tbgen.WriteTB(b, tbgen.Options{})
	raw, err := os.ReadFile(filepath.Join(dir, "queries", "G1_instruction.json"))
	if err != nil {
		b.Fatal(err)
	}
	var qs []json.RawMessage
	if err := json.Unmarshal(raw, &qs); err != nil || len(qs) == 0 {
		b.Fatalf("G1 queries: %v (%d)", err, len(qs))
	}
	one := filepath.Join(b.TempDir(), "one.json")
	if err := os.WriteFile(one, []byte("["+string(qs[0])+"]"), 0o644); err != nil {
		b.Fatal(err)
	}
	for _, suite := range []struct {
		name string
		args []string
	}{
		{"toolbench", []string{"-suite", "toolbench", "-agent", "baseline"}},
		{"retrieval", []string{"-suite", "retrieval", "-retrievers", "bm25"}},
	} {
		for _, tree := range []struct {
			name string
			args []string
		}{
			{"builtin", nil},
			{"universe-12301-tools", []string{"-tools", filepath.Join(dir, "tools")}},
		} {
			b.Run(suite.name+"/"+tree.name, func(b *testing.B) {
				var wall time.Duration
				var cpu, peak float64
				for b.Loop() {
					args := append(append([]string{"-queries", one, "-quiet", "-allow-errors", "-out", b.TempDir(), "-overwrite"}, suite.args...), tree.args...)
					cmd := exec.Command(os.Args[0], args...)
					status := filepath.Join(b.TempDir(), "status")
					cmd.Env = append(os.Environ(), "UNDERSTUDY_EVALRUN_MAIN=1", "UNDERSTUDY_EVALRUN_HWM="+status)
					var stderr bytes.Buffer
					cmd.Stderr = &stderr
					start := time.Now()
					if err := cmd.Run(); err != nil {
						b.Fatalf("evalrun %v: %v: %s", args, err, stderr.String())
					}
					wall += time.Since(start)
					if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
						cpu += float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
					}
					peak += vmHWM(b, status)
				}
				n := float64(b.N)
				b.ReportMetric(wall.Seconds()/n, "wall-s")
				b.ReportMetric(cpu/n, "cpu-s")
				b.ReportMetric(peak/n, "peak-MB")
			})
		}
	}
}

// vmHWM reads the peak resident memory, in MB, from a copy of a process's
// /proc/self/status.
func vmHWM(b *testing.B, path string) float64 {
	b.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		b.Skipf("no /proc status: %v", err)
	}
	for _, line := range strings.Split(string(raw), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
			if err != nil {
				b.Fatalf("%s: %v", line, err)
			}
			return kb / 1024
		}
	}
	b.Fatal("no VmHWM in /proc status")
	return 0
}
