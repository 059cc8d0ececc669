package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/understudy/understudy/internal/tbgen"
	"github.com/understudy/understudy/toolset"
	"github.com/understudy/understudy/toolset/loader"
)

// The StableToolBench universe benchmarks run the command as a real
// subprocess (the test binary standing in for it, see TestMain) on trees
// internal/tbgen generates with the real tree's shape: 12,301 tool files
// and 44,692 APIs at full size.
//
//	go test ./cmd/toolserver -run '^$' -bench 'Universe' -benchtime 1x -timeout 30m

// universeServer is one running `toolserver -addr 127.0.0.1:0 ...`.
type universeServer struct {
	cmd   *exec.Cmd
	url   string
	ready time.Duration // from start to the URL on stdout
}

func startUniverseServer(b *testing.B, args ...string) *universeServer {
	b.Helper()
	cmd := exec.Command(os.Args[0], append([]string{"-addr", "127.0.0.1:0"}, args...)...)
	cmd.Env = append(os.Environ(), "UNDERSTUDY_TOOLSERVER_MAIN=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	start := time.Now()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		if cmd.ProcessState == nil { // a benchmark that failed before stop
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
	})
	line, err := bufio.NewReader(out).ReadString('\n')
	ready := time.Since(start)
	if err != nil {
		_ = cmd.Wait()
		b.Fatalf("toolserver %v: %v: %s", args, err, stderr.String())
	}
	go func() { _, _ = io.Copy(io.Discard, out) }()
	return &universeServer{cmd: cmd, url: strings.TrimSpace(line), ready: ready}
}

// status reads a field of /proc/<pid>/status in MB (VmRSS: resident now;
// VmHWM: the peak).
func (s *universeServer) status(b *testing.B, field string) float64 {
	b.Helper()
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", s.cmd.Process.Pid))
	if err != nil {
		b.Skipf("no /proc: %v", err)
	}
	for _, line := range strings.Split(string(raw), "\n") {
		if rest, ok := strings.CutPrefix(line, field+":"); ok {
			kb, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
			if err != nil {
				b.Fatalf("%s: %v", line, err)
			}
			return kb / 1024
		}
	}
	b.Fatalf("no %s in /proc status", field)
	return 0
}

// stop interrupts the server and returns the CPU seconds it used.
func (s *universeServer) stop(b *testing.B) float64 {
	b.Helper()
	_ = s.cmd.Process.Signal(os.Interrupt)
	done := make(chan error, 1)
	go func() { done <- s.cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		_ = s.cmd.Process.Kill()
		<-done
		b.Fatal("toolserver did not stop within 30 s of SIGINT")
	}
	ru, ok := s.cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}

// BenchmarkUniverseStart measures `toolserver -catalog <tree>` from start
// to serving (the URL on stdout): wall seconds, CPU seconds, resident and
// peak memory once serving. The built-in catalog alone is the baseline;
// a tenth of the universe and the whole show how start-up grows with the
// catalog (dependency inference included).
func BenchmarkUniverseStart(b *testing.B) {
	tenth, _ := tbgen.WriteTB(b, tbgen.Options{Tools: tbgen.RealToolFiles / 10})
	full, _ := tbgen.WriteTB(b, tbgen.Options{})
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"builtin", nil},
		{"universe-1230-tools", []string{"-catalog", filepath.Join(tenth, "tools")}},
		{"universe-12301-tools", []string{"-catalog", filepath.Join(full, "tools")}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			var ready time.Duration
			var rss, peak, cpu float64
			for b.Loop() {
				s := startUniverseServer(b, tc.args...)
				ready += s.ready
				rss += s.status(b, "VmRSS")
				peak += s.status(b, "VmHWM")
				cpu += s.stop(b)
			}
			n := float64(b.N)
			b.ReportMetric(ready.Seconds()/n, "ready-s")
			b.ReportMetric(cpu/n, "cpu-s")
			b.ReportMetric(rss/n, "rss-MB")
			b.ReportMetric(peak/n, "peak-MB")
		})
	}
}

// universeCall is one /virtual request of the load benchmark.
type universeCall struct {
	body []byte
	miss bool
}

// universeCalls makes n calls alternating between a hit (an API of the
// tree, its required arguments given; built-in tools left out) and a miss
// (a misspelt API of a known tool, a misspelt tool, or a name no tool has,
// every one different). Hits cycle through pool APIs (0: every hit a new
// API); misses only when hits is false.
func universeCalls(c *toolset.Catalog, n, pool int, hits bool) []universeCall {
	var apis []*toolset.API // the tree's, by names that find them
	for _, a := range c.APIs() {
		if !a.Tool.Builtin && c.ToolBenchAPI(a.Tool.Category, a.Tool.StandardizedName, a.Name) == a {
			apis = append(apis, a)
		}
	}
	calls := make([]universeCall, 0, n)
	hit := 0
	for i := 0; len(calls) < n; i++ {
		miss := !hits || i%2 == 1
		j := i
		if !miss {
			if pool > 0 {
				j = hit % pool
			}
			hit++
		}
		a := apis[(j*7919)%len(apis)]
		args := map[string]any{}
		for _, p := range a.Params {
			if !p.Required {
				continue
			}
			switch p.Kind {
			case toolset.KindNumber, toolset.KindInteger:
				args[p.Name] = 1
			case toolset.KindBoolean:
				args[p.Name] = true
			default:
				args[p.Name] = "x" + strconv.Itoa(i)
			}
		}
		tool, api := a.Tool.StandardizedName, a.Name
		if miss {
			switch i % 3 {
			case 0:
				api = a.StandardizedName()[1:] + "x"
			case 1:
				tool = tool[:len(tool)/2] + "q" + tool[len(tool)/2:]
			default:
				tool, api = fmt.Sprintf("no_such_tool_%d", i), fmt.Sprintf("no_such_api_%d", i)
			}
			if c.ToolBenchAPI(a.Tool.Category, tool, api) != nil {
				continue // the misspelling is a name the tree has
			}
		}
		input, _ := json.Marshal(args)
		body, _ := json.Marshal(map[string]any{"category": a.Tool.Category, "tool_name": tool, "api_name": api, "tool_input": string(input)})
		calls = append(calls, universeCall{body: body, miss: miss})
	}
	return calls
}

// BenchmarkUniverseUnknownNames sends 10,000 /virtual calls to a server on
// the full universe after 3,000 calls of warm-up (in which the collector's
// headroom, 64 MB over the live heap (see sizeGC), fills with the calls'
// garbage), each sub-benchmark on a server of its own:
//
//   - mixed: half the calls name a tool or API the server does not have
//     (answered with suggestions), half call one of 1,000 APIs, as a run
//     that uses a set of APIs does;
//   - mixed-new-apis: the same with every hit a new API, so that each
//     compiles its validator and parses its documentation, which the
//     server keeps;
//   - misses: misses alone.
//
// It reports the latency of hits and misses as the client sees it, and
// the server's resident memory after the warm-up, at its highest reading
// (every 1,000 calls) and at the end; rss-growth-% is the highest reading
// over the first. The readings are logged.
func BenchmarkUniverseUnknownNames(b *testing.B) {
	dir, _ := tbgen.WriteTB(b, tbgen.Options{})
	tools := filepath.Join(dir, "tools")
	cat, err := loader.Load([]string{tools}, true) // as the server loads it
	if err != nil {
		b.Fatal(err)
	}
	const warm, measured = 3000, 10000
	cases := []struct {
		name  string
		calls []universeCall
	}{
		{"mixed", universeCalls(cat, warm+measured, 1000, true)},
		{"mixed-new-apis", universeCalls(cat, warm+measured, 0, true)},
		{"misses", universeCalls(cat, warm+measured, 0, false)},
	}
	cat = nil
	client := &http.Client{Timeout: 30 * time.Second}
	call := func(b *testing.B, s *universeServer, c universeCall) {
		resp, err := client.Post(s.url+"/virtual", "application/json", bytes.NewReader(c.body))
		if err != nil {
			b.Fatal(err)
		}
		var ans struct {
			Error string `json:"error"`
		}
		err = json.NewDecoder(resp.Body).Decode(&ans)
		resp.Body.Close()
		if err != nil {
			b.Fatal(err)
		}
		if c.miss != strings.Contains(ans.Error, "Unknown API") {
			b.Fatalf("miss %v answered %q: %s", c.miss, ans.Error, c.body)
		}
	}
	for _, tc := range cases {
		b.Run(tc.name, func(b *testing.B) {
			for b.Loop() {
				s := startUniverseServer(b, "-catalog", tools)
				for _, c := range tc.calls[:warm] {
					call(b, s, c)
				}
				first := s.status(b, "VmRSS")
				highest := first
				readings := []string{fmt.Sprintf("%.0f", first)}
				var hit, miss time.Duration
				var hits, misses int
				for i, c := range tc.calls[warm:] {
					t0 := time.Now()
					call(b, s, c)
					if c.miss {
						miss += time.Since(t0)
						misses++
					} else {
						hit += time.Since(t0)
						hits++
					}
					if (i+1)%1000 == 0 {
						r := s.status(b, "VmRSS")
						highest = max(highest, r)
						readings = append(readings, fmt.Sprintf("%.0f", r))
					}
				}
				last := s.status(b, "VmRSS")
				s.stop(b)
				b.Logf("RSS MB after the warm-up and every 1,000 calls: %s", strings.Join(readings, " "))
				if hits > 0 {
					b.ReportMetric(float64(hit.Microseconds())/1000/float64(hits), "ms/hit")
				}
				b.ReportMetric(float64(miss.Microseconds())/1000/float64(misses), "ms/miss")
				b.ReportMetric(first, "rss-start-MB")
				b.ReportMetric(highest, "rss-max-MB")
				b.ReportMetric(last, "rss-end-MB")
				b.ReportMetric(100*(highest-first)/first, "rss-growth-%")
			}
		})
	}
}
