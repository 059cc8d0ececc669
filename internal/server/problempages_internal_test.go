package server

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestInlineHTML(t *testing.T) {
	for in, want := range map[string]string{
		"plain <b> & text":                          "plain &lt;b&gt; &amp; text",
		"a `code <x>` span":                         "a <code>code &lt;x&gt;</code> span",
		"see [unavailable](#problem-unavailable).":  `see <a href="/problems/unavailable">unavailable</a>.`,
		"[`-limit`](https://example.test/?a=1&b=2)": `<a href="https://example.test/?a=1&amp;b=2"><code>-limit</code></a>`,
		"`a` and [b](#x) then `c`":                  `<code>a</code> and <a href="#x">b</a> then <code>c</code>`,
	} {
		require.Equal(t, want, inlineHTML(in), in)
	}
}

func FuzzInlineHTML(f *testing.F) {
	for _, s := range []string{"", "`", "[a](b)", "[`x`](#problem-y) `z`", "<script>"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := inlineHTML(s)
		require.NotContains(t, out, "<script", "markup from the page's text is escaped")
	})
}
