package calc

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

type tokKind int

const (
	tokEOF tokKind = iota
	tokNum
	tokIdent
	tokOp // + - * / % ^ ** ( ) , !
)

type token struct {
	kind tokKind
	text string  // operator or identifier (lowercased), or the number as written
	num  float64 // for tokNum
	pos  int     // 1-based rune column of the token's first character
}

// lex splits an expression into tokens. A comma between digits is a
// thousands separator ("1,250,000") unless it sits directly inside a
// function call's parentheses, where it separates arguments ("max(1,250)").
func lex(src string) ([]token, error) {
	var toks []token
	var callParens []bool // for each open parenthesis: is it a function call's?
	col := 0              // rune column of the current position, 0-based
	i := 0
	for i < len(src) {
		r, size := utf8.DecodeRuneInString(src[i:])
		if r == utf8.RuneError && size == 1 {
			return nil, &Error{Pos: col + 1, Msg: "invalid UTF-8 in expression"}
		}
		start := col + 1
		switch {
		case unicode.IsSpace(r) || r == '$' || r == '€' || r == '£' || r == '¥':
			// Currency signs are decoration: "$1,200 * 3" means 1200 * 3.
			i += size
			col++
			continue
		case isDigit(r) || (r == '.' && i+1 < len(src) && isDigit(rune(src[i+1]))):
			inCall := len(callParens) > 0 && callParens[len(callParens)-1]
			text, val, n, err := lexNumber(src[i:], !inCall)
			if err != nil {
				return nil, &Error{Pos: start, Msg: err.Error()}
			}
			toks = append(toks, token{kind: tokNum, text: text, num: val, pos: start})
			i += n
			col += utf8.RuneCountInString(src[i-n : i])
			continue
		case unicode.IsLetter(r) || r == '_' || r == 'π':
			j := i
			for j < len(src) {
				r2, s2 := utf8.DecodeRuneInString(src[j:])
				if !(unicode.IsLetter(r2) || unicode.IsDigit(r2) || r2 == '_' || r2 == 'π') {
					break
				}
				j += s2
			}
			word := strings.ToLower(src[i:j])
			if word == "π" {
				word = "pi"
			}
			toks = append(toks, token{kind: tokIdent, text: word, pos: start})
			col += utf8.RuneCountInString(src[i:j])
			i = j
			continue
		}
		op := ""
		switch r {
		case '+', '-', '/', '%', '^', '(', ')', ',', '!':
			op = string(r)
		case '*':
			op = "*"
			if strings.HasPrefix(src[i:], "**") {
				op = "**"
				size = 2
				col++
			}
		case '×', '·':
			op = "*"
		case '÷':
			op = "/"
		case '−', '–':
			op = "-"
		default:
			return nil, &Error{Pos: start, Msg: "unexpected character " + quoteRune(r)}
		}
		switch op {
		case "(":
			isCall := len(toks) > 0 && toks[len(toks)-1].kind == tokIdent && isFunction(toks[len(toks)-1].text)
			callParens = append(callParens, isCall)
		case ")":
			if len(callParens) > 0 {
				callParens = callParens[:len(callParens)-1]
			}
		}
		toks = append(toks, token{kind: tokOp, text: op, pos: start})
		i += size
		col++
	}
	toks = append(toks, token{kind: tokEOF, pos: col + 1})
	return toks, nil
}

func isDigit(r rune) bool { return r >= '0' && r <= '9' }

// lexNumber reads a number at the start of s: digits with optional
// thousands separators, a fraction and an exponent. It returns the text as
// written, the value, and the number of bytes read.
func lexNumber(s string, groups bool) (string, float64, int, error) {
	var clean strings.Builder
	i := 0
	intDigits := 0
	for i < len(s) && isDigit(rune(s[i])) {
		clean.WriteByte(s[i])
		i++
		intDigits++
	}
	// Thousands separators: ",ddd" groups after 1-3 leading digits.
	if groups && intDigits >= 1 && intDigits <= 3 {
		for i+3 < len(s) && s[i] == ',' && allDigits(s[i+1:i+4]) && (i+4 == len(s) || !isDigit(rune(s[i+4]))) {
			clean.WriteString(s[i+1 : i+4])
			i += 4
		}
	}
	if i < len(s) && s[i] == '.' {
		clean.WriteByte('.')
		i++
		for i < len(s) && isDigit(rune(s[i])) {
			clean.WriteByte(s[i])
			i++
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		j := i + 1
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		if j < len(s) && isDigit(rune(s[j])) {
			clean.WriteString(s[i:j])
			i = j
			for i < len(s) && isDigit(rune(s[i])) {
				clean.WriteByte(s[i])
				i++
			}
		}
	}
	if i < len(s) && s[i] == '.' {
		return "", 0, 0, errorf("malformed number %q", s[:i+1])
	}
	v, err := parseFloat(clean.String())
	if err != nil {
		return "", 0, 0, errorf("malformed number %q", s[:i])
	}
	return s[:i], v, i, nil
}

func allDigits(s string) bool {
	for _, r := range s {
		if !isDigit(r) {
			return false
		}
	}
	return s != ""
}

func quoteRune(r rune) string {
	if unicode.IsPrint(r) {
		return fmt.Sprintf("%q", r)
	}
	return fmt.Sprintf("U+%04X", r)
}
