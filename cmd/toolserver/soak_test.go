//go:build soak

// The soak test and the durability measurements run only with the soak
// build tag: go test -tags soak -run '^TestSoak$' -timeout 30m -v ./cmd/toolserver/
// (.ci/run runs it with UNDERSTUDY_SOAK=1).

package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/internal/redisstate/redistest"
)

var (
	soakDuration = flag.Duration("soak.duration", 10*time.Minute, "how long TestSoak runs its load")
	soakWorkers  = flag.Int("soak.workers", 6, "concurrent clients of TestSoak")
	soakRSS      = flag.Int("soak.rss-mb", 512, "the resident memory (MB) no replica of TestSoak may exceed")
)

// soakReplica is a tool server in a process of its own (the test binary
// standing in for the command), so that it can be killed with SIGKILL.
type soakReplica struct {
	name string
	args []string
	log  *os.File

	mu  sync.Mutex
	cmd *exec.Cmd
	url string // "" while it is down
}

func (r *soakReplica) start(t *testing.T) {
	t.Helper()
	cmd := exec.Command(os.Args[0], r.args...)
	cmd.Env = append(os.Environ(), "UNDERSTUDY_TOOLSERVER_MAIN=1")
	cmd.Stderr = r.log
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	lines := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(out).ReadString('\n')
		lines <- strings.TrimSpace(line)
		_, _ = io.Copy(io.Discard, out)
	}()
	select {
	case u := <-lines:
		require.True(t, strings.HasPrefix(u, "http://"), "%s printed %q", r.name, u)
		r.mu.Lock()
		r.cmd, r.url = cmd, u
		r.mu.Unlock()
	case <-time.After(time.Minute):
		_ = cmd.Process.Kill()
		t.Fatalf("%s did not start within a minute", r.name)
	}
}

// kill ends the replica with SIGKILL, as a crash would.
func (r *soakReplica) kill() {
	r.mu.Lock()
	cmd := r.cmd
	r.cmd, r.url = nil, ""
	r.mu.Unlock()
	if cmd != nil {
		_ = cmd.Process.Signal(syscall.SIGKILL)
		_ = cmd.Wait()
	}
}

// stop ends the replica as a signal would.
func (r *soakReplica) stop() {
	r.mu.Lock()
	cmd := r.cmd
	r.cmd, r.url = nil, ""
	r.mu.Unlock()
	if cmd != nil {
		_ = cmd.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
	}
}

func (r *soakReplica) current() (string, int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.cmd == nil {
		return "", 0
	}
	return r.url, r.cmd.Process.Pid
}

// rssMB is a process's resident memory in MB (Linux), 0 when unknown.
func rssMB(pid int) float64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for line := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 64)
			return kb / 1024
		}
	}
	return 0
}

// soakUpstream is a ToolBench-compatible API answering calculator calls
// with a body that names the expression, counting the calls.
func soakUpstream(t *testing.T, calls *atomic.Int64) string {
	return toolbenchUpstream(t, func(w http.ResponseWriter, expression string) {
		calls.Add(1)
		writeEnvelope(w, http.StatusOK, "", map[string]any{"result": expression, "pad": strings.Repeat("x", 512)})
	}).URL
}

var soakClient = &http.Client{Timeout: 30 * time.Second}

type soakAnswer struct {
	status int
	body   []byte
	err    error
}

func soakPost(u, body string) soakAnswer {
	resp, err := soakClient.Post(u, "application/json", strings.NewReader(body))
	if err != nil {
		return soakAnswer{err: err}
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return soakAnswer{resp.StatusCode, b, err}
}

func soakGet(u string) soakAnswer {
	resp, err := soakClient.Get(u)
	if err != nil {
		return soakAnswer{err: err}
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return soakAnswer{resp.StatusCode, b, err}
}

// TestSoak runs -soak.duration (10 minutes) of mixed load through two
// replicas in record mode sharing one real redis-server that persists
// nothing, one replica with -redis-fallback local, while faults are
// injected in turn: redis-server killed and restarted empty, a replica
// killed with SIGKILL and restarted on its folder. Every recording a client
// was answered (acknowledged) must be in Redis at the end, served by a
// fresh replay replica with the answer first given, and no replica may
// exceed -soak.rss-mb of resident memory.
func TestSoak(t *testing.T) {
	rs := redistest.Start(t)
	var upstreamCalls atomic.Int64
	up := soakUpstream(t, &upstreamCalls)
	logDir := t.TempDir()
	var reps []*soakReplica
	for i, extra := range [][]string{nil, {"-redis-fallback", "local"}} {
		name := fmt.Sprintf("replica-%d", i)
		log, err := os.Create(filepath.Join(logDir, name+".log"))
		require.NoError(t, err)
		t.Cleanup(func() { log.Close() })
		args := append([]string{"-addr", "127.0.0.1:0", "-redis", rs.URL(0), "-mode", "record", "-cache", filepath.Join(t.TempDir(), name),
			"-upstream", up, "-key-env", "UNDERSTUDY_TEST_NO_SUCH_KEY", "-upstream-rate", "100000"}, extra...)
		r := &soakReplica{name: name, args: args, log: log}
		r.start(t)
		t.Cleanup(r.kill)
		reps = append(reps, r)
	}

	var (
		mu       sync.Mutex
		acked    = map[string]string{} // expression -> the response first answered
		ackOrder []string
		statuses = map[string]int{}
		rss      = map[string][]float64{}
		faults   []string
		ops      atomic.Int64
	)
	note := func(what string) {
		mu.Lock()
		statuses[what]++
		mu.Unlock()
	}
	ctx, stop := context.WithTimeout(context.Background(), *soakDuration)
	defer stop()
	began := time.Now()
	var wg sync.WaitGroup

	// Faults, in turn, every eighth of the run.
	wg.Go(func() {
		every := *soakDuration / 8
		for n := 0; ; n++ {
			select {
			case <-ctx.Done():
				return
			case <-time.After(every):
			}
			switch n % 3 {
			case 0:
				rs.Kill()
				time.Sleep(500 * time.Millisecond)
				rs.Restart()
				mu.Lock()
				faults = append(faults, fmt.Sprintf("%s redis-server killed and restarted empty", time.Since(began).Round(time.Second)))
				mu.Unlock()
			default:
				r := reps[n%2]
				r.kill()
				time.Sleep(2 * time.Second)
				r.start(t)
				mu.Lock()
				faults = append(faults, fmt.Sprintf("%s %s killed (SIGKILL) and restarted", time.Since(began).Round(time.Second), r.name))
				mu.Unlock()
			}
		}
	})
	// Resident memory of each replica, every 2 s.
	wg.Go(func() {
		for {
			select {
			case <-ctx.Done():
				return
			case <-time.After(2 * time.Second):
			}
			for _, r := range reps {
				if _, pid := r.current(); pid != 0 {
					if mb := rssMB(pid); mb > 0 {
						mu.Lock()
						rss[r.name] = append(rss[r.name], mb)
						mu.Unlock()
					}
				}
			}
		}
	})
	// The clients.
	for w := range *soakWorkers {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(w), 7))
			for n := 0; ctx.Err() == nil; n++ {
				ops.Add(1)
				r := reps[rng.IntN(len(reps))]
				u, _ := r.current()
				if u == "" {
					note("replica down")
					time.Sleep(50 * time.Millisecond)
					continue
				}
				session := fmt.Sprintf("soak-%d-%d", w, n/20)
				switch p := rng.IntN(100); {
				case p < 50: // a call no one made: recorded from the upstream
					expr := fmt.Sprintf("%d*1000003+%d", w+1, n)
					a := soakPost(u+"/v1/call", fmt.Sprintf(`{"tool":"calculator","api":"calculate","arguments":{"expression":%q},"session":%q}`, expr, session))
					var res struct {
						Status   int             `json:"status"`
						Source   string          `json:"source"`
						Response json.RawMessage `json:"response"`
					}
					switch {
					case a.err != nil:
						note("record: connection error")
					case a.status != http.StatusOK:
						note(fmt.Sprintf("record: HTTP %d", a.status))
					case json.Unmarshal(a.body, &res) != nil || res.Status != 200 || !strings.Contains(string(res.Response), expr):
						note("record: unexpected answer")
						t.Errorf("unexpected answer to %s: %s", expr, a.body)
					default:
						note("record: acknowledged (" + res.Source + ")")
						mu.Lock()
						acked[expr] = string(res.Response)
						ackOrder = append(ackOrder, expr)
						mu.Unlock()
					}
				case p < 80: // a call made before: replayed
					mu.Lock()
					var expr string
					if len(ackOrder) > 0 {
						expr = ackOrder[rng.IntN(len(ackOrder))]
					}
					mu.Unlock()
					if expr == "" {
						continue
					}
					a := soakPost(u+"/v1/call", fmt.Sprintf(`{"tool":"calculator","api":"calculate","arguments":{"expression":%q}}`, expr))
					switch {
					case a.err != nil:
						note("replay: connection error")
					case a.status == http.StatusOK:
						note("replay: 200")
					default:
						note(fmt.Sprintf("replay: HTTP %d", a.status))
					}
				case p < 88:
					a := soakGet(u + "/healthz")
					if a.err == nil {
						note(fmt.Sprintf("healthz: HTTP %d", a.status))
					}
				case p < 94:
					a := soakGet(u + "/v1/sessions/" + session)
					if a.err == nil {
						note(fmt.Sprintf("session: HTTP %d", a.status))
					}
				default: // a call the server refuses
					a := soakPost(u+"/v1/call", `{"tool":"calculator","api":"no_such_api","arguments":{}}`)
					if a.err == nil {
						note(fmt.Sprintf("refused: HTTP %d", a.status))
						if a.status != http.StatusNotFound {
							t.Errorf("an unknown API answered %d: %s", a.status, a.body)
						}
					}
				}
				time.Sleep(time.Duration(rng.IntN(4)) * time.Millisecond)
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(began)

	// Every acknowledged recording reaches Redis (the replicas push what
	// a restart lost, and what the fallback recorded, within a few
	// seconds of Redis answering).
	rdb := redis.NewClient(&redis.Options{Addr: rs.Addr})
	defer rdb.Close()
	want := len(acked)
	var inRedis int64
	deadline := time.Now().Add(2 * time.Minute)
	for time.Now().Before(deadline) {
		inRedis, _ = rdb.ZCard(context.Background(), "understudy:recs").Result()
		if inRedis >= int64(want) {
			break
		}
		time.Sleep(500 * time.Millisecond)
	}
	for _, r := range reps {
		r.stop()
	}
	// A fresh replica that reads Redis alone serves each one as first answered.
	replay := start(t, []string{"-redis", rs.URL(0), "-mode", "replay"}, flags{})
	lost := 0
	for expr, first := range acked {
		a := soakPost("http://"+replay.addr+"/v1/call", fmt.Sprintf(`{"tool":"calculator","api":"calculate","arguments":{"expression":%q}}`, expr))
		var res struct {
			Response json.RawMessage `json:"response"`
		}
		if a.err != nil || a.status != http.StatusOK || json.Unmarshal(a.body, &res) != nil || string(res.Response) != first {
			lost++
			if lost <= 5 {
				t.Errorf("acknowledged recording %s lost: %d %s %v", expr, a.status, a.body, a.err)
			}
		}
	}

	var kinds []string
	for k := range statuses {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	t.Logf("soak: %s of load, %d workers, %d operations (%.0f/s), %d upstream calls", elapsed.Round(time.Second), *soakWorkers, ops.Load(), float64(ops.Load())/elapsed.Seconds(), upstreamCalls.Load())
	for _, k := range kinds {
		t.Logf("  %-45s %d", k, statuses[k])
	}
	for _, f := range faults {
		t.Logf("  fault: %s", f)
	}
	t.Logf("acknowledged recordings: %d; in Redis at the end: %d; lost: %d", want, inRedis, lost)
	for _, r := range reps {
		samples := rss[r.name]
		if len(samples) == 0 {
			continue
		}
		maxMB, sum := 0.0, 0.0
		for _, mb := range samples {
			maxMB = max(maxMB, mb)
			sum += mb
		}
		t.Logf("%s resident memory: max %.0f MB, mean %.0f MB, last %.0f MB (%d samples)", r.name, maxMB, sum/float64(len(samples)), samples[len(samples)-1], len(samples))
		require.Less(t, maxMB, float64(*soakRSS), "%s's resident memory stays bounded", r.name)
	}
	require.Positive(t, want, "recordings were made")
	require.Zero(t, lost, "no acknowledged recording is lost")
	require.GreaterOrEqual(t, len(faults), 3, "faults were injected")
}

// TestDurabilityTable measures what of N acknowledged recordings a
// redis-server keeps across a restart, for each persistence setting and
// for a graceful stop (SIGTERM) and a crash (SIGKILL) right after the last
// recording, and what the replica's mirror brings back: the table of
// docs/replicas.md.
func TestDurabilityTable(t *testing.T) {
	const n = 500
	settings := []struct {
		name string
		args []string
	}{
		{"none (`--save '' --appendonly no`)", redistest.NoPersistence},
		{"RDB, Redis's default schedule (`--save '3600 1 300 100 60 10000'`)", []string{"--save", "3600 1 300 100 60 10000", "--appendonly", "no"}},
		{"RDB every second (`--save '1 1'`)", []string{"--save", "1 1", "--appendonly", "no"}},
		{"AOF, fsync every second (`--appendonly yes`)", []string{"--save", "", "--appendonly", "yes", "--appendfsync", "everysec"}},
		{"AOF, fsync always (`--appendonly yes --appendfsync always`)", []string{"--save", "", "--appendonly", "yes", "--appendfsync", "always"}},
	}
	var calls atomic.Int64
	up := soakUpstream(t, &calls)
	var rows []string
	for _, set := range settings {
		for _, crash := range []bool{false, true} {
			rs := redistest.StartWith(t, set.args...)
			dir := t.TempDir()
			args := []string{"-redis", rs.URL(0), "-mode", "record", "-cache", dir, "-upstream", up, "-key-env", "UNDERSTUDY_TEST_NO_SUCH_KEY", "-upstream-rate", "100000"}
			s := start(t, args, flags{})
			var wg sync.WaitGroup
			var acked atomic.Int64
			for w := range 8 {
				wg.Go(func() {
					for i := w; i < n; i += 8 {
						a := soakPost("http://"+s.addr+"/v1/call", fmt.Sprintf(`{"tool":"calculator","api":"calculate","arguments":{"expression":"%d+0"}}`, 1000000+i))
						if a.err == nil && a.status == http.StatusOK {
							acked.Add(1)
						}
					}
				})
			}
			wg.Wait()
			event := "stopped (SIGTERM)"
			if crash {
				event = "killed (SIGKILL)"
				rs.Kill()
			} else {
				rs.Stop()
			}
			s.stop() // the replica is down too: what Redis kept is Redis's alone
			rs.Restart()
			rdb := redis.NewClient(&redis.Options{Addr: rs.Addr})
			kept, err := rdb.ZCard(context.Background(), "understudy:recs").Result()
			require.NoError(t, err)
			// The replica comes back on its folder and pushes what Redis lacks.
			s = start(t, args, flags{})
			var withMirror int64
			for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
				if withMirror, _ = rdb.ZCard(context.Background(), "understudy:recs").Result(); withMirror >= acked.Load() {
					break
				}
			}
			s.stop()
			rdb.Close()
			rs.Kill()
			rows = append(rows, fmt.Sprintf("| %s | %s | %d | %d (%d lost) | %d (%d lost) |", set.name, event, acked.Load(), kept, acked.Load()-kept, withMirror, acked.Load()-withMirror))
		}
	}
	t.Logf("\n| redis-server persistence | redis-server | acknowledged | kept by Redis | with the replica's mirror |\n|---|---|---:|---:|---:|\n%s", strings.Join(rows, "\n"))
}
