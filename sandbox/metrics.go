package sandbox

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
)

// Metrics counts calls by tool, API and outcome (a source, or invalid,
// not_found, rejected, rate_limited, error). Tools are labelled only by
// catalog names: every name the catalog lacks counts as tool "unknown". It
// writes the Prometheus text exposition format.
type Metrics struct {
	m sync.Map // metricKey → *atomic.Int64
}

type metricKey struct{ tool, api, outcome string }

func newMetrics() *Metrics { return &Metrics{} }

func (m *Metrics) count(tool, api, outcome string) {
	k := metricKey{tool, api, outcome}
	v, ok := m.m.Load(k)
	if !ok {
		v, _ = m.m.LoadOrStore(k, new(atomic.Int64))
	}
	v.(*atomic.Int64).Add(1)
}

// Get returns one counter's value.
func (m *Metrics) Get(tool, api, outcome string) int64 {
	if v, ok := m.m.Load(metricKey{tool, api, outcome}); ok {
		return v.(*atomic.Int64).Load()
	}
	return 0
}

// WritePrometheus writes the counters, sorted, in the text exposition format.
func (m *Metrics) WritePrometheus(w io.Writer) error {
	type row struct {
		k metricKey
		v int64
	}
	var rows []row
	m.m.Range(func(k, v any) bool {
		rows = append(rows, row{k.(metricKey), v.(*atomic.Int64).Load()})
		return true
	})
	sort.Slice(rows, func(i, j int) bool {
		a, b := rows[i].k, rows[j].k
		if a.tool != b.tool {
			return a.tool < b.tool
		}
		if a.api != b.api {
			return a.api < b.api
		}
		return a.outcome < b.outcome
	})
	if _, err := io.WriteString(w, "# HELP understudy_calls_total Calls handled by the engine, by tool, API and outcome.\n# TYPE understudy_calls_total counter\n"); err != nil {
		return err
	}
	for _, r := range rows {
		if _, err := fmt.Fprintf(w, "understudy_calls_total{tool=%q,api=%q,outcome=%q} %d\n", esc(r.k.tool), esc(r.k.api), r.k.outcome, r.v); err != nil {
			return err
		}
	}
	return nil
}

// esc keeps label values on one line; %q does the quoting and escaping.
func esc(s string) string { return strings.ReplaceAll(s, "\n", " ") }
