package sandbox

// FlightWaiters counts the calls that joined a fill under way, for tests
// that must know a call is waiting before they go on.
func FlightWaiters(e *Engine) int {
	e.flights.mu.Lock()
	defer e.flights.mu.Unlock()
	n := 0
	for _, f := range e.flights.m {
		n += f.waiters
	}
	return n
}
