// Package redistest runs a real redis-server on a free loopback port for tests, and skips them with a message when the binary is not installed.
package redistest

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// Server is a redis-server process owned by a test.
type Server struct {
	Addr string // 127.0.0.1:port
	Dir  string // its working directory: RDB and AOF files go there
	bin  string
	args []string
	tb   testing.TB
	cmd  *exec.Cmd
}

// NoPersistence are the settings of a server that writes nothing to disk.
var NoPersistence = []string{"--save", "", "--appendonly", "no"}

// Start runs redis-server (found on PATH, or in $REDIS_SERVER) on a free
// port with nothing persisted, and stops it when the test ends. Without
// the binary the test is skipped, naming the Debian package.
func Start(tb testing.TB) *Server {
	return StartWith(tb, NoPersistence...)
}

// StartWith is Start with the server's persistence (or other) settings
// given as its command-line arguments ("--appendonly", "yes"), kept across
// restarts.
func StartWith(tb testing.TB, args ...string) *Server {
	tb.Helper()
	bin := os.Getenv("REDIS_SERVER")
	if bin == "" {
		var err error
		if bin, err = exec.LookPath("redis-server"); err != nil {
			tb.Skip("redis-server is not installed (Debian: apt-get install redis-server; .ci/run installs it): skipping the test against a real Redis")
		}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	s := &Server{Addr: addr, bin: bin, Dir: tb.TempDir(), tb: tb, args: args}
	s.Restart()
	tb.Cleanup(s.Kill)
	return s
}

// URL is the server's redis:// URL for database db.
func (s *Server) URL(db int) string { return "redis://" + s.Addr + "/" + strconv.Itoa(db) }

// Kill stops the server at once (SIGKILL), as a crash would.
func (s *Server) Kill() {
	if s.cmd == nil {
		return
	}
	_ = s.cmd.Process.Kill()
	_ = s.cmd.Wait()
	s.cmd = nil
}

// Stop ends the server as an operator does (SIGTERM: it saves what its
// persistence settings say) and waits for it to exit.
func (s *Server) Stop() {
	if s.cmd == nil {
		return
	}
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan struct{})
	go func() { _ = s.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		_ = s.cmd.Process.Kill()
		<-done
	}
	s.cmd = nil
}

// Restart starts the server again on the same port and directory (with
// what it persisted there, if anything) and waits until it answers.
func (s *Server) Restart() {
	s.tb.Helper()
	_, port, _ := net.SplitHostPort(s.Addr)
	args := append([]string{"--port", port, "--bind", "127.0.0.1", "--dir", s.Dir, "--daemonize", "no", "--loglevel", "warning"}, s.args...)
	s.cmd = exec.Command(s.bin, args...)
	if err := s.cmd.Start(); err != nil {
		s.tb.Fatalf("starting redis-server: %v", err)
	}
	rdb := redis.NewClient(&redis.Options{Addr: s.Addr, MaxRetries: -1})
	defer rdb.Close()
	deadline := time.Now().Add(10 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		err := rdb.Ping(ctx).Err()
		cancel()
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			s.Kill()
			s.tb.Fatal(fmt.Errorf("redis-server on %s did not answer within 10 s: %w", s.Addr, err))
		}
		time.Sleep(10 * time.Millisecond)
	}
}
