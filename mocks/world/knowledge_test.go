package world

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestWorldKnowledgeViews(t *testing.T) {
	w, err := DefaultWorld()
	require.NoError(t, err)
	lisbon, ok := w.FindCity("Lisbon")
	require.True(t, ok)
	n, ok := w.Climate(lisbon.ID)
	require.True(t, ok)
	require.Greater(t, n.HighC[6], n.HighC[0], "Lisbon's July is warmer than its January")
	require.Greater(t, n.RainDays[11], n.RainDays[6], "and its December wetter than its July")
	_, ok = w.Climate("atlantis")
	require.False(t, ok)

	pb := w.Phrasebook()
	require.NotEmpty(t, pb)
	found := false
	for _, e := range pb {
		require.NotEmpty(t, e["en"])
		if e["en"] == "Thank you" || e["en"] == "thank you" {
			found = e["pt"] != ""
		}
	}
	require.True(t, found, "the phrasebook translates thank you into Portuguese")
}
