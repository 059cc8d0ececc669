package faker

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/understudy/understudy/internal/canon"
	"github.com/understudy/understudy/mocks/standin"
)

// statusLiterals are values that say how a call went, not what it found.
var statusLiterals = map[string]bool{"success": true, "ok": true, "true": true, "false": true, "error": true,
	"failed": true, "failure": true, "done": true, "null": true, "none": true, "": true, "200": true}

// maxLeavesChecked bounds the leaves IsEcho reads.
const maxLeavesChecked = 5000

// IsEcho reports whether an answer only gives the arguments back: it is
// the arguments, or {"status": "success", "data": <the arguments>}, or
// every value it holds is an argument's value or a status literal
// (success, true, 200), and one at least is an argument's. An answer with
// one value of its own is not an echo.
func IsEcho(answer any, args map[string]any) bool {
	if e, ok := answer.(standin.Encoded); ok {
		if v, err := canon.Decode(e); err == nil {
			answer = v
		}
	}
	if !plainValue(answer, 0) {
		// Values of other Go types (structs, typed maps): read as JSON.
		if b, err := canon.JSON(answer); err == nil {
			if v, err := canon.Decode(b); err == nil {
				answer = v
			}
		}
	}
	argVals := make(map[string]bool, len(args))
	for _, v := range args {
		collect(v, func(s string) { argVals[strings.ToLower(s)] = true }, new(int))
	}
	echoed, own := 0, 0
	collect(answer, func(s string) {
		s = strings.ToLower(strings.TrimSpace(s))
		switch {
		case argVals[s]:
			echoed++
		case statusLiterals[s]:
		default:
			own++
		}
	}, new(int))
	return own == 0 && (echoed > 0 || len(args) > 0 && equalJSON(answer, args))
}

// plainValue reports whether v is made of the types decoded JSON and the
// faker's answers are made of.
func plainValue(v any, depth int) bool {
	if depth > 64 {
		return true
	}
	switch x := v.(type) {
	case map[string]any:
		for _, e := range x {
			if !plainValue(e, depth+1) {
				return false
			}
		}
	case []any:
		for _, e := range x {
			if !plainValue(e, depth+1) {
				return false
			}
		}
	case string, json.Number, float64, int, int64, bool, nil:
	default:
		return false
	}
	return true
}

// collect calls f with every scalar of v as text.
func collect(v any, f func(string), n *int) {
	*n++
	if *n > maxLeavesChecked {
		return
	}
	switch x := v.(type) {
	case map[string]any:
		for _, e := range x {
			collect(e, f, n)
		}
	case []any:
		for _, e := range x {
			collect(e, f, n)
		}
	case string:
		f(x)
	case json.Number:
		f(x.String())
	case float64:
		f(strconv.FormatFloat(x, 'f', -1, 64))
	case int:
		f(strconv.Itoa(x))
	case int64:
		f(strconv.FormatInt(x, 10))
	case bool:
		f(strconv.FormatBool(x))
	case nil:
		f("null")
	}
}

func equalJSON(a, b any) bool {
	x, err1 := canon.JSON(a)
	y, err2 := canon.JSON(b)
	return err1 == nil && err2 == nil && string(x) == string(y)
}
