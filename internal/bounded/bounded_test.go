package bounded

import (
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// recorder is a testing.TB whose Fatalf ends only the goroutine that
// calls it, as testing's does, and records the message.
type recorder struct {
	testing.TB
	deadline time.Time
	failed   chan string
}

func (r *recorder) Helper() {}
func (r *recorder) Fatalf(format string, args ...any) {
	r.failed <- format
	select {} // as runtime.Goexit would: nothing after Fatalf runs
}
func (r *recorder) Deadline() (time.Time, bool) { return r.deadline, !r.deadline.IsZero() }

func TestRecv(t *testing.T) {
	ch := make(chan int, 1)
	ch <- 7
	require.Equal(t, 7, Recv(t, ch, "seven"))
	close(ch)
	_, ok := RecvOK(t, ch, "closed")
	require.False(t, ok)
	done := make(chan struct{})
	close(done)
	Done(t, done, "a closed channel")
}

// TestWaitsEndBeforeTheDeadline: a wait that never ends fails the test
// once the test binary's deadline is near (here: at once, the deadline
// being within the margin), naming what it waited for.
func TestWaitsEndBeforeTheDeadline(t *testing.T) {
	r := &recorder{TB: t, deadline: time.Now().Add(margin), failed: make(chan string, 1)}
	cases := map[string]func(){
		"Recv": func() { Recv(r, make(chan int), "nothing") },
		"Done": func() { Done(r, make(chan struct{}), "nothing") },
		"Wait": func() {
			var wg sync.WaitGroup
			wg.Add(1)
			Wait(r, &wg, "nothing")
		},
		"Run": func() { Run(r, "nothing", func() { select {} }) },
	}
	for name, wait := range cases {
		t.Run(name, func(t *testing.T) {
			start := time.Now()
			go wait()
			select {
			case msg := <-r.failed:
				require.Contains(t, msg, "waited %s for %s")
				require.Less(t, time.Since(start), 10*time.Second)
			case <-time.After(30 * time.Second):
				t.Fatal("the wait did not end")
			}
		})
	}
}

func TestContextEnds(t *testing.T) {
	r := &recorder{TB: t, deadline: time.Now().Add(margin)}
	ctx := Context(r)
	select {
	case <-ctx.Done():
	case <-time.After(30 * time.Second):
		t.Fatal("the context did not end")
	}
}
