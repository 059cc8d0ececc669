// Package clip shortens text for messages, answers and observations without cutting a character in two.
package clip

// Text keeps at most n bytes of s, cut on a rune boundary and marked with
// an ellipsis when anything was cut.
func Text(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && n < len(s) && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n] + "…"
}
