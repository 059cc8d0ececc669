package sandbox_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/sandbox"
	"github.com/understudy/understudy/toolset"
)

// forgetful is a Provenance that only notes which sessions it was told
// to forget.
type forgetful struct {
	mu     sync.Mutex
	forgot []string
}

func (f *forgetful) Check(string, *toolset.API, map[string]any) sandbox.ProvenanceCheck {
	return sandbox.ProvenanceCheck{}
}
func (f *forgetful) Observe(string, int, *toolset.API, map[string]any, json.RawMessage) {}
func (f *forgetful) Forget(session string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.forgot = append(f.forgot, session)
}

var _ sandbox.Provenance = (*forgetful)(nil)

// TestReset: a reset session has no trace, its dependency memory is
// forgotten under the session's key, and its next call is number 1;
// other sessions are untouched.
func TestReset(t *testing.T) {
	prov := &forgetful{}
	e, _ := newEngine(t, engineOpts{mode: sandbox.ModeFake, prov: prov})
	long := strings.Repeat("x", 200) // kept under its SHA-256
	call := func(session string) *sandbox.Result {
		res, err := e.Call(context.Background(), sandbox.Request{Tool: "demo_weather", API: "current", Arguments: map[string]any{"city": "Lisbon"}, Session: session})
		require.NoError(t, err)
		return res
	}
	for _, s := range []string{"a", "a", "b", long} {
		call(s)
	}
	for _, tc := range []struct {
		id    string
		known bool
	}{
		{"a", true},
		{long, true},
		{"a", false},
		{"never", false},
	} {
		prov.forgot = nil
		require.Equal(t, tc.known, e.Reset(tc.id), tc.id)
		require.Equal(t, []string{sandbox.SessionKey(tc.id)}, prov.forgot, "forgotten once, under its key")
		_, ok := e.Session(tc.id)
		require.False(t, ok)
	}
	tr, ok := e.Session("b")
	require.True(t, ok)
	require.Len(t, tr.Calls, 1)
	require.Equal(t, 1, call("a").Seq, "the reset session starts again")
}
