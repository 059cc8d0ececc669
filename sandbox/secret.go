package sandbox

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"net/url"
	"slices"
	"strings"
)

// Redacted is what a secret is replaced with wherever an answer or an
// error would have shown it.
const Redacted = "[REDACTED]"

// minNeedle is the shortest encoded form of a secret worth scrubbing: a
// base64 fragment shorter than this matches ordinary text by chance.
const minNeedle = 6

// maxNestedJSON bounds how many levels of JSON-inside-a-JSON-string the
// scrubber decodes (ToolBench servers wrap an API's JSON answer as text,
// which may carry JSON as text again).
const maxNestedJSON = 4

// scrubber removes a secret (the RapidAPI or ToolBench key) from text an
// upstream sent back. Real APIs echo the key in error messages ("invalid
// toolbench_key sk-..."), in request echoes (headers as sent, Bearer and
// Basic credentials) and in URLs, so the key is looked for as it was sent
// and in the forms it takes there: URL-encoded, base64 (at any alignment,
// as inside "Basic base64(user:key)") and JSON-escaped.
type scrubber struct {
	secret      string
	needles     []string // longest first
	needsEscape bool     // the secret has a character JSON must escape
}

func newScrubber(secret string) *scrubber {
	s := &scrubber{secret: secret, needsEscape: strings.ContainsFunc(secret, func(r rune) bool { return r == '"' || r == '\\' || r < 0x20 })}
	if secret == "" {
		return s
	}
	seen := map[string]bool{}
	add := func(n string) {
		if n == "" || seen[n] || (n != secret && len(n) < minNeedle) {
			return
		}
		seen[n] = true
		s.needles = append(s.needles, n)
	}
	add(secret)
	for _, esc := range []string{url.QueryEscape(secret), url.PathEscape(secret)} {
		add(esc)
		add(lowerPercentHex(esc))
	}
	for _, j := range jsonEscapes(secret) {
		add(j)
	}
	for _, enc := range []*base64.Encoding{base64.RawStdEncoding, base64.RawURLEncoding} {
		for _, core := range base64Cores(enc, []byte(secret)) {
			add(core)
		}
	}
	// Longest first, so that a form containing a shorter one is removed whole.
	slices.SortStableFunc(s.needles, func(a, b string) int { return len(b) - len(a) })
	return s
}

// String scrubs a piece of text, an error message for instance.
func (s *scrubber) String(text string) string {
	if s == nil || s.secret == "" {
		return text
	}
	return s.scrubText(text, 0)
}

// Bytes scrubs an upstream answer. A JSON answer stays the same JSON,
// keys in the same order: forms of the secret that only appear once a
// JSON string is decoded (a \u-escaped key, a key inside JSON carried as
// text) are scrubbed by rewriting that string alone.
func (s *scrubber) Bytes(body []byte) []byte {
	if s == nil || s.secret == "" {
		return body
	}
	for _, n := range s.needles {
		if bytes.Contains(body, []byte(n)) {
			body = bytes.ReplaceAll(body, []byte(n), []byte(Redacted))
		}
	}
	if bytes.IndexByte(body, '\\') < 0 {
		return body
	}
	return s.scrubStrings(body, 0)
}

func (s *scrubber) scrubText(text string, depth int) string {
	for _, n := range s.needles {
		text = strings.ReplaceAll(text, n, Redacted)
	}
	if depth < maxNestedJSON && strings.IndexByte(text, '\\') >= 0 {
		return string(s.scrubStrings([]byte(text), depth))
	}
	return text
}

// scrubStrings finds the JSON string literals in doc whose escapes could
// hide the secret, decodes them, scrubs the decoded text (which may be
// JSON again) and writes back the ones that changed. A string without
// such escapes reads the same decoded as raw, so the needles have
// scrubbed it already; skipping it keeps the common case cheap. doc need
// not be JSON: anything that is not a string literal is left alone.
func (s *scrubber) scrubStrings(doc []byte, depth int) []byte {
	var out []byte // nil until the first change
	last := 0
	for i := 0; i < len(doc); i++ {
		if doc[i] != '"' {
			continue
		}
		j, escaped := i+1, false
		for ; j < len(doc) && doc[j] != '"'; j++ {
			if doc[j] == '\\' {
				escaped = true
				j++
			}
		}
		if j >= len(doc) {
			break
		}
		lit := doc[i : j+1]
		if escaped && s.mayHide(lit) {
			var text string
			if json.Unmarshal(lit, &text) == nil {
				if scrubbed := s.scrubText(text, depth+1); scrubbed != text {
					out = append(out, doc[last:i]...)
					out = appendJSONString(out, scrubbed)
					last = j + 1
				}
			}
		}
		i = j
	}
	if out == nil {
		return doc
	}
	return append(out, doc[last:]...)
}

// mayHide reports whether a string literal's escapes can hide the secret:
// \u escapes, escaped slashes, or any escape when the secret has a
// character JSON must escape.
func (s *scrubber) mayHide(lit []byte) bool {
	return s.needsEscape || bytes.Contains(lit, []byte(`\u`)) || bytes.Contains(lit, []byte(`\/`))
}

func appendJSONString(dst []byte, s string) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return append(dst, bytes.TrimRight(buf.Bytes(), "\n")...)
}

// jsonEscapes are the forms a secret takes inside a JSON string, as the
// common encoders write it: Go's (HTML characters as \u003c), Python's
// and PHP's (a slash as \/), and every non-alphanumeric byte as \u00XX.
func jsonEscapes(secret string) []string {
	goStyle, _ := json.Marshal(secret)
	var plain bytes.Buffer
	enc := json.NewEncoder(&plain)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(secret)
	out := []string{
		trimQuotes(string(goStyle)),
		trimQuotes(strings.TrimRight(plain.String(), "\n")),
	}
	out = append(out, strings.ReplaceAll(out[1], "/", `\/`))
	var all strings.Builder
	for i := 0; i < len(secret); i++ {
		c := secret[i]
		if c < 0x80 && (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			all.WriteByte(c)
			continue
		}
		const hex = "0123456789abcdef"
		all.WriteString(`\u00`)
		all.WriteByte(hex[c>>4])
		all.WriteByte(hex[c&0xf])
	}
	return append(out, all.String())
}

func trimQuotes(s string) string {
	return strings.TrimSuffix(strings.TrimPrefix(s, `"`), `"`)
}

// lowerPercentHex writes the hex digits of %XX escapes in lower case, as
// some encoders do.
func lowerPercentHex(s string) string {
	b := []byte(s)
	for i := 0; i+2 < len(b); i++ {
		if b[i] == '%' {
			b[i+1] = toLowerHex(b[i+1])
			b[i+2] = toLowerHex(b[i+2])
		}
	}
	return string(b)
}

func toLowerHex(c byte) byte {
	if c >= 'A' && c <= 'F' {
		return c + 'a' - 'A'
	}
	return c
}

// base64Cores are the base64 characters that depend on the secret's bytes
// alone, for each of the three alignments the secret can have inside a
// longer encoded text: the secret preceded by 0, 1 or 2 bytes of anything.
// A character of base64 carries 6 bits; character j is determined by the
// secret when bits 6j to 6j+5 all fall within it.
func base64Cores(enc *base64.Encoding, secret []byte) []string {
	if len(secret) == 0 {
		return nil
	}
	var out []string
	for off := range 3 {
		buf := make([]byte, off+len(secret))
		copy(buf[off:], secret)
		text := enc.EncodeToString(buf)
		first := (8*off + 5) / 6 // the first j with 6j >= 8*off
		last := (8*(off+len(secret)) - 6) / 6
		if first > last || last >= len(text) {
			continue
		}
		out = append(out, text[first:last+1])
	}
	return out
}

// SecretForms lists the forms secret is looked for in an upstream answer
// (as sent, URL-encoded, JSON-escaped, base64 at any alignment), longest
// first, so that checks of stored recordings look for the same ones.
func SecretForms(secret string) []string {
	return slices.Clone(newScrubber(secret).needles)
}
