package openai

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/agent"
	"github.com/understudy/understudy/internal/bounded"
)

func testEntry(t *testing.T, q string) Entry {
	t.Helper()
	req := &ChatRequest{Model: "m", Messages: []ChatMessage{{Role: agent.RoleUser, Content: q}}, Temperature: 0}
	key, canonReq, err := RequestKey(req)
	require.NoError(t, err)
	return Entry{Key: key, Request: canonReq, Reply: agent.Reply{
		Content:   "a <b> & c",
		ToolCalls: []agent.ToolCall{{ID: "x", Name: "f", Arguments: json.RawMessage(`{"s":"<&>","n":1.50}`)}},
		Usage:     agent.Usage{PromptTokens: 1, CompletionTokens: 2, TotalTokens: 3},
	}}
}

func TestRequestKey(t *testing.T) {
	a := &ChatRequest{Model: "m", Messages: []ChatMessage{{Role: agent.RoleUser, Content: "hi"}}, Temperature: 0.5}
	b := &ChatRequest{Model: "m", Messages: []ChatMessage{{Role: agent.RoleUser, Content: "hi"}}, Temperature: 0.50}
	ka, ca, err := RequestKey(a)
	require.NoError(t, err)
	kb, _, _ := RequestKey(b)
	require.Equal(t, ka, kb)
	require.Equal(t, `{"messages":[{"content":"hi","role":"user"}],"model":"m","temperature":0.5}`, string(ca), "sorted keys, no key or headers")
	b.Temperature = 0.7
	kc, _, _ := RequestKey(b)
	require.NotEqual(t, ka, kc)
}

func TestTranscriptDisk(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "nested", "transcripts")
	tr, err := OpenTranscript(dir)
	require.NoError(t, err)
	e := testEntry(t, "hello")
	_, ok, err := tr.Get(e.Key)
	require.NoError(t, err)
	require.False(t, ok)
	require.NoError(t, tr.Put(e))

	data, err := os.ReadFile(filepath.Join(dir, e.Key+".json"))
	require.NoError(t, err)
	require.Equal(t, 1, strings.Count(string(data), "\n"), "one compact line")
	require.Contains(t, string(data), `"arguments":{"s":"<&>","n":1.50}`, "raw bytes kept, HTML not escaped")

	fresh, err := OpenTranscript(dir)
	require.NoError(t, err)
	got, ok, err := fresh.Get(e.Key)
	require.NoError(t, err)
	require.True(t, ok)
	require.Equal(t, e, got)

	e2 := testEntry(t, "again")
	require.NoError(t, fresh.Put(e2))
	keys, err := fresh.Keys()
	require.NoError(t, err)
	want := []string{e.Key, e2.Key}
	if want[0] > want[1] {
		want[0], want[1] = want[1], want[0]
	}
	require.Equal(t, want, keys)

	_, _, err = fresh.Get("../etc/passwd")
	var te *TranscriptError
	require.ErrorAs(t, err, &te)
	require.ErrorAs(t, fresh.Put(Entry{Key: "nope"}), &te)

	// A corrupt file is an error that names it, not a miss.
	bad := testEntry(t, "bad")
	require.NoError(t, os.WriteFile(filepath.Join(dir, bad.Key+".json"), []byte(`{"key":`), 0o644))
	_, _, err = fresh.Get(bad.Key)
	require.ErrorAs(t, err, &te)
	require.ErrorContains(t, err, bad.Key+".json")

	// A file stored under the wrong name is caught.
	moved := testEntry(t, "moved")
	data, _ = encodeEntry(e)
	require.NoError(t, os.WriteFile(filepath.Join(dir, moved.Key+".json"), data, 0o644))
	_, _, err = fresh.Get(moved.Key)
	require.ErrorContains(t, err, "file holds key "+e.Key)
}

func TestTranscriptConcurrentWriters(t *testing.T) {
	dir := t.TempDir()
	var wg sync.WaitGroup
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tr, err := OpenTranscript(dir) // separate handles, as separate processes would have
			if err != nil {
				t.Error(err)
				return
			}
			for i := 0; i < 20; i++ {
				if err := tr.Put(testEntry(t, fmt.Sprint(i))); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	bounded.Wait(t, &wg, "concurrent transcript writers")
	names, err := filepath.Glob(filepath.Join(dir, "*"))
	require.NoError(t, err)
	require.Len(t, names, 20, "no temporary files left behind")
	tr, _ := OpenTranscript(dir)
	for i := 0; i < 20; i++ {
		e := testEntry(t, fmt.Sprint(i))
		got, ok, err := tr.Get(e.Key)
		require.NoError(t, err)
		require.True(t, ok)
		require.Equal(t, e, got)
	}
}

func TestTranscriptMemory(t *testing.T) {
	tr, err := OpenTranscript("")
	require.NoError(t, err)
	e := testEntry(t, "x")
	require.NoError(t, tr.Put(e))
	got, ok, err := tr.Get(e.Key)
	require.NoError(t, err)
	require.True(t, ok)
	require.Equal(t, e, got)
	keys, _ := tr.Keys()
	require.Equal(t, []string{e.Key}, keys)
}

func TestFirstDifference(t *testing.T) {
	tests := []struct{ a, b, want string }{
		{`{"a":1}`, `{"a":1}`, ""},
		{`{"a":1}`, `{"a":2}`, "a: recorded 1, requested 2"},
		{`{"a":{"b":[1,2]}}`, `{"a":{"b":[1,3]}}`, "a.b[1]: recorded 2, requested 3"},
		{`{"a":1}`, `{"b":1}`, "a: recorded 1, absent in the request"},
		{`{"b":1}`, `{"a":1,"b":1}`, "a: absent in the recording, requested 1"},
		{`[1]`, `{"x":1}`, "the request: recorded [1], requested {\"x\":1}"},
		{`{"a":"1"}`, `{"a":1}`, `a: recorded "1", requested 1`},
		{`x`, `{}`, "the whole request (one side is not JSON)"},
	}
	for _, tt := range tests {
		require.Equal(t, tt.want, FirstDifference([]byte(tt.a), []byte(tt.b)), "%s vs %s", tt.a, tt.b)
	}
}
