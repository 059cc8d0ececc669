package toolbench

import (
	"strconv"
	"strings"

	"github.com/understudy/understudy/evaltasks/textmatch"
)

// A response value is evidence that the agent read what an API found only
// when it says something the query asked about. What every fake or real
// envelope carries says nothing: a status word, an HTTP code, a status
// message ("Request processed successfully"), an error; nor does a value
// that only wraps the query's own words or the agent's arguments in such
// words ("Results for Diego Larsen"). These are no evidence wherever they
// sit in the response.

// envelopeKeys are the fields of a response envelope, compared without
// case, underscores or hyphens.
var envelopeKeys = map[string]bool{}

// errorKeys are envelope fields whose every value reports a failure.
var errorKeys = map[string]bool{"error": true, "errors": true, "err": true, "errormessage": true, "errmsg": true}

// genericWords are the stemmed words of status reports: a value made of
// them, the query's words and the agent's own values states no finding.
var genericWords = map[string]bool{}

func init() {
	for _, k := range strings.Fields(`status code message msg success successful ok error errors err statuscode httpcode httpstatus
		statusmessage statustext responsecode resultcode returncode errormessage errmsg`) {
		envelopeKeys[k] = true
	}
	for _, w := range textmatch.ContentWords(`request requests requested processed process processing successfully success successful succeeded
		ok okay status code message completed complete done found result results retrieved fetched returned data operation
		query api response call executed valid invalid accepted created error failed failure true false null none
		here information info available record records item items list listed matching match search searched`) {
		genericWords[w] = true
	}
}

func envelopeKey(k string) string {
	k = strings.ToLower(strings.TrimSuffix(k, "[]"))
	return strings.NewReplacer("_", "", "-", "", " ", "").Replace(k)
}

// underEnvelope tells whether a value's path passes through an envelope
// field, and whether through an error field: "status.code", "meta.message",
// "errors[]".
func underEnvelope(path string) (envelope, failure bool) {
	for _, k := range strings.Split(path, ".") {
		k = envelopeKey(k)
		envelope = envelope || envelopeKeys[k]
		failure = failure || errorKeys[k]
	}
	return envelope, failure
}

// httpCode tells whether a value reads as an HTTP status code.
func httpCode(v string) bool {
	n, err := strconv.Atoi(strings.TrimSpace(v))
	return err == nil && n >= 100 && n <= 599
}

// commonHTTPCodes are the codes responses and fake answers report; one
// stated in an answer is no evidence wherever a response holds it, as a
// content-free answer says "200" as readily as "success".
var commonHTTPCodes = map[string]bool{}

func init() {
	for _, c := range strings.Fields("200 201 202 204 301 302 304 400 401 403 404 405 409 410 422 429 500 502 503 504") {
		commonHTTPCodes[c] = true
	}
}

// envelopeNoise tells whether a value, at every path the response holds
// it, is an envelope field's report: under an error field, or an HTTP code
// or a status word under any envelope field.
func envelopeNoise(v string, paths []string) bool {
	if len(paths) == 0 {
		return false
	}
	for _, p := range paths {
		env, failure := underEnvelope(p)
		if failure {
			continue
		}
		if !env || !(httpCode(v) || textmatch.IsStatusLiteral(v)) {
			return false
		}
	}
	return true
}

// wrapsKnown tells whether a value's content words are all status words,
// the query's words or the agent's own: it states nothing found.
func wrapsKnown(v string, query map[string]bool, own arguments) bool {
	for _, w := range textmatch.ContentWords(v) {
		if !genericWords[w] && !query[w] && !own.words[w] {
			return false
		}
	}
	return true
}

// contentWords is the set of a text's stemmed content words.
func contentWords(s string) map[string]bool {
	out := map[string]bool{}
	for _, w := range textmatch.ContentWords(s) {
		out[w] = true
	}
	return out
}

// noEvidence tells whether a response value found at paths says nothing
// the API found: a small whole number or status word, the agent's own
// argument handed back, a value the query states, an envelope's report,
// or known words wrapped in status words.
func noEvidence(v string, paths []string, asked *textmatch.Matcher, query map[string]bool, own arguments) bool {
	return trivialValue(v) || commonHTTPCodes[strings.TrimSpace(v)] || own.echoes(v) || asked.Fact(v) == textmatch.FactStated ||
		envelopeNoise(v, paths) || wrapsKnown(v, query, own)
}
