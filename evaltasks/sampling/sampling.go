// Package sampling draws a seeded sample of each task's instances, stratified so that a small run looks like the whole dataset.
package sampling

import (
	"crypto/sha256"
	"encoding/binary"
	"sort"
	"strconv"
)

// Item is what the sampler knows of an instance.
type Item struct {
	Task int
	// Key names the instance uniquely ("T<task>/<instruction id>").
	Key string
	// Strata are the instance's nested strata, outermost first (its
	// instruction type, its scenario, the API it is about); every item of
	// a task has as many.
	Strata []string
}

// Keep tells which items a sample of at most n items per task keeps (all
// of them when n <= 0), stratified so that a small sample looks like the
// whole task: each level of the strata (instruction type, then scenario,
// then the API the instance is about) keeps its shares, every stratum at
// every level getting the floor or the ceiling of its proportional share.
// It is systematic sampling over the task's items ordered stratum by
// stratum: strata in an order drawn from the seed, items within a stratum
// by a seeded SHA-256 rank, then every (size/n)-th position from a seeded
// start. Any run of consecutive positions, and so any stratum, receives
// its share rounded down or up. SHA-256 of the seed and the whole key
// keeps items that share a key prefix from ranking together. A task of at
// most n items is kept whole.
func Keep(items []Item, n int, seed uint64) []bool {
	keep := make([]bool, len(items))
	if n <= 0 {
		for i := range keep {
			keep[i] = true
		}
		return keep
	}
	byTask := map[int][]int{}
	for i, it := range items {
		byTask[it.Task] = append(byTask[it.Task], i)
	}
	for task, idx := range byTask {
		if len(idx) <= n {
			for _, i := range idx {
				keep[i] = true
			}
			continue
		}
		type ranked struct {
			i    int
			rank []sampleRank
		}
		order := make([]ranked, len(idx))
		for j, i := range idx {
			order[j] = ranked{i: i, rank: stratumRanks(seed, items[i])}
		}
		sort.Slice(order, func(a, b int) bool {
			ra, rb := order[a].rank, order[b].rank
			for l := range ra {
				if c := ra[l].compare(rb[l]); c != 0 {
					return c < 0
				}
			}
			return order[a].i < order[b].i
		})
		total := len(order)
		start := int(seededHash(seed, "start/T"+strconv.Itoa(task)) % uint64(total))
		for pos, o := range order {
			// Position pos is chosen when the sequence start, start+n,
			// start+2n, … crosses a multiple of total inside it.
			if (pos*n+start)/total != ((pos+1)*n+start)/total {
				keep[o.i] = true
			}
		}
	}
	return keep
}

// sampleRank orders one level: by a seeded hash, ties by the name.
type sampleRank struct {
	hash uint64
	name string
}

func (a sampleRank) compare(b sampleRank) int {
	switch {
	case a.hash != b.hash:
		if a.hash < b.hash {
			return -1
		}
		return 1
	case a.name < b.name:
		return -1
	case a.name > b.name:
		return 1
	}
	return 0
}

// stratumRanks ranks an item level by level: each stratum (named by its
// full path, so that equal scenario names under different types are
// different strata) and, last, the item within its stratum.
func stratumRanks(seed uint64, it Item) []sampleRank {
	var out []sampleRank
	path := ""
	for _, s := range it.Strata {
		path += "/" + s
		out = append(out, sampleRank{seededHash(seed, "stratum"+path), path})
	}
	return append(out, sampleRank{seededHash(seed, "instance/"+it.Key), it.Key})
}

// seededHash is the first 8 bytes of SHA-256(seed, s).
func seededHash(seed uint64, s string) uint64 {
	h := sha256.New()
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], seed)
	h.Write(b[:])
	h.Write([]byte(s))
	return binary.BigEndian.Uint64(h.Sum(nil)[:8])
}
