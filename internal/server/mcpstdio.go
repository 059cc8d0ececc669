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

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// DefaultMaxStdioLine bounds one line of MCP over stdio, as the SDK's own
// stdio transport does.
const DefaultMaxStdioLine = mcp.DefaultMaxLineLength

// StdioTransport serves MCP as newline-delimited JSON over Reader and
// Writer, through the SDK's own connection. Two things differ from
// mcp.StdioTransport, whose session ends on the first bad line and cancels
// the requests still running when input ends:
//
//   - every line is checked before it reaches the SDK, and a line that is
//     not one JSON-RPC 2.0 message is answered with a JSON-RPC error (parse
//     error -32700, invalid request -32600) while serving goes on;
//   - at the end of input, every request already read is answered before
//     the session ends, so `printf 'initialize\ncall\n' | toolserver -stdio`
//     answers both.
//
// Batches (a JSON array on one line) are answered with -32600: MCP removed
// them in protocol 2025-06-18, and the SDK ends the session on one.
type StdioTransport struct {
	Reader io.Reader
	Writer io.Writer
	// MaxLineLength bounds one input line in bytes (0: DefaultMaxStdioLine).
	// A longer line is discarded and answered with -32600.
	MaxLineLength int
}

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
	w := &lineWriter{w: t.Writer}
	f := &lineFilter{src: bufio.NewReaderSize(t.Reader, 64<<10), reply: w, max: max, closed: make(chan struct{})}
	// The filter already bounds lines, so the SDK's own cap (which ends the
	// session when hit) is turned off.
	inner, err := (&mcp.IOTransport{Reader: f, Writer: w, MaxLineLength: -1}).Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &drainingConn{Connection: inner, pending: map[jsonrpc.ID]int{}, closed: make(chan struct{})}, nil
}

// lineWriter serialises whole lines from the SDK and from the filter's
// error answers, so the two never interleave within a line.
type lineWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lineWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// Close leaves the underlying writer open (it is the process's stdout).
func (l *lineWriter) Close() error { return nil }

// lineFilter hands the SDK only lines that are one valid JSON-RPC message
// and answers the others itself. Only the SDK's reading goroutine calls Read.
type lineFilter struct {
	src   *bufio.Reader
	reply io.Writer
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
			f.answer(errorLine(jsonrpc.ID{}, jsonrpc.CodeInvalidRequest, fmt.Sprintf("line longer than %d bytes", f.max)))
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

// answer writes an error line; a failed write ends nothing (the SDK's own
// next write reports a broken output).
func (f *lineFilter) answer(line []byte) {
	if len(line) > 0 {
		_, _ = f.reply.Write(line)
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
		return false, errorLine(jsonrpc.ID{}, jsonrpc.CodeParseError, "parse error: the line is not one JSON value")
	}
	switch line[0] {
	case '{':
	case '[':
		return false, batchError(line)
	default:
		return false, errorLine(jsonrpc.ID{}, jsonrpc.CodeInvalidRequest, "invalid request: a message is a JSON object")
	}
	if _, err := jsonrpc.DecodeMessage(line); err != nil {
		return false, errorLine(requestID(line), jsonrpc.CodeInvalidRequest, "invalid request: "+err.Error())
	}
	return true, nil
}

// batchError answers a batch: one error for an empty one (JSON-RPC 2.0 §6),
// otherwise one per request that has an id, in order; nothing when the
// batch holds only notifications.
func batchError(line []byte) []byte {
	var elems []json.RawMessage
	if err := json.Unmarshal(line, &elems); err != nil || len(elems) == 0 {
		return errorLine(jsonrpc.ID{}, jsonrpc.CodeInvalidRequest, "invalid request: empty batch")
	}
	const msg = "invalid request: JSON-RPC batches are not supported (MCP removed them in 2025-06-18); send one message per line"
	var out []json.RawMessage
	for _, e := range elems {
		id := requestID(e)
		if !id.IsValid() {
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
// method), when the id is a string or an integer; the zero ID otherwise.
func requestID(line []byte) jsonrpc.ID {
	var probe struct {
		Method json.RawMessage `json:"method"`
		ID     json.RawMessage `json:"id"`
	}
	if json.Unmarshal(line, &probe) != nil || probe.Method == nil || len(probe.ID) == 0 {
		return jsonrpc.ID{}
	}
	var s string
	if json.Unmarshal(probe.ID, &s) == nil {
		id, _ := jsonrpc.MakeID(s)
		return id
	}
	var n int64
	if json.Unmarshal(probe.ID, &n) == nil {
		id, _ := jsonrpc.MakeID(float64(n))
		if id.Raw() == n {
			return id
		}
	}
	return jsonrpc.ID{}
}

// errorLine renders a JSON-RPC error response. It is written here rather
// than by the SDK's encoder, which leaves out a null id where JSON-RPC 2.0
// (§5) requires "id": null.
func errorLine(id jsonrpc.ID, code int64, msg string) []byte {
	type wireError struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	}
	b, err := json.Marshal(struct {
		JSONRPC string    `json:"jsonrpc"`
		ID      any       `json:"id"`
		Error   wireError `json:"error"`
	}{"2.0", id.Raw(), wireError{code, msg}})
	if err != nil {
		// Only a failing encoder gets here; the answer still parses.
		b = []byte(`{"jsonrpc":"2.0","id":null,"error":{"code":-32603,"message":"internal error"}}`)
	}
	return append(b, '\n')
}

// drainingConn holds back the end of input until every request already
// read has been answered, instead of letting the SDK cancel them.
type drainingConn struct {
	mcp.Connection
	mu      sync.Mutex
	pending map[jsonrpc.ID]int
	idle    chan struct{} // closed when pending becomes empty, while someone waits
	closed  chan struct{}
	once    sync.Once
}

func (c *drainingConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if err == nil {
		if req, ok := msg.(*jsonrpc.Request); ok && req.IsCall() {
			c.mu.Lock()
			c.pending[req.ID]++
			c.mu.Unlock()
		}
		return msg, nil
	}
	if errors.Is(err, io.EOF) {
		c.drain(ctx)
	}
	return nil, err
}

// drain waits until no request is pending, the context ends or the
// connection is closed.
func (c *drainingConn) drain(ctx context.Context) {
	for {
		c.mu.Lock()
		if len(c.pending) == 0 {
			c.mu.Unlock()
			return
		}
		if c.idle == nil {
			c.idle = make(chan struct{})
		}
		idle := c.idle
		c.mu.Unlock()
		select {
		case <-idle:
		case <-ctx.Done():
			return
		case <-c.closed:
			return
		}
	}
}

func (c *drainingConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	err := c.Connection.Write(ctx, msg)
	if resp, ok := msg.(*jsonrpc.Response); ok {
		// Answered, or failed to answer for good: either way not pending.
		c.mu.Lock()
		if n := c.pending[resp.ID]; n > 1 {
			c.pending[resp.ID] = n - 1
		} else {
			delete(c.pending, resp.ID)
		}
		if len(c.pending) == 0 && c.idle != nil {
			close(c.idle)
			c.idle = nil
		}
		c.mu.Unlock()
	}
	return err
}

func (c *drainingConn) Close() error {
	c.once.Do(func() { close(c.closed) })
	return c.Connection.Close()
}
