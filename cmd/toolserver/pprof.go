package main

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/pprof"
	"time"

	"github.com/understudy/understudy/mocks/world"
)

// servePprof serves net/http/pprof's handlers on a listener of their own
// (-pprof ADDR), never on the tool server's address: profiles name
// internals a tool client has no business reading. It returns the
// function that stops serving.
func servePprof(addr string, stderr io.Writer) (func(), error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("-pprof: %w", err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	fmt.Fprintf(stderr, "toolserver: profiles at http://%s/debug/pprof/\n", ln.Addr())
	return func() { _ = srv.Close() }, nil
}

// warmWorld loads the stand-ins' world (it is loaded once per process),
// so that it is ready when the stack is assembled.
func warmWorld() { _, _ = world.DefaultWorld() }
