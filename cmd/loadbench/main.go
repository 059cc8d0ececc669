// Command loadbench measures the tool server's HTTP path against a bare net/http handler serving the same bytes, in one run, the way a client feels it.
//
// It starts, in this process, a bare handler and the tool server in replay
// mode (a recorded weather answer over the RapidAPI wire and over
// /v1/call) and in fake mode (the weather stand-in over the RapidAPI wire),
// then drives each in turn with wrk (Debian's wrk) when it is installed, or
// with this same binary re-run as a Go HTTP client in a child process. It
// prints requests per second, p50 and p99 latency, the server's CPU time
// per request and its allocations per request, each with its ratio to
// bare in the same round:
//
//	go run ./cmd/loadbench                      # wrk -t2 -c64, 5 s per target, 3 rounds
//	go run ./cmd/loadbench -client go -rounds 1 # without wrk
//
// The client and the server share the machine, so the ratios (measured
// within one round) are the figures to compare; absolute rates vary with
// whatever else the machine runs.
package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/understudy/understudy/internal/assemble"
	"github.com/understudy/understudy/internal/cli"
	"github.com/understudy/understudy/internal/server"
	"github.com/understudy/understudy/sandbox"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// weatherHost and weatherPath make the RapidAPI-wire request of every
// target: weatherapi.com's current weather for London, whose documented
// example ships as a recording (fixtures/recordings).
const (
	weatherHost = "weatherapi-com.p.rapidapi.com"
	weatherPath = "/current.json?q=London"
	callBody    = `{"tool":"weatherapi_com","api":"realtime_weather_api","arguments":{"q":"London"}}`
)

// target is one server under load and the request it is sent.
type target struct {
	name   string
	url    string
	method string
	header map[string]string
	body   string
}

// result is what one target measured in one round.
type result struct {
	requests  int64
	errors    int64
	rps       float64
	p50, p99  time.Duration
	cpuPerReq time.Duration
	allocs    float64
	bytes     float64
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("loadbench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dur := fs.Duration("d", 5*time.Second, "load duration per target and round")
	conns := fs.Int("c", 64, "concurrent connections")
	threads := fs.Int("t", 2, "client threads (wrk -t)")
	rounds := fs.Int("rounds", 3, "rounds; each runs every target once, bare first")
	client := fs.String("client", "auto", "load generator: wrk, go (this binary as a child process) or auto (wrk when installed)")
	only := fs.String("only", "", "comma-separated targets to run besides bare (replay-wire, replay-call, fake-wire); empty runs all")
	cpuProfile := fs.String("cpuprofile", "", "write the server's CPU profile, over every target, to this file")
	memProfile := fs.String("memprofile", "", "write the server's allocation profile, over every target, to this file")
	mutexProfile := fs.String("mutexprofile", "", "write the server's lock contention profile, over every target, to this file")
	startup := fs.String("startup", "", "instead of the load, time this toolserver binary from start to its first healthy /healthz, -rounds times")
	// The child process of -client go.
	child := fs.String("child", "", "internal: run as the Go load client against this URL")
	method := fs.String("child-method", "GET", "internal")
	header := fs.String("child-header", "", "internal: Name: value")
	body := fs.String("child-body", "", "internal")
	usage := func(w io.Writer) {
		fmt.Fprintln(w, "usage: loadbench [flags]    HTTP throughput of the tool server against a bare net/http handler, as ratios")
		fmt.Fprintln(w, "       loadbench -startup BIN   time BIN from start to its first healthy /healthz\n\nflags:")
		fs.PrintDefaults()
	}
	if code, ok := cli.Parse(fs, args, usage, stdout, stderr); !ok {
		return code
	}
	if *child != "" {
		return goClient(*child, *method, *header, *body, *conns, *dur, stdout, stderr)
	}
	if *startup != "" {
		return timeStartup(*startup, *rounds, stdout, stderr)
	}
	useWrk := false
	switch *client {
	case "wrk":
		useWrk = true
	case "go":
	case "auto":
		_, err := exec.LookPath("wrk")
		useWrk = err == nil
	default:
		fmt.Fprintf(stderr, "loadbench: -client takes wrk, go or auto, not %q\n", *client)
		return 2
	}

	targets, cleanup, err := start()
	if err != nil {
		fmt.Fprintf(stderr, "loadbench: %v\n", err)
		return 1
	}
	defer cleanup()
	if *only != "" {
		keep := map[string]bool{"bare": true}
		for _, n := range strings.Split(*only, ",") {
			keep[strings.TrimSpace(n)] = true
		}
		targets = slices.DeleteFunc(targets, func(t target) bool { return !keep[t.name] })
	}
	gen := "wrk"
	if !useWrk {
		gen = "go client (child process)"
	}
	fmt.Fprintf(stdout, "loadbench: %s, -t%d -c%d, %s per target, %d round(s), GOMAXPROCS %d, %d CPUs\n", gen, *threads, *conns, *dur, *rounds, runtime.GOMAXPROCS(0), runtime.NumCPU())

	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			fmt.Fprintf(stderr, "loadbench: %v\n", err)
			return 1
		}
		defer f.Close()
		// Profiling spans bare too; its share is small next to the rest.
		if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintf(stderr, "loadbench: %v\n", err)
			return 1
		}
		defer pprof.StopCPUProfile()
	}

	if *memProfile != "" {
		runtime.MemProfileRate = 4096
		defer func() {
			f, err := os.Create(*memProfile)
			if err == nil {
				_ = pprof.Lookup("allocs").WriteTo(f, 0)
				_ = f.Close()
			}
		}()
	}

	if *mutexProfile != "" {
		runtime.SetMutexProfileFraction(10)
		defer func() {
			f, err := os.Create(*mutexProfile)
			if err == nil {
				_ = pprof.Lookup("mutex").WriteTo(f, 0)
				_ = f.Close()
			}
		}()
	}

	all := make([][]result, *rounds)
	for r := range *rounds {
		for _, t := range targets {
			// A short warm-up, so connection set-up and first-call work
			// are not in the figures.
			if _, err := measure(t, useWrk, *threads, *conns, 500*time.Millisecond); err != nil {
				fmt.Fprintf(stderr, "loadbench: %s: %v\n", t.name, err)
				return 1
			}
			res, err := measure(t, useWrk, *threads, *conns, *dur)
			if err != nil {
				fmt.Fprintf(stderr, "loadbench: %s: %v\n", t.name, err)
				return 1
			}
			all[r] = append(all[r], res)
		}
		printRound(stdout, r+1, targets, all[r])
	}
	if *rounds > 1 {
		printSummary(stdout, targets, all)
	}
	return 0
}

// start serves the bare handler and the tool servers on loopback.
func start() ([]target, func(), error) {
	var closers []func()
	cleanup := func() {
		for _, c := range slices.Backward(closers) {
			c()
		}
	}
	listen := func(h http.Handler) (string, error) {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return "", err
		}
		srv := server.NewHTTPServer(h, 0)
		go func() { _ = srv.Serve(server.LimitListener(ln, 0)) }()
		closers = append(closers, func() { _ = srv.Close() })
		return "http://" + ln.Addr().String(), nil
	}
	// The tool server logs the way cmd/toolserver does, to nowhere.
	logger := slog.New(slog.NewTextHandler(io.Discard, &slog.HandlerOptions{Level: slog.LevelInfo}))
	tool := func(mode sandbox.Mode) (string, error) {
		st, err := assemble.Build(assemble.Config{Mode: mode, Logger: logger})
		if err != nil {
			return "", err
		}
		closers = append(closers, func() { _ = st.Close() })
		h, err := server.New(st.Engine, server.Options{Deps: st.Graph, Logger: logger})
		if err != nil {
			return "", err
		}
		return listen(h)
	}
	replayURL, err := tool(sandbox.ModeReplay)
	if err != nil {
		cleanup()
		return nil, nil, fmt.Errorf("replay server: %w", err)
	}
	fakeURL, err := tool(sandbox.ModeFake)
	if err != nil {
		cleanup()
		return nil, nil, fmt.Errorf("fake server: %w", err)
	}
	// The bare handler answers with exactly the bytes the replay server
	// answers on the wire, with the same content type.
	wire := map[string]string{"X-RapidAPI-Host": weatherHost}
	body, ctype, err := fetch(replayURL+weatherPath, "GET", wire, "")
	if err != nil {
		cleanup()
		return nil, nil, fmt.Errorf("replay server: %w", err)
	}
	if _, _, err := fetch(fakeURL+weatherPath, "GET", wire, ""); err != nil {
		cleanup()
		return nil, nil, fmt.Errorf("fake server: %w", err)
	}
	if _, _, err := fetch(replayURL+"/v1/call", "POST", map[string]string{"Content-Type": "application/json"}, callBody); err != nil {
		cleanup()
		return nil, nil, fmt.Errorf("replay server, /v1/call: %w", err)
	}
	bareURL, err := listen(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", ctype)
		_, _ = w.Write(body)
	}))
	if err != nil {
		cleanup()
		return nil, nil, err
	}
	return []target{
		{name: "bare", url: bareURL + weatherPath, method: "GET", header: wire},
		{name: "replay-wire", url: replayURL + weatherPath, method: "GET", header: wire},
		{name: "replay-call", url: replayURL + "/v1/call", method: "POST", header: map[string]string{"Content-Type": "application/json"}, body: callBody},
		{name: "fake-wire", url: fakeURL + weatherPath, method: "GET", header: wire},
	}, cleanup, nil
}

func fetch(url, method string, header map[string]string, body string) ([]byte, string, error) {
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		return nil, "", err
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, "", err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, "", fmt.Errorf("%s %s: status %d: %s", method, url, resp.StatusCode, b)
	}
	return b, resp.Header.Get("Content-Type"), nil
}

// measure drives one target for d and reads the server's CPU time and
// allocations over the same span. The client runs in another process, so
// both are the server's (plus this process's idle bookkeeping).
func measure(t target, useWrk bool, threads, conns int, d time.Duration) (result, error) {
	var ms0, ms1 runtime.MemStats
	runtime.ReadMemStats(&ms0)
	cpu0 := cpuTime()
	var res result
	var err error
	if useWrk {
		res, err = runWrk(t, threads, conns, d)
	} else {
		res, err = runChild(t, conns, d)
	}
	cpu1 := cpuTime()
	runtime.ReadMemStats(&ms1)
	if err != nil {
		return res, err
	}
	if res.requests == 0 {
		return res, errors.New("no request completed")
	}
	if res.errors > 0 {
		return res, fmt.Errorf("%d of %d requests failed", res.errors, res.requests)
	}
	n := float64(res.requests)
	res.cpuPerReq = time.Duration(float64(cpu1-cpu0) / n)
	res.allocs = float64(ms1.Mallocs-ms0.Mallocs) / n
	res.bytes = float64(ms1.TotalAlloc-ms0.TotalAlloc) / n
	return res, nil
}

// cpuTime is this process's user and system CPU time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func runWrk(t target, threads, conns int, d time.Duration) (result, error) {
	args := []string{"-t" + strconv.Itoa(threads), "-c" + strconv.Itoa(conns), "-d" + strconv.Itoa(max(int(d/time.Second), 1)) + "s", "--latency"}
	if d < time.Second {
		args[2] = "-d1s"
	}
	for k, v := range t.header {
		args = append(args, "-H", k+": "+v)
	}
	if t.method != "GET" {
		dir, err := os.MkdirTemp("", "loadbench")
		if err != nil {
			return result{}, err
		}
		defer os.RemoveAll(dir)
		script := filepath.Join(dir, "req.lua")
		lua := fmt.Sprintf("wrk.method = %q\nwrk.body = %q\n", t.method, t.body)
		if err := os.WriteFile(script, []byte(lua), 0o600); err != nil {
			return result{}, err
		}
		args = append(args, "-s", script)
	}
	args = append(args, t.url)
	out, err := exec.Command("wrk", args...).CombinedOutput()
	if err != nil {
		return result{}, fmt.Errorf("wrk: %w: %s", err, out)
	}
	return parseWrk(out)
}

// parseWrk reads the summary wrk prints with --latency.
func parseWrk(out []byte) (result, error) {
	var res result
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		switch {
		case len(f) == 2 && f[0] == "50%":
			res.p50, _ = parseWrkDuration(f[1])
		case len(f) == 2 && f[0] == "99%":
			res.p99, _ = parseWrkDuration(f[1])
		case len(f) == 2 && f[0] == "Requests/sec:":
			res.rps, _ = strconv.ParseFloat(f[1], 64)
		case len(f) >= 4 && f[1] == "requests" && f[2] == "in":
			res.requests, _ = strconv.ParseInt(f[0], 10, 64)
		case strings.HasPrefix(sc.Text(), "  Non-2xx or 3xx responses:"):
			res.errors, _ = strconv.ParseInt(f[len(f)-1], 10, 64)
		case strings.HasPrefix(sc.Text(), "  Socket errors:"):
			// connect 0, read 0, write 0, timeout 0
			for i := 2; i+1 < len(f); i += 2 {
				n, _ := strconv.ParseInt(strings.TrimSuffix(f[i+1], ","), 10, 64)
				res.errors += n
			}
		}
	}
	if res.rps == 0 || res.p99 == 0 {
		return res, fmt.Errorf("could not read wrk's output: %s", out)
	}
	return res, nil
}

func parseWrkDuration(s string) (time.Duration, error) {
	// wrk prints "812.00us", "1.23ms", "2.00s", "1.00m".
	if strings.HasSuffix(s, "m") && !strings.HasSuffix(s, "ms") {
		s += "in"
	}
	s = strings.Replace(s, "min", "m", 1)
	return time.ParseDuration(s)
}

// runChild runs this binary as the Go load client, in its own process so
// its CPU time and allocations are not counted as the server's.
func runChild(t target, conns int, d time.Duration) (result, error) {
	self, err := os.Executable()
	if err != nil {
		return result{}, err
	}
	var hdr []string
	for k, v := range t.header {
		hdr = append(hdr, k+": "+v)
	}
	if len(hdr) > 1 {
		return result{}, errors.New("the Go client sends one header")
	}
	cmd := exec.Command(self, "-child", t.url, "-child-method", t.method, "-child-header", strings.Join(hdr, ""), "-child-body", t.body, "-c", strconv.Itoa(conns), "-d", d.String())
	out, err := cmd.Output()
	if err != nil {
		return result{}, fmt.Errorf("go client: %w", err)
	}
	var res result
	var p50, p99 int64
	if _, err := fmt.Sscanf(string(out), "%d %d %f %d %d", &res.requests, &res.errors, &res.rps, &p50, &p99); err != nil {
		return result{}, fmt.Errorf("go client said %q: %w", out, err)
	}
	res.p50, res.p99 = time.Duration(p50), time.Duration(p99)
	return res, nil
}

// goClient is the fallback load generator: conns keep-alive connections
// sending the request back to back for d. It prints "requests errors
// req/s p50ns p99ns".
func goClient(url, method, header, body string, conns int, d time.Duration, stdout, stderr io.Writer) int {
	tr := &http.Transport{MaxIdleConnsPerHost: conns, MaxConnsPerHost: conns}
	c := &http.Client{Transport: tr}
	name, value, _ := strings.Cut(header, ":")
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	lat := make([][]time.Duration, conns)
	errs := make([]int64, conns)
	var wg sync.WaitGroup
	start := time.Now()
	for i := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				req, _ := http.NewRequest(method, url, strings.NewReader(body))
				if name != "" {
					req.Header.Set(name, strings.TrimSpace(value))
				}
				t0 := time.Now()
				resp, err := c.Do(req)
				if err != nil {
					errs[i]++
					continue
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != http.StatusOK {
					errs[i]++
				}
				lat[i] = append(lat[i], time.Since(t0))
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	var all []time.Duration
	var nerr int64
	for i := range conns {
		all = append(all, lat[i]...)
		nerr += errs[i]
	}
	if len(all) == 0 {
		fmt.Fprintln(stderr, "loadbench: no request completed")
		return 1
	}
	slices.Sort(all)
	pct := func(p float64) time.Duration { return all[min(int(p*float64(len(all))), len(all)-1)] }
	fmt.Fprintf(stdout, "%d %d %f %d %d\n", len(all), nerr, float64(len(all))/elapsed.Seconds(), pct(0.50), pct(0.99))
	return 0
}

// timeStartup starts a toolserver binary n times and reports how long it
// took, each time, until GET /healthz answered 200: the wait a test suite
// that starts the server feels.
func timeStartup(bin string, n int, stdout, stderr io.Writer) int {
	var took []float64
	for range n {
		start := time.Now()
		cmd := exec.Command(bin, "-addr", "127.0.0.1:0")
		out, err := cmd.StdoutPipe()
		if err != nil {
			fmt.Fprintf(stderr, "loadbench: %v\n", err)
			return 1
		}
		if err := cmd.Start(); err != nil {
			fmt.Fprintf(stderr, "loadbench: %v\n", err)
			return 1
		}
		// The first line on stdout is the URL, once serving.
		line, err := bufio.NewReader(out).ReadString('\n')
		if err == nil {
			for {
				resp, herr := http.Get(strings.TrimSpace(line) + "/healthz")
				if herr == nil {
					resp.Body.Close()
					if resp.StatusCode == http.StatusOK {
						break
					}
				}
				if time.Since(start) > 30*time.Second {
					err = errors.New("no healthy /healthz within 30 s")
					break
				}
				time.Sleep(time.Millisecond)
			}
		}
		d := time.Since(start)
		_ = cmd.Process.Signal(os.Interrupt)
		_ = cmd.Wait()
		if err != nil {
			fmt.Fprintf(stderr, "loadbench: %s: %v\n", bin, err)
			return 1
		}
		took = append(took, float64(d)/float64(time.Millisecond))
	}
	fmt.Fprintf(stdout, "startup to healthy /healthz, %d runs: median %s ms\n", n, spread(took, 1))
	return 0
}

func printRound(w io.Writer, round int, targets []target, res []result) {
	fmt.Fprintf(w, "\nround %d\n", round)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "target\treq/s\tvs bare\tp50\tp99\tp99 vs bare\tCPU/req\tvs bare\tallocs/req\tbytes/req\t")
	bare := res[0]
	for i, t := range targets {
		r := res[i]
		fmt.Fprintf(tw, "%s\t%.0f\t%.2f\t%s\t%s\t%.2f\t%s\t%.2f\t%.0f\t%.0f\t\n", t.name, r.rps, r.rps/bare.rps,
			round3(r.p50), round3(r.p99), float64(r.p99)/float64(bare.p99),
			r.cpuPerReq.Round(100*time.Nanosecond), float64(r.cpuPerReq)/float64(bare.cpuPerReq), r.allocs, r.bytes)
	}
	_ = tw.Flush()
}

// printSummary gives each ratio's median and range over the rounds.
func printSummary(w io.Writer, targets []target, all [][]result) {
	fmt.Fprintf(w, "\nratios to bare over %d rounds: median [min–max]\n", len(all))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "target\treq/s\tp99\tCPU/req\tCPU/req (µs)\tallocs/req\t")
	for i, t := range targets {
		var rps, p99, cpu, us, allocs []float64
		for _, res := range all {
			bare, r := res[0], res[i]
			rps = append(rps, r.rps/bare.rps)
			p99 = append(p99, float64(r.p99)/float64(bare.p99))
			cpu = append(cpu, float64(r.cpuPerReq)/float64(bare.cpuPerReq))
			us = append(us, float64(r.cpuPerReq)/1e3)
			allocs = append(allocs, r.allocs)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t\n", t.name, spread(rps, 2), spread(p99, 2), spread(cpu, 2), spread(us, 1), spread(allocs, 0))
	}
	_ = tw.Flush()
}

func spread(v []float64, prec int) string {
	s := slices.Clone(v)
	slices.Sort(s)
	f := func(x float64) string { return strconv.FormatFloat(x, 'f', prec, 64) }
	return fmt.Sprintf("%s [%s–%s]", f(s[len(s)/2]), f(s[0]), f(s[len(s)-1]))
}

func round3(d time.Duration) string {
	switch {
	case d >= time.Millisecond:
		return d.Round(10 * time.Microsecond).String()
	default:
		return d.Round(time.Microsecond).String()
	}
}
