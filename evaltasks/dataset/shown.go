package dataset

import (
	"encoding/json"

	"github.com/understudy/understudy/agent/observe"
	"github.com/understudy/understudy/internal/canon"
	"github.com/understudy/understudy/toolset"
)

// ShownResult is a call's result as the evaluation shows it to a model:
// whole up to observe.Budget, else cut with a note saying what was left
// out and, when the API pages, how to get more (observe.Result). Task 6
// shows a gold call's result so, the solvers every result; the validator
// and the generator hold expected facts and bound values to what it
// shows.
func ShownResult(api *toolset.API, response []byte, args map[string]any) observe.Fitted {
	names := make([]string, len(api.Params))
	for i, p := range api.Params {
		names[i] = p.Name
	}
	return observe.Result(response, observe.Budget, args, observe.PagingOf(names))
}

// ShownDoc decodes what ShownResult shows; nil for a result that is no
// JSON.
func ShownDoc(f observe.Fitted) any {
	if f.Bytes || !json.Valid([]byte(f.Text)) {
		return nil
	}
	doc, _ := canon.Decode([]byte(f.Text))
	return doc
}
