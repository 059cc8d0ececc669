package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// DefaultMaxStdioLine bounds one line of MCP over stdio, as the SDK's own
// stdio transport does.
const DefaultMaxStdioLine = mcp.DefaultMaxLineLength

// StdioTransport serves MCP as newline-delimited JSON over Reader and
// Writer, through the SDK's own connection. Four things differ from
// mcp.StdioTransport, whose session ends on the first bad line and cancels
// the requests still running when input ends:
//
//   - every line is checked before it reaches the SDK, and a line that is
//     not one JSON-RPC 2.0 message is answered with a JSON-RPC error (parse
//     error -32700, invalid request -32600) while serving goes on;
//   - at the end of input, every request already read is answered before
//     the session ends, so `printf 'initialize\ncall\n' | toolserver -stdio`
//     answers both (within DrainTimeout);
//   - a request whose id is already in flight is answered with -32600,
//     as over HTTP, and never reaches the SDK (which answered it with a
//     null id, so that the first request's answer seemed owed twice and the
//     session never ended);
//   - ids are answered as written: the SDK keeps an id as a string or an
//     int64, so a number that is not a plain integer it holds exactly
//     (1e308, 1.5, 9007199254740993) goes to it under a stand-in string
//     and comes back as the client wrote it (mcpids.go).
//
// Batches (a JSON array on one line) are answered with -32600: MCP removed
// them in protocol 2025-06-18, and the SDK ends the session on one.
type StdioTransport struct {
	Reader io.Reader
	Writer io.Writer
	// MaxLineLength bounds one input line in bytes (0: DefaultMaxStdioLine).
	// A longer line is discarded and answered with -32600.
	MaxLineLength int
	// DrainTimeout bounds how long the requests still running at the end
	// of input are waited for (0: DefaultStdioDrain); the session then
	// ends, cancelling them.
	DrainTimeout time.Duration
}

// DefaultStdioDrain is how long requests running when input ends are
// waited for: longer than any one call takes (an upstream call is bounded
// by its timeout and retries), short enough that a client that closed its
// end does not wait on a process that never exits.
const DefaultStdioDrain = 2 * time.Minute

var _ mcp.Transport = (*StdioTransport)(nil)

// Connect implements mcp.Transport.
func (t *StdioTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	if t.Reader == nil || t.Writer == nil {
		return nil, errors.New("server: StdioTransport needs a Reader and a Writer")
	}
	max := t.MaxLineLength
	if max <= 0 {
		max = DefaultMaxStdioLine
	}
	drain := t.DrainTimeout
	if drain <= 0 {
		drain = DefaultStdioDrain
	}
	ids := newIDTable()
	w := &lineWriter{w: t.Writer, ids: ids}
	f := &lineFilter{src: bufio.NewReaderSize(t.Reader, 64<<10), reply: w, max: max, ids: ids, closed: make(chan struct{})}
	// The filter already bounds lines, so the SDK's own cap (which ends the
	// session when hit) is turned off.
	inner, err := (&mcp.IOTransport{Reader: f, Writer: w, MaxLineLength: -1}).Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &drainingConn{Connection: inner, ids: ids, drainFor: drain, closed: make(chan struct{})}, nil
}

// lineWriter serialises whole lines from the SDK and from the filter's
// error answers, so the two never interleave within a line. A line from
// the SDK answering a request gets its id back as the client wrote it.
type lineWriter struct {
	mu  sync.Mutex
	w   io.Writer
	ids *idTable
}

// Write writes one line of the SDK (its connection writes each message
// whole, in one call).
func (l *lineWriter) Write(p []byte) (int, error) {
	out := l.ids.answered(p)
	if out == nil {
		return len(p), nil // the answer to a cancelled request
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, err := l.w.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}

// writeOwn writes an answer of the filter itself, whose id is already as
// the client wrote it.
func (l *lineWriter) writeOwn(p []byte) {
	l.mu.Lock()
	defer l.mu.Unlock()
	_, _ = l.w.Write(p)
}

// Close leaves the underlying writer open (it is the process's stdout).
func (l *lineWriter) Close() error { return nil }

// lineFilter hands the SDK only lines that are one valid JSON-RPC message
// and answers the others itself. Only the SDK's reading goroutine calls Read.
type lineFilter struct {
	src   *bufio.Reader
	reply ownWriter
	ids   *idTable
	max   int
	buf   []byte // the checked line not yet read by the SDK
	err   error  // the source's error, returned once buf is empty

	closeOnce sync.Once
	closed    chan struct{}
}

func (f *lineFilter) Read(p []byte) (int, error) {
	for len(f.buf) == 0 {
		if f.err != nil {
			return 0, f.err
		}
		if f.isClosed() {
			return 0, io.EOF
		}
		line, tooLong, err := f.readLine()
		if err != nil {
			f.err = err
		}
		if tooLong {
			f.answer(errorLine(nil, jsonrpc.CodeInvalidRequest, fmt.Sprintf("line longer than %d bytes", f.max)))
			continue
		}
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		if ok, ans := CheckStdioLine(line); !ok {
			f.answer(ans)
			continue
		}
		if ans := checkToolName(line); ans != nil {
			f.answer(ans)
			continue
		}
		line, ans := f.ids.request(line)
		if ans != nil {
			f.answer(ans)
			continue
		}
		f.buf = append(line, '\n')
	}
	n := copy(p, f.buf)
	f.buf = f.buf[n:]
	return n, nil
}

func (f *lineFilter) isClosed() bool {
	select {
	case <-f.closed:
		return true
	default:
		return false
	}
}

// Close makes later reads end; the underlying reader (stdin) stays open.
func (f *lineFilter) Close() error {
	f.closeOnce.Do(func() { close(f.closed) })
	return nil
}

// readLine reads one line without its newline, holding at most max bytes:
// the rest of a longer line is read and dropped.
func (f *lineFilter) readLine() (line []byte, tooLong bool, err error) {
	for {
		chunk, err := f.src.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(chunk) > f.max+1 { // +1: the newline
				tooLong, line = true, nil
			} else {
				line = append(line, chunk...)
			}
		}
		switch {
		case err == nil:
			return bytes.TrimSuffix(line, []byte("\n")), tooLong, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		default:
			// The last line may lack its newline; it is still a line.
			return line, tooLong, err
		}
	}
}

// ownWriter takes the filter's own answers (lineWriter.writeOwn).
type ownWriter interface{ writeOwn(line []byte) }

// answer writes an error line; a failed write ends nothing (the SDK's own
// next write reports a broken output).
func (f *lineFilter) answer(line []byte) {
	if len(line) > 0 {
		f.reply.writeOwn(line)
	}
}

// CheckStdioLine checks one non-blank input line of MCP over stdio. ok is
// true when the line is exactly one JSON-RPC 2.0 message the SDK accepts.
// Otherwise answer is the JSON-RPC error line (with its newline) to write
// back: -32700 for text that is not JSON, -32600 for JSON that is not a
// message. The error carries the line's id when one can be read from a
// request, and null otherwise, as JSON-RPC 2.0 (§5) says. A batch of
// notifications only is dropped with no answer (answer is nil).
func CheckStdioLine(line []byte) (ok bool, answer []byte) {
	if !json.Valid(line) {
		return false, errorLine(nil, jsonrpc.CodeParseError, "parse error: the line is not one JSON value")
	}
	switch line[0] {
	case '{':
	case '[':
		return false, batchError(line)
	default:
		return false, errorLine(nil, jsonrpc.CodeInvalidRequest, "invalid request: a message is a JSON object")
	}
	if _, err := jsonrpc.DecodeMessage(line); err != nil {
		return false, errorLine(requestID(line), jsonrpc.CodeInvalidRequest, "invalid request: "+err.Error())
	}
	return true, nil
}

// checkToolName answers a tools/call whose tool name is over MaxNameLen or
// holds a control character (checkName) with -32602, as limitMCPNames
// refuses it over HTTP; nil for any other line.
func checkToolName(line []byte) []byte {
	var call struct {
		Method string `json:"method"`
		Params struct {
			Name string `json:"name"`
		} `json:"params"`
	}
	if json.Unmarshal(line, &call) != nil || call.Method != "tools/call" {
		return nil
	}
	if p := checkName("tool name", call.Params.Name, MaxNameLen); p != nil {
		return errorLine(requestID(line), jsonrpc.CodeInvalidParams, "invalid params: "+p.Detail)
	}
	return nil
}

// batchError answers a batch: one error for an empty one (JSON-RPC 2.0 §6),
// otherwise one per request that has an id, in order; nothing when the
// batch holds only notifications.
func batchError(line []byte) []byte {
	var elems []json.RawMessage
	if err := json.Unmarshal(line, &elems); err != nil || len(elems) == 0 {
		return errorLine(nil, jsonrpc.CodeInvalidRequest, "invalid request: empty batch")
	}
	const msg = "invalid request: JSON-RPC batches are not supported (MCP removed them in 2025-06-18); send one message per line"
	var out []json.RawMessage
	for _, e := range elems {
		id := requestID(e)
		if id == nil {
			continue
		}
		out = append(out, bytes.TrimSuffix(errorLine(id, jsonrpc.CodeInvalidRequest, msg), []byte("\n")))
	}
	if len(out) == 0 {
		return nil
	}
	b, _ := json.Marshal(out) // raw messages made by errorLine
	return append(b, '\n')
}

// requestID is the id of a line that tries to be a request (it names a
// method), as written, when it is a string or a number; nil otherwise.
func requestID(line []byte) json.RawMessage {
	var probe struct {
		Method json.RawMessage `json:"method"`
		ID     json.RawMessage `json:"id"`
	}
	if json.Unmarshal(line, &probe) != nil || probe.Method == nil || len(probe.ID) == 0 {
		return nil
	}
	switch c := probe.ID[0]; {
	case c == '"', c == '-', c >= '0' && c <= '9':
		return probe.ID
	}
	return nil
}

// errorLine renders a JSON-RPC error response. It is written here rather
// than by the SDK's encoder, which leaves out a null id where JSON-RPC 2.0
// (§5) requires "id": null.
// id is the request's id as written (nil: null).
func errorLine(id json.RawMessage, code int64, msg string) []byte {
	type wireError struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	}
	if id == nil {
		id = json.RawMessage("null")
	}
	b, err := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   wireError       `json:"error"`
	}{"2.0", id, wireError{code, msg}})
	if err != nil {
		// Only a failing encoder gets here; the answer still parses.
		b = []byte(`{"jsonrpc":"2.0","id":null,"error":{"code":-32603,"message":"internal error"}}`)
	}
	return append(b, '\n')
}

// drainingConn holds back the end of input until every request already
// read has been answered (or DrainTimeout has passed), instead of letting
// the SDK cancel them. The requests in flight are the idTable's: the
// filter adds each call it passes on (a duplicate never gets there), the
// writer removes each as it is answered.
type drainingConn struct {
	mcp.Connection
	ids      *idTable
	drainFor time.Duration
	closed   chan struct{}
	once     sync.Once
}

func (c *drainingConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if err != nil && errors.Is(err, io.EOF) {
		c.drain(ctx)
	}
	return msg, err
}

// drain waits until no request is in flight, the context ends, the
// connection is closed or drainFor has passed.
func (c *drainingConn) drain(ctx context.Context) {
	limit := time.NewTimer(c.drainFor)
	defer limit.Stop()
	for {
		idle := c.ids.idle()
		if idle == nil {
			return
		}
		select {
		case <-idle:
		case <-ctx.Done():
			return
		case <-c.closed:
			return
		case <-limit.C:
			return
		}
	}
}

func (c *drainingConn) Close() error {
	c.once.Do(func() { close(c.closed) })
	return c.Connection.Close()
}

// idTable tracks the requests in flight between the filter and the SDK's
// answers: it refuses an id already in flight and gives ids the SDK cannot
// hold exactly a stand-in, restoring them in the answer.
//
// A request the client cancelled (notifications/cancelled) while in flight
// is not answered: the MCP spec says the receiver should not send a
// response for it, and the SDK still sent its result, or its error.
type idTable struct {
	mu       sync.Mutex
	inFlight map[string]bool // the ids' identities (idKey) → cancelled
	idleCh   chan struct{}   // closed when inFlight empties, while someone waits
}

func newIDTable() *idTable {
	return &idTable{inFlight: map[string]bool{}}
}

// cancel marks the request a cancellation names, if it is in flight.
func (t *idTable) cancel(msg map[string]json.RawMessage) {
	if string(msg["method"]) != `"notifications/cancelled"` {
		return
	}
	var params struct {
		RequestID json.RawMessage `json:"requestId"`
	}
	if json.Unmarshal(msg["params"], &params) != nil {
		return
	}
	key, ok := idKey(params.RequestID)
	if !ok {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if _, running := t.inFlight[key]; running {
		t.inFlight[key] = true
	}
}

// request registers a call line the filter passes on. It returns the line
// to hand the SDK (with a stand-in id when needed), or, for a call whose
// id is already in flight, the -32600 answer to write instead.
func (t *idTable) request(line []byte) (out []byte, answer []byte) {
	var msg map[string]json.RawMessage
	if json.Unmarshal(line, &msg) != nil {
		return line, nil
	}
	method, raw := msg["method"], msg["id"]
	if method == nil {
		return line, nil // an answer to a request of the server's
	}
	key, isCall := idKey(raw)
	if !isCall {
		// A notification: a cancellation names its request by its
		// stand-in.
		t.cancel(msg)
		if toSDK(msg) {
			return marshalLine(msg, line), nil
		}
		return line, nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if _, dup := t.inFlight[key]; dup {
		return nil, errorLine(raw, jsonrpc.CodeInvalidRequest, "invalid request: duplicate in-flight request ID "+string(raw)+" (the request with this id is still running)")
	}
	t.inFlight[key] = false
	if !toSDK(msg) {
		return line, nil
	}
	return marshalLine(msg, line), nil
}

// answered notes a line the SDK writes. An answer to a request ends it
// being in flight, and one to a request with a stand-in id gets the id
// as written back; the answer to a cancelled request is dropped (nil).
func (t *idTable) answered(line []byte) []byte {
	var probe struct {
		Method json.RawMessage `json:"method"`
		ID     json.RawMessage `json:"id"`
	}
	if json.Unmarshal(line, &probe) != nil || probe.Method != nil {
		return line // a request or notification of the server's
	}
	key, ok := idKey(probe.ID)
	if !ok {
		return line
	}
	written, aliased := writtenID(probe.ID)
	if aliased {
		key, _ = idKey(written)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	cancelled := t.inFlight[key]
	delete(t.inFlight, key)
	if len(t.inFlight) == 0 && t.idleCh != nil {
		close(t.idleCh)
		t.idleCh = nil
	}
	if cancelled {
		return nil
	}
	if !aliased {
		return line
	}
	return restoreLine(line)
}

// idle is nil when no request is in flight, or else a channel closed
// once none is.
func (t *idTable) idle() <-chan struct{} {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.inFlight) == 0 {
		return nil
	}
	if t.idleCh == nil {
		t.idleCh = make(chan struct{})
	}
	return t.idleCh
}

// marshalLine encodes a rewritten message on one line, HTML characters
// as they are; it returns orig should encoding fail.
func marshalLine(msg map[string]json.RawMessage, orig []byte) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if enc.Encode(msg) != nil {
		return orig
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}
