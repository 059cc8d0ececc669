package sampling

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

// items are n items of a task, spread over two types and three scenarios.
func items(task, n int) []Item {
	out := make([]Item, n)
	for i := range out {
		out[i] = Item{Task: task, Key: fmt.Sprintf("T%d/%03d", task, i), Strata: []string{fmt.Sprint(i % 2), fmt.Sprint(i % 3), fmt.Sprint(i)}}
	}
	return out
}

func kept(keep []bool) (n int) {
	for _, k := range keep {
		if k {
			n++
		}
	}
	return n
}

func TestKeep(t *testing.T) {
	all := append(items(1, 60), items(2, 7)...)
	tests := []struct {
		name  string
		n     int
		want1 int // kept of task 1
		want2 int // kept of task 2
	}{
		{"no sample keeps everything", 0, 60, 7},
		{"n per task, a small task whole", 12, 12, 7},
		{"a sample as large as a task keeps it whole", 60, 60, 7},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			keep := Keep(all, tt.n, 42)
			require.Equal(t, tt.want1, kept(keep[:60]))
			require.Equal(t, tt.want2, kept(keep[60:]))
		})
	}
}

func TestKeepIsSeededAndStratified(t *testing.T) {
	all := items(1, 60)
	a, b := Keep(all, 12, 42), Keep(all, 12, 42)
	require.Equal(t, a, b, "the same seed, the same sample")
	require.NotEqual(t, a, Keep(all, 12, 43), "another seed, another sample")
	byType := map[string]int{}
	for i, k := range a {
		if k {
			byType[all[i].Strata[0]]++
		}
	}
	require.Equal(t, map[string]int{"0": 6, "1": 6}, byType, "each type keeps its half")
}
