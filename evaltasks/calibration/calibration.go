package calibration

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
)

// Styles are the two answers each request holds: the direct answer and
// its key values, and the answer with useful context around it.
var Styles = []string{"concise", "thorough"}

// Answer is one stored answer: text, or one tool call.
type Answer struct {
	Content  string    `json:"content,omitempty"`
	ToolCall *ToolCall `json:"tool_call,omitempty"`
}

// ToolCall is an answer that calls a tool.
type ToolCall struct {
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

// Message is a message of the stored request, as it was sent.
type Message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// Entry is one request of the corpus and its answers by style.
type Entry struct {
	ID       string            `json:"id"`
	Task     string            `json:"task"`
	Messages []Message         `json:"messages"`
	Answers  map[string]Answer `json:"answers"`
}

// TaskNumber is the entry's task as a number ("T6" is 6).
func (e Entry) TaskNumber() (int, error) {
	var n int
	if _, err := fmt.Sscanf(e.Task, "T%d", &n); err != nil || n < 1 || n > 8 {
		return 0, fmt.Errorf("entry %s: task %q is not T1 to T8", e.ID, e.Task)
	}
	return n, nil
}

// Read parses a corpus: one JSON entry per line, each with an id, a task
// and an answer for every style. Line numbers in errors count from 1.
func Read(r io.Reader) ([]Entry, error) {
	var out []Entry
	seen := map[string]bool{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	for line := 1; sc.Scan(); line++ {
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		var e Entry
		if err := json.Unmarshal(b, &e); err != nil {
			return nil, fmt.Errorf("line %d: %w", line, err)
		}
		if e.ID == "" {
			return nil, fmt.Errorf("line %d: no id", line)
		}
		if _, err := e.TaskNumber(); err != nil {
			return nil, fmt.Errorf("line %d: %w", line, err)
		}
		key := e.Task + "/" + e.ID
		if seen[key] {
			return nil, fmt.Errorf("line %d: %s appears twice", line, key)
		}
		seen[key] = true
		for _, s := range Styles {
			a, ok := e.Answers[s]
			if !ok {
				return nil, fmt.Errorf("line %d: %s has no %s answer", line, key, s)
			}
			if (a.Content == "") == (a.ToolCall == nil) {
				return nil, fmt.Errorf("line %d: %s's %s answer needs exactly one of content and tool_call", line, key, s)
			}
		}
		out = append(out, e)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Task != out[j].Task {
			return out[i].Task < out[j].Task
		}
		return out[i].ID < out[j].ID
	})
	return out, nil
}

// UserText is what identifies a request: its user messages, joined.
// The stored request and the one the evaluator sends today share it
// while the instance's text is unchanged.
func UserText(roles, contents []string) string {
	var b strings.Builder
	for i, r := range roles {
		if r == "user" {
			b.WriteString(strings.TrimSpace(contents[i]))
			b.WriteByte('\n')
		}
	}
	return b.String()
}
