package evaltasks

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/understudy/understudy/agent"
	"github.com/understudy/understudy/toolset"
)

// MaxStoredReply bounds the bytes of one agent reply the evaluator keeps
// (its text, tool calls and reasoning together): a model that answers a
// megabyte per instance costs a run 64 KiB per reply in memory and in
// results.jsonl, whatever the dataset's size. What goes beyond is cut
// before the reply is scored, and the cut is recorded on the instance
// (Result.Cut).
const MaxStoredReply = 64 << 10

// MaxScoredReply bounds the bytes of a reply's text the scorers read: a
// reply's first 16 KiB, far more than any natural answer, so that scoring
// costs at most what a reply of that size costs however long the model
// writes. The bytes not read are recorded on the instance
// (Result.ScoreCut); what is kept of the reply stays MaxStoredReply.
const MaxScoredReply = 16 << 10

// scoredText is the prefix of a reply's text the scorers read, and how
// many bytes they do not.
func scoredText(s string) (string, int) {
	if len(s) <= MaxScoredReply {
		return s, 0
	}
	kept := cutText(s, MaxScoredReply)
	return kept, len(s) - len(kept)
}

// ReplyCut records what MaxStoredReply took from an instance's replies.
type ReplyCut struct {
	// Replies is how many replies were cut, Bytes how many bytes they lost.
	Replies int `json:"replies"`
	Bytes   int `json:"bytes"`
}

// cappingAgent cuts every reply of one instance to MaxStoredReply and
// sums up what it cut.
type cappingAgent struct {
	next  agent.Agent
	limit int

	mu  sync.Mutex
	cut ReplyCut
}

var _ agent.Agent = (*cappingAgent)(nil)

func (c *cappingAgent) Respond(ctx context.Context, msgs []agent.Message, tools []toolset.OpenAITool) (agent.Reply, error) {
	r, err := c.next.Respond(ctx, msgs, tools)
	if err != nil {
		return r, err
	}
	if n := capReply(&r, c.limit); n > 0 {
		c.mu.Lock()
		c.cut.Replies++
		c.cut.Bytes += n
		c.mu.Unlock()
	}
	return r, nil
}

// result is the cut to record on the instance, nil when nothing was cut.
func (c *cappingAgent) result() *ReplyCut {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cut.Replies == 0 {
		return nil
	}
	cut := c.cut
	return &cut
}

// replySize is the bytes a reply holds.
func replySize(r *agent.Reply) int {
	n := len(r.Content) + len(r.Reasoning) + len(r.ParseError)
	for _, tc := range r.ToolCalls {
		n += len(tc.ID) + len(tc.Name) + len(tc.Arguments) + len(tc.RawArguments) + len(tc.ArgumentsError)
	}
	return n
}

// capReply cuts a reply to at most limit bytes (plus the few bytes of a
// note) and returns how many bytes it removed. The text keeps its start
// (cut on a character boundary); the reasoning gets what the text left.
// Tool calls that do not fit whole are not kept, and the reply then
// carries a parse error: calls cut away could have been the second call
// that fails Task 4, so a reply too large to keep never passes on what
// was kept of it.
func capReply(r *agent.Reply, limit int) int {
	before := replySize(r)
	if before <= limit {
		return 0
	}
	left := limit
	r.Content = cutText(r.Content, left)
	left -= len(r.Content)
	kept := r.ToolCalls[:0]
	dropped := 0
	for _, tc := range r.ToolCalls {
		size := len(tc.ID) + len(tc.Name) + len(tc.Arguments) + len(tc.RawArguments) + len(tc.ArgumentsError)
		if size > left {
			dropped++
			continue
		}
		left -= size
		kept = append(kept, tc)
	}
	if len(kept) == 0 {
		kept = nil
	}
	r.ToolCalls = kept
	r.ParseError = cutText(r.ParseError, max(left, 0))
	left -= len(r.ParseError)
	if dropped > 0 {
		note := fmt.Sprintf("%d tool calls of the reply did not fit in the %d bytes a reply may hold", dropped, limit)
		if r.ParseError != "" {
			note = r.ParseError + "; " + note
		}
		r.ParseError = note
	}
	r.Reasoning = cutText(r.Reasoning, max(left, 0))
	return max(before-replySize(r), 0)
}

// cutText keeps at most n bytes of s, cut on a character boundary, in a
// copy of their own: a slice of s would keep all of s alive.
func cutText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return strings.Clone(s[:n])
}
