package basic

import (
	"context"
	"errors"
	"fmt"

	"github.com/understudy/understudy/internal/calc"
	"github.com/understudy/understudy/internal/starlarkbox"
	"github.com/understudy/understudy/mocks/standin"
	"github.com/understudy/understudy/mocks/world"
	"github.com/understudy/understudy/sandbox"
)

// Stand-ins for calculator (own) and python_interpreter (own): both are
// real, the calculator a hand-written expression evaluator and the
// interpreter a Starlark sandbox.

func handleCalculate(_ context.Context, _ *world.World, c *standin.Call) (any, error) {
	expr := c.ArgString("expression")
	v, err := calc.Eval(expr)
	if err != nil {
		var ce *calc.Error
		if !errors.As(err, &ce) {
			return nil, err
		}
		body := map[string]any{"error": ce.Error(), "expression": expr}
		if ce.Pos > 0 {
			body["position"] = ce.Pos
		}
		return nil, &sandbox.Rejection{Status: 400, Body: body}
	}
	return map[string]any{
		"expression":  expr,
		"result":      calc.Round(v),
		"result_text": calc.Format(v),
	}, nil
}

// interpreter bounds all runs of python_interpreter together: each run
// may build 256 MiB of values, and without a cap across runs sixteen at
// once took the process to 3.3 GB.
var interpreter = starlarkbox.NewPool(starlarkbox.DefaultPoolLimits)

func handleRunPython(ctx context.Context, _ *world.World, c *standin.Call) (any, error) {
	code, _ := c.Args["code"].(string) // untrimmed: indentation matters
	if code == "" {
		code = c.ArgString("code")
	}
	res, err := interpreter.Run(ctx, code, starlarkbox.Limits{})
	var busy *starlarkbox.BusyError
	if errors.As(err, &busy) {
		// Not the program's fault and nothing ran: the engine answers 429
		// with Retry-After, as for any capacity the caller must wait for.
		return nil, fmt.Errorf("the interpreter is busy (%d programs running, %d waiting): %w", busy.Running, busy.Waiting, &sandbox.RateLimitError{
			Tool: c.API.Tool.StandardizedName, RetryAfter: busy.RetryAfter, Limit: busy.Limit,
		})
	}
	out := map[string]any{
		"output":           res.Output,
		"output_truncated": res.OutputTruncated,
		"result":           res.Value,
		"steps":            res.Steps,
		"error":            nil,
		"error_type":       nil,
		"line":             nil,
	}
	if err != nil {
		var be *starlarkbox.Error
		if !errors.As(err, &be) {
			return nil, err
		}
		out["error"] = be.Msg
		out["error_type"] = string(be.Kind)
		if be.Line > 0 {
			out["line"] = be.Line
		}
	}
	return out, nil
}
