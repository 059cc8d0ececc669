package shape

import "strings"

// templateTypeNames are the type names of ToolBench templates, which say
// nothing of success or failure.
var templateTypeNames = map[string]bool{"string": true, "integer": true, "number": true, "double": true, "decimal": true, "boolean": true, "unicode": true, "nonetype": true}

// errorKeys are the fields an error reply is made of.
var errorKeys = map[string]bool{"message": true, "msg": true, "error": true, "errors": true, "errormessage": true, "detail": true, "details": true, "status": true, "statuscode": true, "code": true, "errorcode": true, "info": true, "reason": true, "success": true, "ok": true}

// errorWords are what an error reply's text says.
var errorWords = []string{"not subscribed", "invalid api key", "api key", "unauthorized", "forbidden", "error", "blocked", "rate limit", "quota", "does not exist", "not found", "endpoint", "disabled", "timeout", "timed out", "access denied", "invalid request"}

// ErrorReply reports whether a template is the shape of an error reply
// rather than of an answer: {"message": "str"} (a message and nothing
// else), anything with an "error" member ({"error": "str", "status":
// "int"}), or a text that says the call failed ("You are not subscribed
// to this API.", "Invalid API key"). A status beside a message is a
// health check's answer, not an error. Such a template is no success
// shape: the next source decides.
func ErrorReply(v any) bool {
	switch x := v.(type) {
	case string:
		return errorText(x)
	case map[string]any:
		if len(x) == 0 {
			return false
		}
		onlyMessage, erred := true, false
		for k, e := range x {
			kn := Fold(k)
			if !errorKeys[kn] {
				return false
			}
			switch kn {
			case "error", "errors", "errormessage", "errorcode":
				erred = true
			case "message", "msg", "detail", "details":
			default:
				onlyMessage = false
			}
			if s, ok := e.(string); ok && errorText(s) {
				erred = true
			}
		}
		return erred || onlyMessage
	}
	return false
}

// errorText reports whether a template's string says a call failed (a
// type name does not).
func errorText(s string) bool {
	t := strings.ToLower(strings.TrimSpace(s))
	if len(t) < 6 || templateTypeNames[t] {
		return false
	}
	for _, w := range errorWords {
		if strings.Contains(t, w) {
			return true
		}
	}
	return false
}
