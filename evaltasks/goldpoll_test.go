package evaltasks

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/understudy/understudy/deps"
	"github.com/understudy/understudy/evaltasks/chainscore"
	"github.com/understudy/understudy/evaltasks/dataset"
	"github.com/understudy/understudy/fixtures"
)

// TestGoldChainsPollIncompleteSearches: a search whose documentation says
// an incomplete answer must be polled until complete is followed, in every
// gold chain that answers incomplete, by a polling step bound to it, and
// every later step reads the complete list of the poll, not the first
// batch of the search: a model that follows the docs is the gold.
func TestGoldChainsPollIncompleteSearches(t *testing.T) {
	st := testStack(t)
	ins, err := dataset.LoadDir(fixtures.FS, "instructions")
	require.NoError(t, err)
	checked := 0
	for _, in := range ins {
		if in.Type != dataset.TypeDependencies {
			continue
		}
		docs, err := chainscore.RunGold(context.Background(), st.Engine, st.Catalog, in.Chain, "goldpoll/"+in.ID)
		require.NoError(t, err, in.ID)
		for i, d := range docs {
			status := deps.Values(d, "data.context.status")
			if len(status) == 0 || status[0] != "incomplete" || in.Chain[i].Repeat {
				continue
			}
			checked++
			if i+1 == len(in.Chain) || !in.Chain[i+1].Repeat {
				t.Errorf("%s: step %d answers incomplete and no polling step follows it", in.ID, i+1)
				continue
			}
			for k, later := range in.Chain[i+2:] {
				for name, b := range later.Bindings {
					if b.Step == i && name != "token" {
						t.Errorf("%s: step %d reads %s from the first batch of step %d, not the poll", in.ID, i+k+3, name, i+1)
					}
				}
			}
		}
	}
	require.NotZero(t, checked)
}
