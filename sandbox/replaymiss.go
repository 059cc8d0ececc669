package sandbox

import (
	"context"
	"slices"

	"github.com/understudy/understudy/internal/canon"
	"github.com/understudy/understudy/toolset"
)

// replayMiss answers a call replay has no recording for under its exact
// arguments. When the recordings can list the API's recorded calls, one
// whose arguments have the same replay form (toolset.API.ReplayForm:
// trimmed strings, case-folded where the parameter ignores case, numbers
// in one form) answers; otherwise the miss names the nearest ones.
func (e *Engine) replayMiss(ctx context.Context, api *toolset.API, args map[string]any, key string, canonArgs []byte, res *Result) error {
	tool := api.Tool.StandardizedName
	miss := &ReplayMissError{Tool: tool, API: api.Name, Key: key, Arguments: string(canonArgs)}
	idx, ok := e.opts.Recordings.(RecordingIndex)
	if !ok {
		return miss
	}
	recorded, err := idx.Recorded(ctx, tool, api.Name)
	if err != nil {
		e.log.Warn("recorded calls not listed", "tool", tool, "api", api.Name, "err", err)
	}
	miss.Listed = err == nil
	type scored struct {
		call RecordedCall
		d    float64
	}
	var near []scored
	for _, rc := range recorded {
		v, err := canon.Decode(rc.Arguments)
		recArgs, isObj := v.(map[string]any)
		if err != nil || !isObj {
			continue
		}
		d := api.ReplayDistance(args, recArgs)
		if d == 0 && rc.Key != key {
			got, ok, err := e.opts.Recordings.Get(ctx, rc.Key)
			if err == nil && ok {
				res.Key = rc.Key
				res.Status, res.Response, res.Source = got.Status, got.Response, SourceCache
				if res.Status == 0 {
					res.Status = 200
				}
				return nil
			}
		}
		near = append(near, scored{rc, d})
	}
	slices.SortStableFunc(near, func(a, b scored) int {
		if a.d != b.d {
			if a.d < b.d {
				return -1
			}
			return 1
		}
		return slices.Compare(a.call.Arguments, b.call.Arguments)
	})
	for _, n := range near[:min(len(near), MaxNearest)] {
		miss.Nearest = append(miss.Nearest, n.call)
	}
	return miss
}
