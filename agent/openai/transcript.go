package openai

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/understudy/understudy/agent"
	"github.com/understudy/understudy/internal/atomicfile"
	"github.com/understudy/understudy/internal/canon"
	"github.com/understudy/understudy/toolset"
)

// Entry is one recorded model call: the canonical request and the reply it got.
type Entry struct {
	Key     string          `json:"key"`
	Request json.RawMessage `json:"request"`
	Reply   agent.Reply     `json:"reply"`
}

// RequestKey returns the transcript key of a request, the hex SHA-256 of
// its canonical JSON (sorted keys, normalised numbers), and those bytes.
// The request holds model, messages, tools and parameters; the API key and
// headers are never part of it.
func RequestKey(req *ChatRequest) (string, []byte, error) {
	b, err := canon.JSON(req)
	if err != nil {
		return "", nil, fmt.Errorf("agent: canonical request: %w", err)
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:]), b, nil
}

// requestFor is the request a conversation becomes for a: its own when it
// can build one, else the plain messages and tools.
func requestFor(a any, messages []agent.Message, tools []toolset.OpenAITool) (*ChatRequest, error) {
	if b, ok := a.(RequestBuilder); ok && b != nil {
		return b.BuildRequest(messages, tools)
	}
	return &ChatRequest{Messages: wireMessages(messages), Tools: tools}, nil
}

// Transcript stores entries, one file per key (<dir>/<key>.json, written
// atomically), or in memory only when opened with an empty directory.
// It is safe for concurrent use, and for several processes writing the
// same directory: a file is either absent or complete.
type Transcript struct {
	dir string
	mu  sync.Mutex
	mem map[string]Entry
}

// TranscriptError reports a transcript file that cannot be read or written.
type TranscriptError struct {
	Path string
	Op   string
	Err  error
}

func (e *TranscriptError) Error() string {
	return fmt.Sprintf("agent: transcript %s %s: %v", e.Op, e.Path, e.Err)
}

func (e *TranscriptError) Unwrap() error { return e.Err }

// OpenTranscript opens (creating if needed) the transcript directory dir.
// An empty dir gives a transcript held in memory.
func OpenTranscript(dir string) (*Transcript, error) {
	t := &Transcript{dir: dir, mem: map[string]Entry{}}
	if dir == "" {
		return t, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, &TranscriptError{Path: dir, Op: "create", Err: err}
	}
	return t, nil
}

// Dir is the transcript's directory, "" when it lives in memory.
func (t *Transcript) Dir() string { return t.dir }

var keyRE = regexp.MustCompile(`^[0-9a-f]{64}$`)

func (t *Transcript) path(key string) string {
	return filepath.Join(t.dir, key+".json")
}

// Get returns the entry stored under key.
func (t *Transcript) Get(key string) (Entry, bool, error) {
	if !keyRE.MatchString(key) {
		return Entry{}, false, &TranscriptError{Path: key, Op: "read", Err: errors.New("not a SHA-256 hex key")}
	}
	t.mu.Lock()
	e, ok := t.mem[key]
	t.mu.Unlock()
	if ok || t.dir == "" {
		return e, ok, nil
	}
	e, err := t.readFile(t.path(key))
	if errors.Is(err, fs.ErrNotExist) {
		return Entry{}, false, nil
	}
	if err != nil {
		return Entry{}, false, err
	}
	if e.Key != key {
		return Entry{}, false, &TranscriptError{Path: t.path(key), Op: "read", Err: fmt.Errorf("file holds key %s", e.Key)}
	}
	t.mu.Lock()
	t.mem[key] = e
	t.mu.Unlock()
	return e, true, nil
}

func (t *Transcript) readFile(path string) (Entry, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return Entry{}, err
		}
		return Entry{}, &TranscriptError{Path: path, Op: "read", Err: err}
	}
	var e Entry
	if err := json.Unmarshal(data, &e); err != nil {
		return Entry{}, &TranscriptError{Path: path, Op: "read", Err: err}
	}
	return e, nil
}

// Put stores e under e.Key, replacing any earlier entry.
func (t *Transcript) Put(e Entry) error {
	if !keyRE.MatchString(e.Key) {
		return &TranscriptError{Path: e.Key, Op: "write", Err: errors.New("not a SHA-256 hex key")}
	}
	data, err := encodeEntry(e)
	if err != nil {
		return &TranscriptError{Path: e.Key, Op: "write", Err: err}
	}
	if t.dir != "" {
		if err := writeAtomic(t.path(e.Key), data); err != nil {
			return err
		}
	}
	// Keep what a later read of the file would give, so memory and disk agree.
	var stored Entry
	if err := json.Unmarshal(data, &stored); err != nil {
		return &TranscriptError{Path: e.Key, Op: "write", Err: err}
	}
	t.mu.Lock()
	t.mem[e.Key] = stored
	t.mu.Unlock()
	return nil
}

// encodeEntry writes an entry as one line of compact JSON, leaving <, >
// and & unescaped so raw arguments keep their exact bytes.
func encodeEntry(e Entry) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(e); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// entryPerm is the mode of a transcript file: private to its owner, as
// the temporary file it is renamed from always was.
const entryPerm = 0o600

// writeAtomic replaces path with data so that a reader, or the machine
// after a crash, sees the old entry or the new one.
func writeAtomic(path string, data []byte) error {
	if err := atomicfile.WriteFile(path, data, entryPerm); err != nil {
		return &TranscriptError{Path: path, Op: "write", Err: err}
	}
	return nil
}

// Keys lists the stored keys in sorted order.
func (t *Transcript) Keys() ([]string, error) {
	seen := map[string]bool{}
	t.mu.Lock()
	for k := range t.mem {
		seen[k] = true
	}
	t.mu.Unlock()
	if t.dir != "" {
		des, err := os.ReadDir(t.dir)
		if err != nil {
			return nil, &TranscriptError{Path: t.dir, Op: "list", Err: err}
		}
		for _, de := range des {
			name := de.Name()
			if k, ok := strings.CutSuffix(name, ".json"); ok && keyRE.MatchString(k) {
				seen[k] = true
			}
		}
	}
	keys := make([]string, 0, len(seen))
	for k := range seen {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys, nil
}
