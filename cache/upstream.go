package cache

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// errorPhrase is a piece of text that marks an answer as an error, and the
// reason reported for it.
type errorPhrase struct{ text, reason string }

// strongPhrases rarely occur in real data; they are looked for in every
// string of a short answer. The list grows from the checks StableToolBench
// applies before caching a real response (rate limits, subscription and
// authorisation failures, time-outs, unknown APIs, server failures).
var strongPhrases = []errorPhrase{
	{"rate limit", "rate limited"},
	{"ratelimit", "rate limited"},
	{"too many requests", "rate limited"},
	{"not subscribed", "not subscribed"},
	{"unsubscribed", "not subscribed"},
	{"disabled for your subscription", "not subscribed"},
	{"upgrade your plan", "not subscribed"},
	{"unauthorized", "unauthorized"},
	{"unauthorised", "unauthorized"},
	{"unauthenticated", "unauthorized"},
	{"not authorized", "unauthorized"},
	{"invalid api key", "invalid API key"},
	{"invalid apikey", "invalid API key"},
	{"invalid_api_key", "invalid API key"},
	{"api key is invalid", "invalid API key"},
	{"api key not valid", "invalid API key"},
	{"missing api key", "invalid API key"},
	{"invalid key", "invalid API key"},
	{"invalid toolbench_key", "invalid API key"},
	{"invalid toolbench key", "invalid API key"},
	{"invalid rapidapi key", "invalid API key"},
	{"invalid credentials", "bad credentials"},
	{"access denied", "access denied"},
	{"access_denied", "access denied"},
	{"permission denied", "access denied"},
	{"blocked user", "blocked"},
	{"quota exceeded", "quota exceeded"},
	{"exceeded the", "quota exceeded"},
	{"exceeded your", "quota exceeded"},
	{"limit exceeded", "quota exceeded"},
	{"timed out", "timed out"},
	{"time out", "timed out"},
	{"does not exist", "does not exist"},
	{"doesn't exist", "does not exist"},
	{"api not found", "does not exist"},
	{"endpoint not found", "does not exist"},
	{"service not found", "does not exist"},
	{"internal server error", "upstream failure"},
	{"internal error", "upstream failure"},
	{"bad gateway", "upstream failure"},
	{"service unavailable", "upstream failure"},
	{"gateway timeout", "upstream failure"},
	{"connection refused", "connection failed"},
	{"connection reset", "connection failed"},
	{"connection error", "connection failed"},
	{"status_code=429", "rate limited"},
	{"status_code=50", "upstream failure"},
	{"is not defined", "tool code failed"},
}

// weakPhrases also occur in real data ("blocked" in a news story); they
// count only in an error-message field or a short plain-text answer.
var weakPhrases = []errorPhrase{
	{"authoriz", "unauthorized"},
	{"authoris", "unauthorized"},
	{"authenticat", "unauthorized"},
	{"credential", "bad credentials"},
	{"forbidden", "access denied"},
	{"blocked", "blocked"},
	{"quota", "quota exceeded"},
	{"exceeded", "quota exceeded"},
	{"timeout", "timed out"},
	{"not found", "does not exist"},
	{"parameter", "parameter rejected"},
	{"parse", "parse failure"},
	{"subscri", "not subscribed"},
	{"error", "error message"},
}

// messageFields are top-level fields that carry an API's error text.
var messageFields = map[string]bool{
	"message": true, "messages": true, "msg": true, "error": true, "errors": true,
	"error_message": true, "errormessage": true, "error_description": true,
	"detail": true, "details": true, "fault": true, "reason": true, "info": true,
}

// statusFields are top-level fields that carry an HTTP-like status.
var statusFields = map[string]bool{
	"status": true, "statuscode": true, "status_code": true, "code": true, "httpstatus": true, "http_status": true,
}

// shortAnswer is the size up to which every string of an answer is read.
const shortAnswer = 1024

// LooksLikeUpstreamError reports whether an answer a real API gave with a
// success status is in fact an error that must not be recorded, and why:
// an empty body, a status or error field, or error text such as "You are
// not subscribed to this API", "Too many requests", "Invalid API key", "The
// request to the API has timed out". Long answers are judged by their
// top-level status and message fields only, so real data that merely
// mentions "blocked" or an http:// link is kept.
func LooksLikeUpstreamError(body []byte) (reason string, bad bool) {
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 {
		return "empty response", true
	}
	var v any
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil || dec.More() {
		// Not JSON: plain text or an HTML error page. Judge the head.
		head := trimmed
		if len(head) > shortAnswer {
			head = head[:shortAnswer]
		}
		return matchPhrases(string(head), true)
	}
	return judgeValue(v, len(trimmed) <= shortAnswer, 0)
}

func judgeValue(v any, short bool, depth int) (string, bool) {
	switch x := v.(type) {
	case nil:
		return "null response", true
	case string:
		t := strings.TrimSpace(x)
		if t == "" {
			return "empty response", true
		}
		// StableToolBench and RapidAPI wrappers carry the body as text.
		if depth == 0 && (t[0] == '{' || t[0] == '[' || t[0] == '"') {
			var inner any
			dec := json.NewDecoder(strings.NewReader(t))
			dec.UseNumber()
			if dec.Decode(&inner) == nil && !dec.More() {
				return judgeValue(inner, len(t) <= shortAnswer, depth+1)
			}
		}
		if len(t) <= shortAnswer {
			return matchPhrases(t, true)
		}
		return "", false
	case map[string]any:
		return judgeObject(x, short, depth)
	case []any:
		if short {
			for _, e := range x {
				if s, ok := e.(string); ok {
					if r, bad := matchPhrases(s, false); bad {
						return r, true
					}
				}
			}
		}
	}
	return "", false
}

func judgeObject(m map[string]any, short bool, depth int) (string, bool) {
	// StableToolBench's envelope: {"error": "...", "response": ...}.
	if resp, ok := m["response"]; ok && len(m) <= 3 {
		if e, ok := m["error"].(string); ok {
			if strings.TrimSpace(e) != "" {
				return "error: " + clip(e), true
			}
			if depth < 2 {
				return judgeValue(resp, short, depth+1)
			}
		}
	}
	keys := slices.Sorted(maps.Keys(m))
	for _, k := range keys {
		lk := strings.ToLower(k)
		val := m[k]
		if statusFields[lk] {
			if code, ok := httpStatus(val); ok && code >= 400 && code <= 599 {
				return k + " " + strconv.Itoa(code), true
			}
			if s, ok := val.(string); ok {
				switch strings.ToLower(strings.TrimSpace(s)) {
				case "error", "fail", "failed", "failure":
					return k + " is " + strconv.Quote(s), true
				}
			}
		}
		if (lk == "success" || lk == "ok") && val == false {
			return k + " is false", true
		}
		if messageFields[lk] {
			switch t := val.(type) {
			case string:
				if r, bad := matchPhrases(t, true); bad {
					return r, true
				}
				if (lk == "error" || lk == "errors") && strings.TrimSpace(t) != "" {
					return k + ": " + clip(t), true
				}
			case map[string]any:
				if lk == "error" || lk == "errors" {
					if len(t) > 0 {
						if r, bad := judgeObject(t, true, depth+1); bad {
							return r, true
						}
						return k + " field is set", true
					}
				}
			case []any:
				if (lk == "error" || lk == "errors") && len(t) > 0 {
					return k + " field is set", true
				}
			case bool:
				if lk == "error" && t {
					return "error is true", true
				}
			}
		}
	}
	if short {
		for _, k := range keys {
			if s, ok := m[k].(string); ok {
				if r, bad := matchPhrases(s, false); bad {
					return r, true
				}
			}
		}
	}
	return "", false
}

func httpStatus(v any) (int, bool) {
	switch x := v.(type) {
	case json.Number:
		n, err := strconv.Atoi(string(x))
		return n, err == nil
	case string:
		n, err := strconv.Atoi(strings.TrimSpace(x))
		return n, err == nil && len(strings.TrimSpace(x)) == 3
	}
	return 0, false
}

// matchPhrases looks for error phrases in text; weak ones only when the
// text is a message on its own.
func matchPhrases(text string, withWeak bool) (string, bool) {
	lt := strings.ToLower(text)
	for _, p := range strongPhrases {
		if strings.Contains(lt, p.text) {
			return p.reason + " (" + strconv.Quote(clip(text)) + ")", true
		}
	}
	if withWeak {
		for _, p := range weakPhrases {
			if strings.Contains(lt, p.text) {
				return p.reason + " (" + strconv.Quote(clip(text)) + ")", true
			}
		}
	}
	return "", false
}

func clip(s string) string {
	s = strings.TrimSpace(s)
	if len(s) > 120 {
		cut := 120
		for cut > 0 && s[cut]&0xC0 == 0x80 {
			cut--
		}
		return s[:cut] + "…"
	}
	return s
}
