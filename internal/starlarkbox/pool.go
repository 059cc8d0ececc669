package starlarkbox

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"time"
)

// PoolLimits bound the interpreter as a whole, across runs: each run's own
// Limits bound only that run, and sixteen runs of 256 MiB at once are 4 GiB.
type PoolLimits struct {
	Runs   int           // programs running at once
	Memory int64         // the sum of the MaxAllocated of the runs running at once
	Queue  int           // runs that may wait for a turn; one more is refused at once
	Wait   time.Duration // how long a run may wait for its turn before it is refused
}

// DefaultPoolLimits: as many runs as CPUs (between 2 and 8; a run is
// CPU-bound), 1 GiB for all of them (four runs at the default 256 MiB
// each), and up to 32 runs waiting at most 10 s.
var DefaultPoolLimits = PoolLimits{
	Runs:   min(max(runtime.GOMAXPROCS(0), 2), 8),
	Memory: 1 << 30,
	Queue:  32,
	Wait:   10 * time.Second,
}

// BusyError is a run refused because the interpreter is at capacity. It is
// the caller's to retry; nothing ran.
type BusyError struct {
	Running, Waiting int
	// Limit describes the capacity that is used up.
	Limit string
	// RetryAfter is when a retry may find room.
	RetryAfter time.Duration
}

func (e *BusyError) Error() string {
	return fmt.Sprintf("the interpreter is busy: %d programs running and %d waiting (capacity: %s); retry after %s", e.Running, e.Waiting, e.Limit, e.RetryAfter)
}

// Pool runs programs within PoolLimits. The zero Pool is not usable; use NewPool.
type Pool struct {
	lim     PoolLimits
	mu      sync.Mutex
	running int
	memory  int64
	waiting int
	// freed is closed (and replaced) whenever a run ends, waking the waiters.
	freed chan struct{}
}

// NewPool returns a pool with lim; zero fields take DefaultPoolLimits'.
func NewPool(lim PoolLimits) *Pool {
	d := DefaultPoolLimits
	lim = PoolLimits{
		Runs:   positiveOr(lim.Runs, d.Runs),
		Memory: positiveOr(lim.Memory, d.Memory),
		Queue:  positiveOr(lim.Queue, d.Queue),
		Wait:   positiveOr(lim.Wait, d.Wait),
	}
	return &Pool{lim: lim, freed: make(chan struct{})}
}

// Run is the package's Run once the pool has room for the program: a run
// reserves its MaxAllocated from the pool's Memory for as long as it runs.
// A run the pool cannot take (queue full, or no room within Wait) fails
// with a *BusyError and an empty Result; a caller that goes away while
// waiting gets its context's error.
func (p *Pool) Run(ctx context.Context, code string, lim Limits) (*Result, error) {
	lim = lim.withDefaults()
	if lim.MaxAllocated > p.lim.Memory {
		return &Result{}, &Error{Kind: KindLimit, Msg: fmt.Sprintf("the run's memory limit of %s is larger than the interpreter's %s", human(lim.MaxAllocated), human(p.lim.Memory))}
	}
	if err := p.acquire(ctx, lim.MaxAllocated); err != nil {
		return &Result{}, err
	}
	defer p.release(lim.MaxAllocated)
	return Run(ctx, code, lim)
}

// Load is how many runs are running and waiting now.
func (p *Pool) Load() (running, waiting int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.running, p.waiting
}

func (p *Pool) fits(mem int64) bool {
	return p.running < p.lim.Runs && p.memory+mem <= p.lim.Memory
}

func (p *Pool) busy() *BusyError {
	return &BusyError{
		Running: p.running, Waiting: p.waiting, RetryAfter: time.Second,
		Limit: fmt.Sprintf("%d programs at once, %s in all, %d waiting", p.lim.Runs, human(p.lim.Memory), p.lim.Queue),
	}
}

func (p *Pool) acquire(ctx context.Context, mem int64) error {
	p.mu.Lock()
	if p.waiting == 0 && p.fits(mem) {
		p.running++
		p.memory += mem
		p.mu.Unlock()
		return nil
	}
	if p.waiting >= p.lim.Queue {
		err := p.busy()
		p.mu.Unlock()
		return err
	}
	p.waiting++
	timer := time.NewTimer(p.lim.Wait)
	defer timer.Stop()
	for {
		freed := p.freed
		p.mu.Unlock()
		select {
		case <-ctx.Done():
			p.mu.Lock()
			p.waiting--
			p.mu.Unlock()
			return fmt.Errorf("waiting for the interpreter: %w", ctx.Err())
		case <-timer.C:
			p.mu.Lock()
			err := p.busy()
			p.waiting--
			p.mu.Unlock()
			return err
		case <-freed:
		}
		p.mu.Lock()
		if p.fits(mem) {
			p.waiting--
			p.running++
			p.memory += mem
			p.mu.Unlock()
			return nil
		}
	}
}

func (p *Pool) release(mem int64) {
	p.mu.Lock()
	p.running--
	p.memory -= mem
	close(p.freed)
	p.freed = make(chan struct{})
	p.mu.Unlock()
}
