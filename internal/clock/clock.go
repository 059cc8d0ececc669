// Package clock is the injectable time source: frozen by default so that time-dependent answers are reproducible.
package clock

import "time"

// Clock tells the time.
type Clock interface {
	Now() time.Time
}

// Default is the instant the sandbox is frozen at unless told otherwise:
// Monday 2 June 2025, 09:00 UTC.
var Default = time.Date(2025, time.June, 2, 9, 0, 0, 0, time.UTC)

// Fixed is a clock that always reads the same instant.
type Fixed time.Time

// Now returns the fixed instant.
func (f Fixed) Now() time.Time { return time.Time(f) }

// Real reads the system clock.
type Real struct{}

// Now returns the current system time.
func (Real) Now() time.Time { return time.Now() }

// Frozen returns a clock fixed at Default.
func Frozen() Clock { return Fixed(Default) }

// Parse reads a -now flag value: RFC 3339 ("2025-06-02T09:00:00Z"), a date
// ("2025-06-02", midnight UTC), or "real" for the system clock.
func Parse(s string) (Clock, error) {
	switch s {
	case "", "frozen":
		return Frozen(), nil
	case "real":
		return Real{}, nil
	}
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return Fixed(t), nil
	}
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		return nil, &time.ParseError{Layout: "RFC 3339 or YYYY-MM-DD", Value: s, Message: ": want RFC 3339 (2025-06-02T09:00:00Z), a date (2025-06-02) or \"real\""}
	}
	return Fixed(t), nil
}

var _ Clock = Fixed{}
var _ Clock = Real{}
