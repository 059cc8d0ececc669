package cache

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/understudy/understudy/internal/canon"
)

// Entry is one recorded answer. Response is compact JSON; callers must treat
// Arguments and Response as read-only, since Get shares them with the cache.
type Entry struct {
	Tool      string
	API       string
	Arguments json.RawMessage // canonical JSON, "{}" for none
	Status    int             // HTTP status the API answered with (200 when unset)
	Response  json.RawMessage
	// Source says where the answer came from: "remote" (a real API),
	// "mock" (a stand-in, as in the shipped recordings toolserver
	// -record-examples writes), "stabletoolbench" (imported), "hand"
	// (written by a person).
	Source     string
	RecordedAt time.Time
	// Edited is set on load when the checksum no longer matches: the entry
	// file was changed by hand after it was recorded.
	Edited bool
}

// entryFormat names the on-disk layout of an entry file.
const entryFormat = "understudy-recording/1"

// entryFile is the JSON document stored per entry. Field order is the order
// written, chosen so the file reads top-down as a recording.
type entryFile struct {
	Format     string          `json:"format"`
	Key        string          `json:"key"`
	Tool       string          `json:"tool"`
	API        string          `json:"api"`
	Arguments  json.RawMessage `json:"arguments"`
	Status     int             `json:"status"`
	Source     string          `json:"source,omitempty"`
	RecordedAt string          `json:"recorded_at,omitempty"`
	Response   json.RawMessage `json:"response"`
	Checksum   string          `json:"checksum,omitempty"`
}

// size approximates the memory an entry holds, for the cache's byte bound.
func (e *Entry) size() int64 {
	const overhead = 256 // struct, map slot, list element, key string
	return int64(overhead + len(e.Tool) + len(e.API) + len(e.Arguments) + len(e.Response) + len(e.Source))
}

// checksum covers everything a recording says, each part framed by its
// length. It is computed over the compact response and canonical arguments,
// so re-indenting a file by hand does not count as an edit.
func checksum(tool, api string, args []byte, status int, response []byte, source, recordedAt string) string {
	h := sha256.New()
	var n [20]byte
	for _, part := range [][]byte{[]byte(tool), []byte(api), args, strconv.AppendInt(nil, int64(status), 10), response, []byte(source), []byte(recordedAt)} {
		h.Write(strconv.AppendInt(n[:0], int64(len(part)), 10))
		h.Write([]byte{':'})
		h.Write(part)
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}

// encodeEntry renders the file for e under key k. e.Response must be compact
// JSON and k's arguments canonical.
func encodeEntry(k Key, e *Entry) ([]byte, error) {
	rec := ""
	if !e.RecordedAt.IsZero() {
		rec = e.RecordedAt.UTC().Format(time.RFC3339Nano)
	}
	f := entryFile{
		Format:     entryFormat,
		Key:        k.hash,
		Tool:       k.tool,
		API:        k.api,
		Arguments:  json.RawMessage(k.args),
		Status:     e.Status,
		Source:     e.Source,
		RecordedAt: rec,
		Response:   e.Response,
		Checksum:   checksum(k.tool, k.api, []byte(k.args), e.Status, e.Response, e.Source, rec),
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(&f); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// compactJSON returns b without insignificant whitespace, or an error when b
// is not exactly one JSON value.
func compactJSON(b []byte) ([]byte, error) {
	if len(bytes.TrimSpace(b)) == 0 {
		return nil, errors.New("empty JSON value")
	}
	var buf bytes.Buffer
	buf.Grow(len(b))
	if err := json.Compact(&buf, b); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// decodeEntry parses an entry file found at path and checks that it belongs
// to wantHash (when not empty). strict turns a checksum mismatch into an
// error instead of marking the entry Edited. It never panics.
func decodeEntry(path string, data []byte, wantHash string, strict bool) (Entry, error) {
	bad := func(reason string, err error) (Entry, error) {
		return Entry{}, &CorruptError{Path: path, Reason: reason, Err: err}
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return bad("empty file", nil)
	}
	var f entryFile
	if err := json.Unmarshal(data, &f); err != nil {
		return bad("truncated or not a JSON object", err)
	}
	switch {
	case f.Format == entryFormat:
	case strings.HasPrefix(f.Format, "understudy-recording/"):
		// A later version's entry may mean what this one cannot read:
		// it is refused, never served as if it were version 1.
		e, err := bad(`"format" `+strconv.Quote(f.Format)+` is not one this version reads (`+entryFormat+`); the entry is kept as it is`, nil)
		err.(*CorruptError).Format = f.Format
		return e, err
	default:
		return bad(`missing or unknown "format" (want "`+entryFormat+`")`, nil)
	}
	if f.Tool == "" || f.API == "" {
		return bad(`missing "tool" or "api"`, nil)
	}
	if len(f.Response) == 0 {
		return bad(`missing "response"`, nil)
	}
	if f.Status < 0 || f.Status > 999 {
		return bad("status "+strconv.Itoa(f.Status)+" is not an HTTP status", nil)
	}
	args := []byte("{}")
	if len(f.Arguments) > 0 && string(f.Arguments) != "null" {
		if bytes.TrimSpace(f.Arguments)[0] != '{' {
			return bad(`"arguments" is not a JSON object`, nil)
		}
		c, err := canon.JSON(f.Arguments)
		if err != nil {
			return bad(`"arguments" cannot be canonicalised`, err)
		}
		if string(c) != "{}" {
			args = c
		}
	}
	resp, err := compactJSON(f.Response)
	if err != nil {
		return bad(`"response" is not JSON`, err)
	}
	var at time.Time
	if f.RecordedAt != "" {
		if at, err = time.Parse(time.RFC3339Nano, f.RecordedAt); err != nil {
			return bad(`"recorded_at" is not RFC 3339`, err)
		}
	}
	if wantHash != "" {
		if got := hashParts(f.Tool, f.API, string(args)); got != wantHash {
			return bad("tool, api and arguments belong to key "+got+", not to this file's name (after editing the arguments, move the file to "+entryPath(got)+")", nil)
		}
	}
	status := f.Status
	e := Entry{Tool: f.Tool, API: f.API, Arguments: args, Status: status, Response: resp, Source: f.Source, RecordedAt: at}
	if f.Checksum != checksum(f.Tool, f.API, args, f.Status, resp, f.Source, f.RecordedAt) {
		if strict {
			return bad("checksum mismatch", nil)
		}
		e.Edited = true
	}
	if e.Status == 0 {
		e.Status = 200
	}
	return e, nil
}

// entryPath is the slash-separated path of an entry below the store root.
// Only a validated hash ever reaches it, so no request text becomes a path.
func entryPath(hash string) string {
	return hash[:2] + "/" + hash + ".json"
}
