package standin

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Arguments reach stand-ins as decoded JSON: string, float64, bool, []any,
// map[string]any, json.Number (only for integers float64 cannot hold
// exactly), or absent. These accessors read them leniently, the way
// a real API reads query strings.

// ArgString returns the argument as a trimmed string ("" when absent).
func (c *Call) ArgString(name string) string {
	switch v := c.Args[name].(type) {
	case nil:
		return ""
	case string:
		return strings.TrimSpace(v)
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(v)
	default:
		return strings.TrimSpace(fmt.Sprint(v))
	}
}

// ArgFloat returns the argument as a number; ok is false when it is absent or not numeric.
func (c *Call) ArgFloat(name string) (float64, bool) {
	switch v := c.Args[name].(type) {
	case float64:
		return v, !math.IsNaN(v) && !math.IsInf(v, 0)
	case string:
		f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		return f, err == nil && !math.IsNaN(f) && !math.IsInf(f, 0)
	case json.Number:
		f, err := v.Float64()
		return f, err == nil && !math.IsInf(f, 0)
	}
	return 0, false
}

// ArgInt returns the argument as an integer, or def when absent or not numeric.
func (c *Call) ArgInt(name string, def int) int {
	f, ok := c.ArgFloat(name)
	if !ok || f > math.MaxInt32 || f < math.MinInt32 {
		return def
	}
	return int(f)
}

// ArgBool returns the argument as a boolean, or def when absent or not boolean.
func (c *Call) ArgBool(name string, def bool) bool {
	switch v := c.Args[name].(type) {
	case bool:
		return v
	case string:
		if b, err := strconv.ParseBool(strings.TrimSpace(v)); err == nil {
			return b
		}
	case float64:
		return v != 0
	case json.Number:
		return v != "0"
	}
	return def
}

// Has reports whether the argument was given (or defaulted).
func (c *Call) Has(name string) bool {
	_, ok := c.Args[name]
	return ok
}
