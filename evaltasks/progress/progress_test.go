package progress

import (
	"bytes"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// manualClock reads what the test set it to.
type manualClock struct{ now time.Time }

func (c *manualClock) Now() time.Time { return c.now }

func TestProgress(t *testing.T) {
	start := time.Date(2025, 6, 2, 9, 0, 0, 0, time.UTC)
	tests := []struct {
		name string
		tty  bool
		// every is the time each instance takes; failed marks the ones that end in an error.
		every  time.Duration
		total  int
		failed map[int]bool
		want   []string // what the output holds after each tick
	}{
		{
			name: "terminal: a bar redrawn in place with done/total, rate and ETA", tty: true, every: 500 * time.Millisecond, total: 4,
			failed: map[int]bool{2: true},
			want: []string{
				"\r███████░░░░░░░░░░░░░░░░░░░░░░░ 1/4  25% 2.0/s ETA 2s\033[K",
				"\r███████████████░░░░░░░░░░░░░░░ 2/4  50% 2.0/s, 1 error ETA 1s\033[K",
				"\r██████████████████████░░░░░░░░ 3/4  75% 2.0/s, 1 error ETA 1s\033[K",
				"\r██████████████████████████████ 4/4 100% 2.0/s, 1 error\033[K",
			},
		},
		{
			name: "terminal: a slow model's rate per minute", tty: true, every: 30 * time.Second, total: 2,
			want: []string{
				"\r███████████████░░░░░░░░░░░░░░░ 1/2  50% 2/min ETA 30s\033[K",
				"\r██████████████████████████████ 2/2 100% 2/min\033[K",
			},
		},
		{
			name: "not a terminal: plain lines every 5%, no redrawing", every: time.Second, total: 40,
			want: []string{"evalrun: 1/40 instances (2%) ETA 39s\n", "evalrun: 2/40 instances (5%) ETA 38s\n", "", "evalrun: 4/40 instances (10%) ETA 36s\n", ""},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clk := &manualClock{now: start}
			var out bytes.Buffer
			p := New(&out, tt.tty, clk, tt.total)
			for i, want := range tt.want {
				clk.now = clk.now.Add(tt.every)
				out.Reset()
				p.Tick(tt.failed[i+1])
				require.Equal(t, want, out.String(), "after instance %d", i+1)
			}
			out.Reset()
			p.Finish()
			if tt.tty {
				require.Equal(t, "\n", out.String(), "the bar's line ends")
			} else {
				require.Empty(t, out.String())
			}
		})
	}
}
