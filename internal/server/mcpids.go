package server

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
)

// The MCP SDK keeps a request's id as a string or an int64: a number is
// decoded as a float64 and converted, so 1e308 came back as
// -9223372036854775808, 9007199254740993 as 9007199254740992 and 1.5 as 1,
// and distinct ids became one. Ids it would change go to it as a stand-in
// string that spells the id as written, and answers carry the id back as
// the client wrote it: over stdio (StdioTransport) and HTTP (exactMCPIDs).

// aliasPrefix starts a stand-in id: aliasPrefix followed by the id's JSON
// as written. A client's own string id with this prefix gets a stand-in
// too, so no two ids meet.
const aliasPrefix = "understudy-id:"

// idKey is the identity of an id: two ids are the same request when they
// are the same string, or the same number as written.
func idKey(raw json.RawMessage) (key string, ok bool) {
	switch {
	case len(raw) == 0:
		return "", false
	case raw[0] == '"':
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return "", false
		}
		return "s" + s, true
	case raw[0] == '-' || raw[0] >= '0' && raw[0] <= '9':
		return "n" + string(raw), true
	}
	return "", false
}

// sdkKeeps reports whether the SDK answers id exactly as written: a
// string (without the stand-ins' prefix), or an integer written plainly
// that a float64, through which the SDK decodes it, holds exactly.
func sdkKeeps(raw json.RawMessage) bool {
	if raw[0] == '"' {
		var s string
		return json.Unmarshal(raw, &s) == nil && !strings.HasPrefix(s, aliasPrefix)
	}
	digits := strings.TrimPrefix(string(raw), "-")
	if digits == "" || digits == "0" && raw[0] == '-' || len(digits) > 1 && digits[0] == '0' || strings.Trim(digits, "0123456789") != "" {
		return false
	}
	n, err := strconv.ParseInt(string(raw), 10, 64)
	return err == nil && n >= -(1<<53) && n <= 1<<53
}

// sdkID is the id the SDK is given for an id written raw (a string or a
// number), and whether it differs: the same stand-in for the same id, so
// that the SDK still tells a duplicate and a cancellation finds its
// request.
func sdkID(raw json.RawMessage) (json.RawMessage, bool) {
	if _, ok := idKey(raw); !ok || sdkKeeps(raw) {
		return raw, false
	}
	var compact bytes.Buffer
	if json.Compact(&compact, raw) != nil {
		return raw, false
	}
	alias, err := json.Marshal(aliasPrefix + compact.String())
	if err != nil {
		return raw, false
	}
	return alias, true
}

// writtenID is the id as the client wrote it for an id the SDK answered
// with, and whether it was a stand-in.
func writtenID(id json.RawMessage) (json.RawMessage, bool) {
	if len(id) == 0 || id[0] != '"' || !bytes.Contains(id, []byte(aliasPrefix)) {
		return id, false
	}
	var s string
	if json.Unmarshal(id, &s) != nil {
		return id, false
	}
	written, ok := strings.CutPrefix(s, aliasPrefix)
	if !ok {
		return id, false
	}
	if _, ok := idKey(json.RawMessage(written)); !ok || !json.Valid([]byte(written)) {
		return id, false
	}
	return json.RawMessage(written), true
}

// toSDK rewrites one JSON-RPC message (a decoded object) for the SDK: a
// request's id, and the requestId a cancellation names. It reports whether
// anything changed.
func toSDK(msg map[string]json.RawMessage) bool {
	if msg["method"] == nil {
		return false // an answer to a request of the server's: its id is the server's
	}
	changed := false
	if id, ok := sdkID(msg["id"]); ok {
		msg["id"], changed = id, true
	}
	if string(msg["method"]) == `"notifications/cancelled"` {
		var params map[string]json.RawMessage
		if json.Unmarshal(msg["params"], &params) == nil {
			if id, ok := sdkID(params["requestId"]); ok {
				params["requestId"] = id
				msg["params"] = marshalLine(params, msg["params"])
				changed = true
			}
		}
	}
	return changed
}

// fromSDK gives an answer of the SDK (a decoded object) its id as the
// client wrote it, reporting whether it changed.
func fromSDK(msg map[string]json.RawMessage) bool {
	if msg["method"] != nil {
		return false
	}
	id, ok := writtenID(msg["id"])
	if ok {
		msg["id"] = id
	}
	return ok
}

// rewriteJSON applies fn to a JSON-RPC message or to each of a batch,
// returning doc re-encoded when fn changed any, else doc itself.
func rewriteJSON(doc []byte, fn func(map[string]json.RawMessage) bool) ([]byte, bool) {
	trimmed := bytes.TrimSpace(doc)
	if len(trimmed) == 0 {
		return doc, false
	}
	if trimmed[0] == '{' {
		var msg map[string]json.RawMessage
		if json.Unmarshal(trimmed, &msg) != nil || !fn(msg) {
			return doc, false
		}
		return marshalLine(msg, doc), true
	}
	var batch []map[string]json.RawMessage
	if trimmed[0] != '[' || json.Unmarshal(trimmed, &batch) != nil {
		return doc, false
	}
	changed := false
	for _, msg := range batch {
		if msg != nil && fn(msg) {
			changed = true
		}
	}
	if !changed {
		return doc, false
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if enc.Encode(batch) != nil {
		return doc, false
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), true
}

// exactMCPIDs keeps MCP ids over HTTP exactly as the client wrote them: a
// request whose id the SDK would change goes to it under a stand-in, and
// its answer, a JSON body or an event stream, carries the id as written.
// The body is already read (readBody).
func exactMCPIDs(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.Body == nil {
			next.ServeHTTP(w, r)
			return
		}
		body, err := io.ReadAll(r.Body)
		if err != nil { // over the size limit: the SDK answers it
			r.Body = io.NopCloser(io.MultiReader(bytes.NewReader(body), errReader{err}))
			next.ServeHTTP(w, r)
			return
		}
		out, changed := rewriteJSON(body, toSDK)
		r.Body = io.NopCloser(bytes.NewReader(out))
		if !changed {
			next.ServeHTTP(w, r)
			return
		}
		r.ContentLength = int64(len(out))
		rw := &idRestorer{ResponseWriter: w}
		defer rw.finish()
		next.ServeHTTP(rw, r)
	})
}

// idRestorer passes an answer on line by line, giving each JSON-RPC
// message in it (a JSON body, or an event's data line) its ids as written.
type idRestorer struct {
	http.ResponseWriter
	partial []byte // the start of a line not yet complete
}

func (w *idRestorer) WriteHeader(code int) {
	w.Header().Del("Content-Length") // a restored id may differ in length
	w.ResponseWriter.WriteHeader(code)
}

func (w *idRestorer) Write(p []byte) (int, error) {
	w.partial = append(w.partial, p...)
	for {
		i := bytes.IndexByte(w.partial, '\n')
		if i < 0 {
			return len(p), nil
		}
		line := w.partial[:i+1]
		if _, err := w.ResponseWriter.Write(restoreLine(line)); err != nil {
			return 0, err
		}
		w.partial = w.partial[i+1:]
	}
}

// Flush passes on the lines complete so far (an event ends with one).
func (w *idRestorer) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the connection.
func (w *idRestorer) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// finish writes the last line, which a JSON body does not end.
func (w *idRestorer) finish() {
	if len(w.partial) > 0 {
		_, _ = w.ResponseWriter.Write(restoreLine(w.partial))
		w.partial = nil
	}
}

// restoreLine restores the ids in one line of an answer: a JSON body, or an
// event stream's "data:" line.
func restoreLine(line []byte) []byte {
	if !bytes.Contains(line, []byte(aliasPrefix)) {
		return line
	}
	body, end := line, []byte(nil)
	if i := len(body) - len(bytes.TrimRight(body, "\r\n")); i > 0 {
		body, end = body[:len(body)-i], body[len(body)-i:]
	}
	head := []byte(nil)
	if rest, ok := bytes.CutPrefix(body, []byte("data:")); ok {
		head, body = body[:len(body)-len(rest)], rest
	}
	out, changed := rewriteJSON(body, fromSDK)
	if !changed {
		return line
	}
	lead := body[:len(body)-len(bytes.TrimLeft(body, " "))]
	return append(append(append(append([]byte(nil), head...), lead...), out...), end...)
}
