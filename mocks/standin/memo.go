package standin

import (
	"container/list"
	"context"
	"sync"
	"time"

	"github.com/understudy/understudy/internal/canon"
	"github.com/understudy/understudy/mocks/world"
	"github.com/understudy/understudy/toolset"
)

// Encoded is an answer already in canonical JSON, as Encode writes it (a
// Memo keeps its answers so): Encode returns it as it is. Its MarshalJSON
// gives the same bytes, so every other encoder reads the same document.
type Encoded []byte

// MarshalJSON returns the encoded answer.
func (e Encoded) MarshalJSON() ([]byte, error) { return e, nil }

// Memo answers the calls of a pure stand-in from a cache: one whose answer
// is a function of the world, the API, the arguments and the clock's
// reading alone, never of the session's state (the seed, a function of
// the API and the arguments, is allowed). While
// the sandbox clock stands still, every call of such an API with the same
// arguments gets the same bytes, so each is computed and encoded once.
// The cache is bounded by maxBytes of answers, least recently used out
// first; an answer above an eighth of that is not kept. Refusals and
// errors are never kept.
func Memo(maxBytes int, h Handler) Handler {
	m := &memo{max: maxBytes, byKey: map[memoKey]*list.Element{}}
	return func(ctx context.Context, w *world.World, c *Call) (any, error) {
		args, err := canon.JSON(c.Args)
		if err != nil {
			return h(ctx, w, c) // the Mocker refuses such arguments before
		}
		k := memoKey{w: w, api: c.API, args: string(args), now: c.Now}
		if b, ok := m.get(k); ok {
			return b, nil
		}
		v, err := h(ctx, w, c)
		if err != nil {
			return v, err
		}
		b, err := Encode(v)
		if err != nil {
			return v, nil // the Mocker reports it
		}
		e := Encoded(b[:len(b):len(b)]) // shared: an append must copy
		m.put(k, e)
		return e, nil
	}
}

type memoKey struct {
	w    *world.World
	api  *toolset.API
	args string    // canonical JSON
	now  time.Time // compared with ==: another location is another key
}

type memoEntry struct {
	key  memoKey
	body Encoded
}

// memo is a least recently used cache bounded by the bytes it holds.
type memo struct {
	mu    sync.Mutex
	max   int
	size  int
	order list.List // front is the most recently used *memoEntry
	byKey map[memoKey]*list.Element
}

func (m *memo) get(k memoKey) (Encoded, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	el, ok := m.byKey[k]
	if !ok {
		return nil, false
	}
	m.order.MoveToFront(el)
	return el.Value.(*memoEntry).body, true
}

func (m *memo) put(k memoKey, b Encoded) {
	cost := len(b) + len(k.args)
	if cost > m.max/8 {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.byKey[k]; ok {
		return // a concurrent call kept the same bytes
	}
	m.byKey[k] = m.order.PushFront(&memoEntry{key: k, body: b})
	m.size += cost
	for m.size > m.max {
		old := m.order.Back()
		e := m.order.Remove(old).(*memoEntry)
		delete(m.byKey, e.key)
		m.size -= len(e.body) + len(e.key.args)
	}
}
