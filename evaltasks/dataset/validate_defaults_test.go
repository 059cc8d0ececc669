package dataset

import (
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/understudy/understudy/toolset"
)

func TestDefaultMismatch(t *testing.T) {
	tests := []struct {
		desc     string
		declared any
		bad      bool
	}{
		{"Time zone: IANA name or city. Default UTC. Ex: Europe/Lisbon", "Europe/Lisbon", true},
		{"Time zone: IANA name or city. Default Europe/Lisbon. Ex: Europe/Lisbon", "Europe/Lisbon", false},
		{"Output format: iso (default), rfc1123, human", "human", true},
		{"Output format: human (default), iso, rfc1123", "human", false},
		{"Number of days, 1 to 14; defaults to 3", 3.0, false},
		{"Number of days, 1 to 14; defaults to 7", 3.0, true},
		{"Language code, default: `en`", "en", false},
		{"Language code", "en", false},
		{"Default UTC", nil, false},
	}
	for _, tt := range tests {
		got := DefaultMismatch(&toolset.Param{Name: "p", Description: tt.desc, Default: tt.declared})
		require.Equal(t, tt.bad, got != "", "%q (declared %v): %q", tt.desc, tt.declared, got)
	}
}
