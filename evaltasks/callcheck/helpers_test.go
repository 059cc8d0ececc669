package callcheck

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/understudy/understudy/internal/assemble"
)

var (
	stackOnce sync.Once
	stack     *assemble.Stack
	stackErr  error
)

// testStack is the default offline sandbox, built once for the package's
// tests: its catalog is the one calls are checked against.
func testStack(t testing.TB) *assemble.Stack {
	t.Helper()
	stackOnce.Do(func() { stack, stackErr = assemble.Build(assemble.Config{}) })
	require.NoError(t, stackErr)
	return stack
}
