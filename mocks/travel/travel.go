package travel

import (
	"crypto/sha256"
	"encoding/binary"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/understudy/understudy/mocks/standin"
	"github.com/understudy/understudy/mocks/world"
)

// stableHash is a stable 64-bit hash of its parts, for ids and generation
// seeds that must not depend on the argument spelling of one call.
func stableHash(parts ...string) uint64 {
	h := sha256.New()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return binary.BigEndian.Uint64(h.Sum(nil)[:8])
}

// parseDate parses a YYYY-MM-DD date.
func parseDate(s string) (time.Time, bool) {
	t, err := time.Parse(time.DateOnly, strings.TrimSpace(s))
	return t, err == nil
}

// today is the sandbox date (UTC) of the call.
func today(c *standin.Call) time.Time {
	y, m, dd := c.Now.UTC().Date()
	return time.Date(y, m, dd, 0, 0, 0, 0, time.UTC)
}

// money rounds an amount to a currency's minor unit.
func money(w *world.World, amount float64, code string) float64 {
	dec := 2
	if cur, ok := w.Currency(code); ok {
		dec = cur.Decimals
	}
	p := math.Pow10(dec)
	return math.Round(amount*p) / p
}

// fromEUR converts a EUR amount to code, rounded to its minor unit.
func fromEUR(w *world.World, eur float64, code string) float64 {
	v, err := w.Convert(eur, "EUR", code)
	if err != nil {
		return money(w, eur, "EUR")
	}
	return money(w, v, code)
}

// roundTo rounds to n decimals.
func roundTo(v float64, n int) float64 {
	p := math.Pow10(n)
	return math.Round(v*p) / p
}

// timestamp is the call's clock as Unix milliseconds, as the RapidAPI
// travel sites stamp their answers.
func timestamp(c *standin.Call) int64 { return c.Now.UnixMilli() }

// searchCities finds the cities a search box query means, best first: the
// city FindCity resolves ("Lisbon, Portugal", "NYC", "LHR"), then cities
// ranked as SearchCities ranks them (by whole words and aliases, never
// inside a word; ties to the more populous), over names folded once at load.
func searchCities(w *world.World, q string, limit int) []*world.City {
	var out []*world.City
	first, ok := w.FindCity(q)
	if ok {
		out = append(out, first)
	}
	fq := world.Fold(q)
	if fq == "" {
		return out
	}
	type hit struct {
		c    *world.City
		rank int
	}
	var hits []hit
	for _, p := range w.Travel.Places {
		best := world.MatchRank(p.Keys, fq)
		if best >= 0 && p.City != first {
			hits = append(hits, hit{p.City, best})
		}
	}
	sort.Slice(hits, func(i, j int) bool {
		if hits[i].rank != hits[j].rank {
			return hits[i].rank < hits[j].rank
		}
		if hits[i].c.Population != hits[j].c.Population {
			return hits[i].c.Population > hits[j].c.Population
		}
		return hits[i].c.ID < hits[j].c.ID
	})
	ranks := make([]int, len(hits))
	for i, h := range hits {
		ranks[i] = h.rank
	}
	if first != nil && len(hits) > 0 {
		// The resolved city is a whole-word match: a word being typed
		// does not add cities after it.
		ranks = append([]int{0}, ranks...)
		hits = hits[:world.WholeWordsFirst(ranks)-1]
	} else {
		hits = hits[:world.WholeWordsFirst(ranks)]
	}
	for _, h := range hits {
		if len(out) >= limit {
			break
		}
		out = append(out, h.c)
	}
	return out
}
