package cache

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
	"sync"

	"github.com/understudy/understudy/internal/canon"
)

// Key identifies one call: a tool, one of its APIs and the canonical JSON of
// the validated arguments, hashed with SHA-256. Keys are comparable values;
// the zero Key is invalid.
type Key struct {
	hash string
	tool string
	api  string
	args string
}

// keyVersion is mixed into every hash, so a future change of the key scheme
// never silently hits entries recorded under the old one.
const keyVersion = "understudy-key/1"

// KeyOf returns the key of a call. args must already be validated with
// defaults applied; nil and empty maps give the same key, and so do maps that
// differ only in key order or number spelling (5 and 5.0).
//
// KeyOf never fails: a value JSON cannot carry (NaN, ±Inf, a channel) is keyed
// by its Go formatting behind a leading "!", which no JSON text starts with,
// so it never collides with a real call. Such keys cannot be stored (Put
// rejects them) but still give deterministic misses.
func KeyOf(tool, api string, args map[string]any) Key {
	var argJSON string
	if len(args) == 0 {
		argJSON = "{}"
	} else if b, err := canon.JSON(args); err == nil {
		argJSON = string(b)
	} else {
		argJSON = "!" + fmt.Sprintf("%v", args)
	}
	return makeKey(tool, api, argJSON)
}

// KeyOfCanonical is KeyOf for a caller that has the canonical JSON of the
// arguments already (canon.JSON of the validated arguments): the same key,
// without encoding them again.
func KeyOfCanonical(tool, api string, canonicalArgs []byte) Key {
	return makeKey(tool, api, string(canonicalArgs))
}

// HashOfCanonical is KeyOfCanonical(tool, api, canonicalArgs).Hash(), for
// a caller that needs only the hash (the engine's lookups).
func HashOfCanonical(tool, api string, canonicalArgs []byte) string {
	return hashParts(tool, api, canonicalArgs)
}

// makeKey builds a key from arguments that are already canonical JSON.
func makeKey(tool, api, argJSON string) Key {
	return Key{hash: hashParts(tool, api, argJSON), tool: tool, api: api, args: argJSON}
}

// hashParts frames each part with its length, so no choice of names can make
// two different calls hash the same input.
func hashParts[T string | []byte](tool, api string, argJSON T) string {
	bp := hashBufs.Get().(*[]byte)
	buf := (*bp)[:0]
	buf = append(buf, keyVersion...)
	buf = append(buf, '\n')
	buf = strconv.AppendInt(buf, int64(len(tool)), 10)
	buf = append(buf, ':')
	buf = append(buf, tool...)
	buf = strconv.AppendInt(buf, int64(len(api)), 10)
	buf = append(buf, ':')
	buf = append(buf, api...)
	buf = strconv.AppendInt(buf, int64(len(argJSON)), 10)
	buf = append(buf, ':')
	buf = append(buf, argJSON...)
	sum := sha256.Sum256(buf)
	if cap(buf) <= 64<<10 {
		*bp = buf
		hashBufs.Put(bp)
	}
	var hexSum [2 * sha256.Size]byte
	hex.Encode(hexSum[:], sum[:])
	return string(hexSum[:])
}

// hashBufs hold the framed input of hashParts between calls.
var hashBufs = sync.Pool{New: func() any { b := make([]byte, 0, 512); return &b }}

// KeyFromHash returns a key that knows only its hash (64 lowercase hex
// digits), for callers that carry keys as strings. Lookups work with it; the
// readable parts are empty.
func KeyFromHash(hash string) (Key, error) {
	if !validHash(hash) {
		return Key{}, &InvalidKeyError{Hash: hash}
	}
	return Key{hash: hash}, nil
}

// Hash is the hex SHA-256 that names the entry on disk.
func (k Key) Hash() string { return k.hash }

// Tool is the tool name the key was made from.
func (k Key) Tool() string { return k.tool }

// API is the API name the key was made from.
func (k Key) API() string { return k.api }

// Args is the canonical JSON of the arguments ("{}" for none).
func (k Key) Args() string { return k.args }

// IsZero reports whether k is the zero Key.
func (k Key) IsZero() bool { return k.hash == "" }

// String is the readable form: tool.api(arguments) #hash-prefix.
func (k Key) String() string {
	if k.tool == "" && k.api == "" {
		return k.hash
	}
	short := k.hash
	if len(short) > 12 {
		short = short[:12]
	}
	return k.tool + "." + k.api + k.args + " #" + short
}

// storable reports whether the key's arguments are real JSON (see KeyOf).
func (k Key) storable() bool { return k.args == "" || k.args[0] != '!' }

func validHash(h string) bool {
	if len(h) != 2*sha256.Size {
		return false
	}
	for i := 0; i < len(h); i++ {
		c := h[i]
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}
