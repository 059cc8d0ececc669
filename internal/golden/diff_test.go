package golden

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestFirstDifference(t *testing.T) {
	d := firstDifference("a\nb\nc\nd\ne\nf\n", "a\nb\nc\nX\ne\nf\n")
	require.Contains(t, d, "first difference at line 4")
	require.Contains(t, d, "--- want\nb\nc\nd\ne\nf\n+++ got\nb\nc\nX\ne\nf\n")
	d = firstDifference("a\n", "a\nb\n")
	require.Contains(t, d, "first difference at line 2")
	require.Contains(t, d, "+++ got\na\nb\n")
}
