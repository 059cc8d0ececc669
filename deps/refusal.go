package deps

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strings"

	"github.com/understudy/understudy/internal/canon"
	"github.com/understudy/understudy/sandbox"
	"github.com/understudy/understudy/toolset"
)

// defaultRefusal is the answer of an API whose documentation says nothing
// of how it refuses an unknown ID (no x-invalid-value).
var defaultRefusal = toolset.Refusal{Status: http.StatusBadRequest, Body: []byte(`{"message":"Invalid {param}"}`)}

// HintField is the field -explain adds to a refusal's body: what the
// dependency check found, for a person debugging an agent. Evaluations
// never set it.
const HintField = "understudy_hint"

// refusal is the answer the real API gives when param holds value, an ID
// it never issued: the API's documented x-invalid-value (its tool's, or a
// plain 400 "Invalid <param>"), with the parameter's name, the value and a
// request ID filled in. It says nothing of other APIs; hint, when not
// empty, is added under HintField.
func refusal(api *toolset.API, param string, value string, hint string) *sandbox.Rejection {
	tmpl := api.Refusal()
	if tmpl == nil {
		tmpl = &defaultRefusal
	}
	doc, err := canon.Decode(tmpl.Body)
	body, ok := doc.(map[string]any)
	if err != nil || !ok {
		doc, _ = canon.Decode(defaultRefusal.Body)
		body = doc.(map[string]any)
	}
	sum := sha256.Sum256([]byte(api.ID() + "\x00" + param + "\x00" + value))
	id := hex.EncodeToString(sum[:16])
	// A version-4 UUID's shape, from the call: the same refusal has the same bytes.
	uuid := id[0:8] + "-" + id[8:12] + "-4" + id[13:16] + "-" + string("89ab"[sum[8]&3]) + id[17:20] + "-" + id[20:32]
	r := strings.NewReplacer("{param}", param, "{value}", value, "{uuid}", uuid)
	out := fill(body, r).(map[string]any)
	if hint != "" {
		out[HintField] = hint
	}
	return &sandbox.Rejection{Status: tmpl.Status, Body: out}
}

// fill replaces the placeholders in every string and key of a decoded
// template, copying it.
func fill(v any, r *strings.Replacer) any {
	switch x := v.(type) {
	case string:
		return r.Replace(x)
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[r.Replace(k)] = fill(e, r)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = fill(e, r)
		}
		return out
	}
	return v
}
