package sandbox

import (
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"html"
	"maps"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf16"

	"github.com/stretchr/testify/require"
)

// testSecret has the characters on which the encodings differ: '/' and '+'
// (URL and JSON escapes), '<', '&' and '>' (Go's HTML-safe JSON).
const testSecret = "sk-Test/Key+4f3a9c<&>b2e7d1"

// echoForms are the ways real APIs echo a key they were sent.
func echoForms(secret string) map[string]string {
	goJSON, _ := json.Marshal(secret)
	basic := base64.StdEncoding.EncodeToString([]byte("user:" + secret))
	forms := map[string]string{
		"raw":            secret,
		"bearer":         "Bearer " + secret,
		"query escaped":  url.QueryEscape(secret),
		"path escaped":   url.PathEscape(secret),
		"lower hex":      regexp.MustCompile(`%[0-9A-F]{2}`).ReplaceAllStringFunc(url.QueryEscape(secret), strings.ToLower),
		"base64":         base64.StdEncoding.EncodeToString([]byte(secret)),
		"base64url":      base64.RawURLEncoding.EncodeToString([]byte(secret)),
		"basic auth":     "Basic " + basic,
		"basic offset 2": base64.StdEncoding.EncodeToString([]byte("ab:" + secret)),
		"go json":        strings.Trim(string(goJSON), `"`),
		"slash escaped":  strings.ReplaceAll(secret, "/", `\/`),
		"all escaped":    allEscaped(secret),
		// Only a decoder sees this one: the first character as \u00XX.
		// (so the scrubber finds it in JSON string literals only).
		"first escaped": fmt.Sprintf(`\u%04x`, secret[0]) + secret[1:],
	}
	for name, form := range disguisedForms(secret) {
		forms[name] = form
	}
	return forms
}

// disguisedForms are the transformed echoes of a key: encodings a server
// or a proxy applies on top of the wire's, and pieces of the key.
func disguisedForms(secret string) map[string]string {
	var u16, pct, dec, hexEnt strings.Builder
	for _, r := range secret {
		for _, u := range utf16.Encode([]rune{r}) {
			fmt.Fprintf(&u16, "%04X", u)
		}
		fmt.Fprintf(&dec, "&#%d;", r)
		fmt.Fprintf(&hexEnt, "&#X%X;", r)
	}
	for _, c := range []byte(secret) {
		fmt.Fprintf(&pct, "%%%02x", c)
	}
	rev := []rune(secret)
	slices.Reverse(rev)
	rot := strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z':
			return 'a' + (r-'a'+13)%26
		case r >= 'A' && r <= 'Z':
			return 'A' + (r-'A'+13)%26
		}
		return r
	}, secret)
	swapped := strings.Map(func(r rune) rune {
		if unicode.IsUpper(r) {
			return unicode.ToLower(r)
		}
		return unicode.ToUpper(r)
	}, secret)
	forms := map[string]string{
		"hex":            hex.EncodeToString([]byte(secret)),
		"HEX":            strings.ToUpper(hex.EncodeToString([]byte(secret))),
		"utf-16 hex":     u16.String(),
		"reversed":       string(rev),
		"rot13":          rot,
		"other case":     swapped,
		"double url":     url.QueryEscape(url.QueryEscape(secret)),
		"every byte %XX": pct.String(),
		"double base64":  base64.StdEncoding.EncodeToString([]byte(base64.StdEncoding.EncodeToString([]byte(secret)))),
		"html decimal":   dec.String(),
		"html hex":       hexEnt.String(),
		"html escaped":   html.EscapeString(secret),
		"12-char prefix": secret[:min(12, len(secret))],
		"12-char suffix": secret[max(0, len(secret)-12):],
		"12-char middle": secret[max(0, len(secret)/2-6):min(len(secret), len(secret)/2+6)],
	}
	if len(secret) >= 24 {
		forms["first half"] = secret[:len(secret)/2]
		forms["second half"] = secret[len(secret)/2:]
	}
	if len(secret) >= 20 {
		forms["20-char prefix"] = secret[:20]
	}
	return forms
}

func allEscaped(secret string) string {
	var b strings.Builder
	for _, c := range []byte(secret) {
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, `\u%04x`, c)
		}
	}
	return b.String()
}

func TestScrubberRemovesEveryForm(t *testing.T) {
	s := newScrubber(testSecret)
	for name, form := range echoForms(testSecret) {
		t.Run(name, func(t *testing.T) {
			// In a JSON string, as an error message echoes it.
			body := []byte(`{"message":"invalid key ` + form + ` for this API","n":1}`)
			out := s.Bytes(body)
			require.NotContains(t, string(out), form)
			require.Contains(t, string(out), Redacted)
			require.True(t, json.Valid(out), "a JSON answer stays JSON: %s", out)
			requireNoSecret(t, out, testSecret)
			// In plain text, as an HTML error page echoes it.
			if name != "first escaped" {
				text := s.String("<p>bad key: " + form + "</p>")
				require.NotContains(t, text, form)
			}
		})
	}
}

func TestScrubberKeepsOtherText(t *testing.T) {
	s := newScrubber(testSecret)
	for _, body := range []string{
		`{"temp_c":19.5,"city":"Lisbon","note":"a \"quoted\" word"}`,
		`[1,2,3]`,
		`"sk-Test/Key"`, // a prefix of the key is not the key
		`{"ok":true,"b64":"c2stVGVzdA=="}`,
	} {
		require.Equal(t, body, string(s.Bytes([]byte(body))))
	}
	require.Equal(t, "x", newScrubber("").String("x"), "no key, nothing to scrub")
	var nilScrubber *scrubber
	require.Equal(t, "x", string(nilScrubber.Bytes([]byte("x"))))
}

// TestScrubberNestedJSON covers ToolBench's servers, which carry an API's
// JSON answer as a string, so the key appears escaped twice.
func TestScrubberNestedJSON(t *testing.T) {
	s := newScrubber("abc123def456")
	inner, _ := json.Marshal(map[string]any{"echo": `{"k":"\u0061bc123def456"}`})
	outer, _ := json.Marshal(map[string]any{"error": "", "response": string(inner)})
	out := s.Bytes(outer)
	require.True(t, json.Valid(out))
	requireNoSecret(t, out, "abc123def456")
}

// TestScrubberRewritesOnlyTheStringThatHidesTheKey checks that a key
// hidden by escapes is scrubbed in place: the rest of the answer keeps its
// bytes and key order, in JSON and in text that merely quotes JSON.
func TestScrubberRewritesOnlyTheStringThatHidesTheKey(t *testing.T) {
	hidden := `\u0073` + strings.ReplaceAll(testSecret[1:], "/", `\/`) // "s" as \u0073
	s := newScrubber(testSecret)
	for _, tc := range []struct{ in, want string }{
		{`{"z":1,"a":"` + hidden + `","b":"\u00e9t\u00e9"}`, `{"z":1,"a":"[REDACTED]","b":"\u00e9t\u00e9"}`},
		{`<p>error: "bad key ` + hidden + `"</p>`, `<p>error: "bad key [REDACTED]"</p>`},
		{`{"unterminated":"\u0041`, `{"unterminated":"\u0041`},
	} {
		require.Equal(t, tc.want, string(s.Bytes([]byte(tc.in))), tc.in)
	}
}

// TestScrubberNeverBreaksJSON: a form of the key is looked for in what a
// JSON reader sees, never in escape sequences, so a JSON answer stays JSON
// (the escaped "8" of \u0038 followed by the rest of the key once became
// "\u003[REDACTED]"), and a key inside a number turns the number into the
// string "[REDACTED]".
func TestScrubberNeverBreaksJSON(t *testing.T) {
	for _, tc := range []struct{ secret, in, want string }{
		{"81bxcaa+", `"\u00381bxcaa+"`, `"[REDACTED]"`},
		{"81bxcaa+", `{"a":"x\u00381bxcaa+y","b":"\u0038"}`, `{"a":"x[REDACTED]y","b":"\u0038"}`},
		{"0038abcdef", `{"m":"\u0038abcdef","n":"0038abcdef"}`, `{"m":"\u0038abcdef","n":"[REDACTED]"}`},
		{"12345678", `{"n":912345678.5,"s":"a"}`, `{"n":"[REDACTED]","s":"a"}`},
		{"12345678", `[12345678]`, `["[REDACTED]"]`},
		{"abcdef123", `<p>\u0061bcdef123 "\u0061bcdef123"</p>`, `<p>\u0061bcdef123 "[REDACTED]"</p>`},
	} {
		out := newScrubber(tc.secret).Bytes([]byte(tc.in))
		require.Equal(t, tc.want, string(out), tc.in)
		if json.Valid([]byte(tc.in)) {
			require.True(t, json.Valid(out), "%s became %s", tc.in, out)
		}
	}
}

// requireNoSecret decodes every JSON string of doc, however deeply nested
// as text, and checks that none holds the secret.
func requireNoSecret(t *testing.T, doc []byte, secret string) {
	t.Helper()
	require.NotContains(t, string(doc), secret)
	var walk func(v any, depth int)
	walk = func(v any, depth int) {
		switch x := v.(type) {
		case string:
			require.NotContains(t, x, secret)
			var inner any
			if depth < 4 && json.Unmarshal([]byte(x), &inner) == nil {
				walk(inner, depth+1)
			}
		case []any:
			for _, e := range x {
				walk(e, depth)
			}
		case map[string]any:
			for k, e := range x {
				require.NotContains(t, k, secret)
				walk(e, depth)
			}
		}
	}
	var v any
	if json.Unmarshal(doc, &v) == nil {
		walk(v, 0)
	}
}

func TestBase64Cores(t *testing.T) {
	secret := []byte("0123456789")
	for _, prefix := range []string{"", "a", "ab", "abc", "user:"} {
		enc := base64.StdEncoding.EncodeToString(append([]byte(prefix), secret...))
		found := false
		for _, core := range base64Cores(base64.RawStdEncoding, secret) {
			found = found || strings.Contains(enc, core)
		}
		require.True(t, found, "prefix %q: %s", prefix, enc)
	}
	require.Nil(t, base64Cores(base64.RawStdEncoding, nil))
}

// FuzzScrubber checks that whatever surrounds the key, and whichever form
// it is echoed in, the scrubbed body holds no form of it, and JSON stays JSON.
func FuzzScrubber(f *testing.F) {
	f.Add("abcdef0123456789", "{\"m\":\"", "\"}", uint8(0))
	f.Add("sk-a/b+c<d>e&f", "x", "y", uint8(3))
	f.Add("key-with-9-chars", "", "", uint8(7))
	// One seed per disguised form, on a key of RapidAPI's length.
	const rapid = "3f1c9a2b7emsh0d4e5f6a7b8c9d0ep1a2b3cjsn4d5e6f7a8b9c"
	for i := range len(echoForms(rapid)) {
		f.Add(rapid, `{"message":"bad key `, `"}`, uint8(i))
	}
	f.Fuzz(func(t *testing.T, secret, prefix, suffix string, pick uint8) {
		// Keys are printable and do not share characters with the
		// replacement text, so that a replacement cannot form a new match.
		secret = strings.Map(func(r rune) rune {
			if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || strings.ContainsRune("-_/+.~<>&", r) {
				return r
			}
			return -1
		}, secret)
		if len(secret) < 8 {
			return
		}
		forms := echoForms(secret)
		names := slices.Sorted(maps.Keys(forms))
		name := names[int(pick)%len(names)]
		if name == "first escaped" && strings.ContainsAny(prefix, `"\`) {
			return // the literal would not start where the form does
		}
		form := forms[name]
		if name == "first escaped" {
			form = `"` + form + `"`
		}
		body := prefix + form + suffix
		s := newScrubber(secret)
		out := string(s.Bytes([]byte(body)))
		require.NotContains(t, out, secret)
		require.NotContains(t, out, form, name)
		// What the engine keeps is always JSON; a JSON answer whose key
		// sits in a string (a key with a letter other than e cannot sit
		// in a number or a literal) stays the same JSON document.
		require.True(t, json.Valid(asJSON([]byte(out))))
		if json.Valid([]byte(body)) && strings.ContainsAny(secret, "abcdfghijklmnopqrstuvwxyz") {
			require.True(t, json.Valid([]byte(out)), "%q became %q", body, out)
		}
	})
}

// BenchmarkScrubberBytes scrubs a 1 MB JSON answer with escapes in it (so
// the decoding pass runs) and no key: the cost every upstream answer pays.
func BenchmarkScrubberBytes(b *testing.B) {
	items := make([]map[string]any, 0, 8000)
	for i := range cap(items) {
		items = append(items, map[string]any{"id": i, "title": "a \"quoted\" title / with a slash", "url": "https://example.com/items/" + strings.Repeat("x", 40)})
	}
	body, err := json.Marshal(items)
	require.NoError(b, err)
	s := newScrubber(testSecret)
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		_ = s.Bytes(body)
	}
}
