package evaltasks

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/understudy/understudy/internal/clock"
)

// progress reports instances as they complete: a bar with an ETA redrawn
// in place on a terminal, plain lines every 5% otherwise.
type progress struct {
	mu    sync.Mutex
	w     io.Writer
	tty   bool
	clock clock.Clock
	start time.Time
	total int
	done  int
	shown int // plain mode: last 5% step printed
}

func newProgress(w io.Writer, tty bool, c clock.Clock, total int) *progress {
	if c == nil {
		c = clock.Real{}
	}
	return &progress{w: w, tty: tty, clock: c, start: c.Now(), total: total, shown: -1}
}

func (p *progress) tick() {
	if p == nil || p.w == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done++
	p.draw()
}

func (p *progress) draw() {
	pct := 100
	if p.total > 0 {
		pct = p.done * 100 / p.total
	}
	if !p.tty {
		if step := pct / 5; step > p.shown {
			p.shown = step
			fmt.Fprintf(p.w, "evalrun: %d/%d instances (%d%%)%s\n", p.done, p.total, pct, p.eta())
		}
		return
	}
	const width = 30
	fill := width * pct / 100
	bar := strings.Repeat("█", fill) + strings.Repeat("░", width-fill)
	fmt.Fprintf(p.w, "\r%s %d/%d %3d%%%s\033[K", bar, p.done, p.total, pct, p.eta())
}

func (p *progress) eta() string {
	if p.done == 0 || p.done >= p.total {
		return ""
	}
	el := p.clock.Now().Sub(p.start)
	left := time.Duration(float64(el) / float64(p.done) * float64(p.total-p.done))
	return " ETA " + left.Round(time.Second).String()
}

// finish ends the bar's line.
func (p *progress) finish() {
	if p == nil || p.w == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.tty {
		fmt.Fprintln(p.w)
	}
}
