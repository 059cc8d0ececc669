// Package bounded makes a test's waits end: each waits at most a bounded time and then fails the test naming what it waited for, so that no test hangs until the test binary's timeout.
package bounded

import (
	"context"
	"net/http"
	"sync"
	"testing"
	"time"
)

// Timeout is the longest any wait of this package lasts: far longer than
// any wait of a passing test on a loaded machine, far shorter than the
// test binary's -timeout, so that the failure names the wait.
const Timeout = time.Minute

// margin is left before the test binary's deadline, so that a wait fails
// the test (naming itself) before the binary panics.
const margin = 5 * time.Second

// deadliner is *testing.T's Deadline (testing.TB lacks it).
type deadliner interface {
	Deadline() (time.Time, bool)
}

// limit is how long a wait of tb may last: Timeout, or less when the
// test binary's deadline is nearer.
func limit(tb testing.TB) time.Duration {
	d := Timeout
	if t, ok := tb.(deadliner); ok {
		if end, ok := t.Deadline(); ok {
			d = min(d, max(time.Until(end)-margin, time.Second))
		}
	}
	return d
}

// Context is a context for tb that ends after the bound (and when the
// test ends), for waits that take a context.
func Context(tb testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), limit(tb))
	tb.Cleanup(cancel)
	return ctx
}

// Recv receives one value from ch, failing tb when none comes within the
// bound (or ch is closed). Call it from the test's goroutine.
func Recv[T any](tb testing.TB, ch <-chan T, what string) T {
	tb.Helper()
	v, ok := RecvOK(tb, ch, what)
	if !ok {
		tb.Fatalf("waiting for %s: the channel was closed", what)
	}
	return v
}

// RecvOK receives from ch like Recv, reporting false when ch is closed.
func RecvOK[T any](tb testing.TB, ch <-chan T, what string) (T, bool) {
	tb.Helper()
	d := limit(tb)
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case v, ok := <-ch:
		return v, ok
	case <-t.C:
		tb.Fatalf("waited %s for %s: it never came", d, what)
		var zero T
		return zero, false
	}
}

// Done waits until ch is closed or sends, failing tb when neither happens
// within the bound: for signals such as a context's Done or a channel a
// goroutine closes when it gets somewhere.
func Done(tb testing.TB, ch <-chan struct{}, what string) {
	tb.Helper()
	RecvOK(tb, ch, what)
}

// Wait waits for wg, failing tb when it is not done within the bound.
func Wait(tb testing.TB, wg *sync.WaitGroup, what string) {
	tb.Helper()
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	Done(tb, done, what)
}

// Run runs fn in a goroutine of its own and waits for it to return,
// failing tb when it does not within the bound: for a blocking call
// (a process's Wait, a read) that takes no context.
func Run(tb testing.TB, what string, fn func()) {
	tb.Helper()
	done := make(chan struct{})
	go func() { defer close(done); fn() }()
	Done(tb, done, what)
}

// Client is an HTTP client whose requests, the body read included, end
// after the bound: http.Get and http.DefaultClient wait forever for a
// server that never answers.
var Client = &http.Client{Timeout: Timeout}
