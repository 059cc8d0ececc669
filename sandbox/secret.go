package sandbox

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"html"
	"net/url"
	"slices"
	"strings"
	"unicode/utf16"
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
	folded      [][]byte // needles in ASCII lower case, matched without case
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
		// Base64 of base64 (a Basic credential encoded twice, a token
		// wrapped by a second layer).
		for _, once := range []string{base64.StdEncoding.EncodeToString([]byte(secret)), base64.URLEncoding.EncodeToString([]byte(secret))} {
			for _, core := range base64Cores(enc, []byte(once)) {
				add(core)
			}
		}
	}
	// The disguises an echo takes beyond the wire's encodings: matched
	// without case, so hex and %XX in either case and the key in another
	// case are found too.
	for _, d := range disguises(secret) {
		add(d)
	}
	// Any fragment of minFragment characters: a key split in two, or cut
	// to a prefix, still gives itself away.
	for i := 0; i+minFragment <= len(secret); i++ {
		add(secret[i : i+minFragment])
	}
	// Longest first, so that a form containing a shorter one is removed whole.
	slices.SortStableFunc(s.needles, func(a, b string) int { return len(b) - len(a) })
	for _, n := range s.needles {
		s.folded = append(s.folded, foldASCII([]byte(n)))
	}
	return s
}

// minFragment is the shortest piece of the secret scrubbed on its own.
const minFragment = 12

// disguises are the transformed forms an echo of the secret takes: hex
// (and hex of its UTF-16 code units, big- and little-endian), reversed,
// rot13, percent-encoded twice, %XX of every byte, and HTML character
// references (decimal and hex, and the escaping of HTML's own characters).
func disguises(secret string) []string {
	b := []byte(secret)
	var u16be, u16le, pct, decEnt, hexEnt strings.Builder
	for _, r := range secret {
		for _, u := range utf16.Encode([]rune{r}) {
			fmt.Fprintf(&u16be, "%04x", u)
			fmt.Fprintf(&u16le, "%02x%02x", u&0xff, u>>8)
		}
		fmt.Fprintf(&decEnt, "&#%d;", r)
		fmt.Fprintf(&hexEnt, "&#x%x;", r)
	}
	for _, c := range b {
		fmt.Fprintf(&pct, "%%%02X", c)
	}
	rev := []rune(secret)
	slices.Reverse(rev)
	rot := []byte(secret)
	for i, c := range rot {
		switch {
		case c >= 'a' && c <= 'z':
			rot[i] = 'a' + (c-'a'+13)%26
		case c >= 'A' && c <= 'Z':
			rot[i] = 'A' + (c-'A'+13)%26
		}
	}
	return []string{
		hex.EncodeToString(b), u16be.String(), u16le.String(), string(rev), string(rot),
		url.QueryEscape(url.QueryEscape(secret)), url.PathEscape(url.PathEscape(secret)), pct.String(),
		decEnt.String(), hexEnt.String(), html.EscapeString(secret),
	}
}

// foldASCII is b with ASCII letters in lower case, byte for byte, so that
// an index into it is an index into b.
func foldASCII(b []byte) []byte {
	out := make([]byte, len(b))
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		out[i] = c
	}
	return out
}

// String scrubs a piece of text, an error message for instance.
func (s *scrubber) String(text string) string {
	if s == nil || s.secret == "" {
		return text
	}
	return string(s.scrub([]byte(text), 0))
}

// Bytes scrubs an upstream answer. A JSON answer stays the same JSON,
// keys in the same order: only a string literal that held a form of the
// secret is rewritten, and a number that held it becomes the string
// "[REDACTED]".
func (s *scrubber) Bytes(body []byte) []byte {
	if s == nil || s.secret == "" {
		return body
	}
	return s.scrub(body, 0)
}

// scrub removes every form of the secret from doc, JSON or not. Forms are
// looked for in what a reader sees: in a string literal with escapes, in
// the decoded text, never in the escape sequences themselves. (Replacing
// the raw bytes turned "\u00381bxcaa+", an escaped "8" before the rest of
// the key 81bxcaa+, into "\u003[REDACTED]", which is not JSON.) Decoded
// text that is JSON again is scrubbed the same way, maxNestedJSON levels
// deep. doc need not be JSON: text outside string literals is scrubbed as
// it stands.
func (s *scrubber) scrub(doc []byte, depth int) []byte {
	backslash := bytes.IndexByte(doc, '\\') >= 0
	if !s.containsNeedle(doc) && !(backslash && s.mayHide(doc)) {
		return doc // the common case: nothing to do, nothing copied
	}
	var out []byte // nil until the first change
	last := 0      // doc[:last] is in out (or unchanged, while out is nil)
	isJSON := -1   // whether doc is JSON, once asked
	text := 0      // where the text after the last string literal starts
	replace := func(from, to int, with []byte) {
		out = append(out, doc[last:from]...)
		out = append(out, with...)
		last = to
	}
	// outside scrubs doc[from:to], text between string literals.
	outside := func(from, to int) {
		for from < to {
			at, n := s.firstNeedle(doc[from:to])
			if at < 0 {
				return
			}
			a, b := from+at, from+at+n
			if isJSON < 0 {
				isJSON = 0
				if json.Valid(doc) {
					isJSON = 1
				}
			}
			if isJSON == 1 {
				// Outside strings a JSON document holds a form of the key
				// only inside a number (or a literal): the whole token
				// becomes a string, so that the document stays JSON.
				for a > 0 && isTokenByte(doc[a-1]) {
					a--
				}
				for b < len(doc) && isTokenByte(doc[b]) {
					b++
				}
				replace(a, b, []byte(`"`+Redacted+`"`))
			} else {
				replace(a, b, []byte(Redacted))
			}
			from = b
		}
	}
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
			break // an unterminated literal: the rest is text
		}
		outside(text, i)
		text = j + 1
		lit := doc[i : j+1]
		switch {
		case !escaped:
			// Without escapes the literal reads as it stands.
			if s.containsNeedle(lit) {
				replace(i, j+1, s.replaceNeedles(lit))
			}
		case s.containsNeedle(lit) || s.mayHide(lit):
			var decoded string
			if json.Unmarshal(lit, &decoded) != nil {
				// Not a JSON string after all (text that merely has
				// quotes): scrubbed as text.
				if s.containsNeedle(lit) {
					replace(i, j+1, s.replaceNeedles(lit))
				}
				break
			}
			var scrubbed []byte
			if depth < maxNestedJSON {
				scrubbed = s.scrub([]byte(decoded), depth+1)
			} else {
				scrubbed = s.replaceNeedles([]byte(decoded))
			}
			if string(scrubbed) != decoded {
				replace(i, j+1, appendJSONString(nil, string(scrubbed)))
			}
		}
		i = j
	}
	outside(text, len(doc))
	if out == nil {
		return doc
	}
	return append(out, doc[last:]...)
}

// isTokenByte reports whether c can be part of a JSON number or literal.
func isTokenByte(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '.' || c == '+' || c == '-'
}

// containsNeedle reports whether b holds any form of the secret as it
// stands, in any case.
func (s *scrubber) containsNeedle(b []byte) bool {
	f := foldASCII(b)
	for _, n := range s.folded {
		if bytes.Contains(f, n) {
			return true
		}
	}
	return false
}

// firstNeedle finds the leftmost form of the secret in b (the longest
// form at that place), in any case: its index and length, or -1.
func (s *scrubber) firstNeedle(b []byte) (at, n int) {
	return s.firstFolded(foldASCII(b))
}

func (s *scrubber) firstFolded(f []byte) (at, n int) {
	at = -1
	for _, nd := range s.folded { // longest first: a tie keeps the longer
		if i := bytes.Index(f, nd); i >= 0 && (at < 0 || i < at) {
			at, n = i, len(nd)
		}
	}
	return at, n
}

// replaceNeedles replaces every form of the secret in text that has no
// escapes to respect, leftmost and longest first.
func (s *scrubber) replaceNeedles(text []byte) []byte {
	f := foldASCII(text)
	var out []byte
	last := 0
	for from := 0; from < len(text); {
		at, n := s.firstFolded(f[from:])
		if at < 0 {
			break
		}
		out = append(out, text[last:from+at]...)
		out = append(out, Redacted...)
		from += at + n
		last = from
	}
	if out == nil {
		return text
	}
	return append(out, text[last:]...)
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
// (as sent, URL-encoded, JSON-escaped, base64 at any alignment, the
// disguises, fragments of 12 characters), longest first, so that checks of stored recordings look for the same ones.
func SecretForms(secret string) []string {
	return slices.Clone(newScrubber(secret).needles)
}
