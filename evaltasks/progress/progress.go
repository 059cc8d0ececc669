// Package progress reports an evaluation run's progress as its instances complete: a bar redrawn in place on a terminal, a plain line every 5% in a log.
package progress

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/understudy/understudy/internal/clock"
)

// Meter reports instances as they complete: on a terminal a drawn bar
// (done/total, rate, ETA) redrawn in place, otherwise a plain line every 5%
// (a log keeps every line, so it gets few). A nil Meter, or one without a
// writer, reports nothing. It is safe for concurrent use.
type Meter struct {
	mu    sync.Mutex
	w     io.Writer
	tty   bool
	clock clock.Clock
	start time.Time
	total int
	done  int
	// errors counts the instances that ended in an error, shown so that a
	// failing endpoint is noticed before the run ends.
	errors int
	shown  int // plain mode: last 5% step printed
}

// New reports a run of total instances to w; tty draws a bar. The clock
// (default: the system clock) times the rate and ETA.
func New(w io.Writer, tty bool, c clock.Clock, total int) *Meter {
	if c == nil {
		c = clock.Real{}
	}
	return &Meter{w: w, tty: tty, clock: c, start: c.Now(), total: total, shown: -1}
}

// Tick counts an instance done; failed tells whether it ended in an error.
func (p *Meter) Tick(failed bool) {
	if p == nil || p.w == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done++
	if failed {
		p.errors++
	}
	p.draw()
}

func (p *Meter) errorCount() string {
	switch p.errors {
	case 0:
		return ""
	case 1:
		return ", 1 error"
	}
	return fmt.Sprintf(", %d errors", p.errors)
}

func (p *Meter) draw() {
	now := p.clock.Now()
	pct := 100
	if p.total > 0 {
		pct = p.done * 100 / p.total
	}
	if !p.tty {
		if step := pct / 5; step > p.shown {
			p.shown = step
			fmt.Fprintf(p.w, "evalrun: %d/%d instances (%d%%)%s%s\n", p.done, p.total, pct, p.errorCount(), p.eta(now))
		}
		return
	}
	const width = 30
	fill := width * pct / 100
	bar := strings.Repeat("█", fill) + strings.Repeat("░", width-fill)
	fmt.Fprintf(p.w, "\r%s %d/%d %3d%%%s%s%s\033[K", bar, p.done, p.total, pct, p.rate(now), p.errorCount(), p.eta(now))
}

// rate is the instances done per second so far, "" before any time passed.
func (p *Meter) rate(now time.Time) string {
	el := now.Sub(p.start)
	if p.done == 0 || el <= 0 {
		return ""
	}
	r := float64(p.done) / el.Seconds()
	if r < 1 {
		return fmt.Sprintf(" %.0f/min", r*60)
	}
	return fmt.Sprintf(" %.1f/s", r)
}

func (p *Meter) eta(now time.Time) string {
	if p.done == 0 || p.done >= p.total {
		return ""
	}
	el := now.Sub(p.start)
	left := time.Duration(float64(el) / float64(p.done) * float64(p.total-p.done))
	return " ETA " + left.Round(time.Second).String()
}

// Finish ends the bar's line.
func (p *Meter) Finish() {
	if p == nil || p.w == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.tty {
		fmt.Fprintln(p.w)
	}
}
