package evaltasks

import (
	"fmt"
	"testing"

	"github.com/understudy/understudy/toolset/search"

	"github.com/stretchr/testify/require"
	"github.com/understudy/understudy/evaltasks/dataset"
)

func TestParseTasks(t *testing.T) {
	all := []int{1, 2, 3, 4, 5, 6, 7, 8}
	tests := []struct {
		in   string
		want []int
		bad  bool
	}{
		{"", all, false},
		{"all", all, false},
		{"1,2,7", []int{1, 2, 7}, false},
		{"7,1,1", []int{1, 7}, false},
		{"1-4,8", []int{1, 2, 3, 4, 8}, false},
		{"T3, t5", []int{3, 5}, false},
		{"0", nil, true},
		{"9", nil, true},
		{"4-2", nil, true},
		{"1,,2", nil, true},
		{"x", nil, true},
	}
	for _, tt := range tests {
		got, err := ParseTasks(tt.in)
		if tt.bad {
			var te *TaskListError
			require.ErrorAs(t, err, &te, tt.in)
			continue
		}
		require.NoError(t, err, tt.in)
		require.Equal(t, tt.want, got, tt.in)
	}
}

func FuzzParseTasks(f *testing.F) {
	for _, s := range []string{"1,2,7", "1-8", "all", "T1-T3", "-", "9-1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := ParseTasks(s)
		if err != nil {
			return
		}
		for i, n := range got {
			require.True(t, n >= 1 && n <= 8)
			require.True(t, i == 0 || got[i-1] < n)
		}
	})
}

func TestInstancesFollowTable1(t *testing.T) {
	insts := Instances(miniData(t), nil)
	require.Empty(t, insts, "no tasks, no instances")
	count := map[int]int{}
	for _, in := range Instances(miniData(t), []int{1, 2, 3, 4, 5, 6, 7, 8}) {
		count[in.Task]++
		spec, _ := Spec(in.Task)
		require.Contains(t, spec.Types, in.In.Type)
	}
	require.Equal(t, map[int]int{1: 5, 2: 3, 3: 2, 4: 3, 5: 2, 6: 3, 7: 2, 8: 1}, count)
}

func TestPerturbingAPIs(t *testing.T) {
	cat := testStack(t).Catalog
	in := dataset.Instruction{ID: "p", TargetAPI: "skyscanner80.flights_search_one_way", AlsoCorrect: []string{"skyscanner80.flights_search_roundtrip"}}
	got := dataset.PerturbingAPIs(cat, nil, in)
	require.Len(t, got, dataset.PerturbingCount)
	require.NotContains(t, got, in.TargetAPI)
	require.NotContains(t, got, in.AlsoCorrect[0])
	require.Equal(t, got, dataset.PerturbingAPIs(cat, search.Of(cat), in), "deterministic")
	require.Nil(t, dataset.PerturbingAPIs(cat, nil, dataset.Instruction{TargetAPI: "nope.nothing"}))

	ids := []string{"a", "b", "c", "d", "e"}
	shuffleFor("T2/x", ids)
	again := []string{"a", "b", "c", "d", "e"}
	shuffleFor("T2/x", again)
	require.Equal(t, ids, again, "the same instance sees the same order")
	require.ElementsMatch(t, []string{"a", "b", "c", "d", "e"}, ids)
	// Where the target lands depends on the instance: over many instances
	// it takes every position, so position carries no hint.
	firsts := map[string]bool{}
	for i := 0; i < 50; i++ {
		order := []string{"a", "b", "c", "d", "e"}
		shuffleFor(fmt.Sprintf("T2/x-%d", i), order)
		firsts[order[0]] = true
	}
	require.Len(t, firsts, 5)
}
