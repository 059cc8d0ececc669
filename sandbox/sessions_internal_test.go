package sandbox

import (
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/internal/bounded"
)

// TestSessionsAccounting: with calls of many sessions and of the session
// "" appended at once, sessions evicted and reset meanwhile, the store's
// byte count is the sum of what the sessions it keeps hold, each trace
// is within its bounds, and forgotten sessions were reported.
func TestSessionsAccounting(t *testing.T) {
	var mu sync.Mutex
	evicted := map[string]int{}
	s := newSessions(8, 50, 64<<10, func(id string) {
		mu.Lock()
		evicted[id]++
		mu.Unlock()
	})
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 400 {
				key := ""
				if i%3 != 0 {
					key = fmt.Sprintf("s%d-%d", g, i%20)
				}
				ss := s.get(key)
				seq := ss.reserve()
				s.append(ss, CallRecord{Seq: seq, Tool: "t", API: "a", Arguments: make([]byte, 100+i)})
				if i%97 == 0 {
					s.remove(key)
				}
			}
		})
	}
	bounded.Wait(t, &wg, "8 goroutines appending to sessions")

	sum := s.anonymous.Load().bytes
	for _, key := range s.cache.Keys() {
		ss, ok := s.cache.Peek(key)
		require.True(t, ok)
		require.LessOrEqual(t, len(ss.calls), 50)
		sum += ss.bytes
	}
	require.Equal(t, sum, s.bytes.Load(), "the byte count is what the kept sessions hold")
	require.LessOrEqual(t, s.bytes.Load(), int64(64<<10)+int64(s.cache.Len()+1)*sessionOverhead+2048)
	require.LessOrEqual(t, s.cache.Len(), 8)
	require.NotEmpty(t, evicted)
	require.Positive(t, evicted[""], "resetting the session \"\" forgets its dependency memory too")

	tr, ok := s.trace("", "")
	require.True(t, ok)
	for i := 1; i < len(tr.Calls); i++ {
		require.Less(t, tr.Calls[i-1].Seq, tr.Calls[i].Seq)
	}
	require.True(t, s.remove(""))
	_, ok = s.trace("", "")
	require.False(t, ok, "a reset session \"\" has no trace until its next call")
	require.False(t, s.remove(""))
}
