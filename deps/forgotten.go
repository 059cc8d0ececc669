package deps

import "math/bits"

// A session's dependency memory is bounded by bytes: past its bound the
// values seen longest ago leave the index, and go into a Bloom filter of
// forgotten values, so that an ID a long session was given at its start is
// still known (never taken for a fabricated one), in a few bits instead of
// a hundred bytes. A filter answers "maybe" for a value it never took with
// a small probability (about 0.1% when full), which lets that fabricated
// value through; it never forgets one it took. Filters come in two
// generations: when the newer is full, the older is dropped with the
// values only it held (those forgotten longest ago), and a fresh one
// begins.

// FilterHashes is the number of bits a value sets in a filter of forgotten
// values.
const FilterHashes = 10

// filterBitsPerValue is the bits a filter gives each value it takes
// before it counts as full: with FilterHashes bits set per value, about
// 0.1% false positives.
const filterBitsPerValue = 14.4

// FilterBits returns the FilterHashes bit positions of key in a filter of
// m bits: what a filter of forgotten values sets for key, here and in a
// filter kept elsewhere (Redis). Positions are the same on every machine
// and every run.
func FilterBits(key string, m uint64) [FilterHashes]uint64 {
	// FNV-1a, then two derived hashes (Kirsch–Mitzenmacher).
	h := uint64(14695981039346656037)
	for i := 0; i < len(key); i++ {
		h ^= uint64(key[i])
		h *= 1099511628211
	}
	h1 := mix64(h)
	h2 := mix64(h1^0x9e3779b97f4a7c15) | 1
	var out [FilterHashes]uint64
	for i := range out {
		hi, _ := bits.Mul64(h1+uint64(i)*h2, m)
		out[i] = hi
	}
	return out
}

// FilterCapacity is how many values a filter of m bits takes before it
// counts as full.
func FilterCapacity(m uint64) int { return int(float64(m) / filterBitsPerValue) }

// mix64 is SplitMix64's finaliser.
func mix64(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}

// filter is one generation of forgotten values.
type filter struct {
	words []uint64
	m     uint64
	n     int
}

func (f *filter) add(key string) {
	for _, b := range FilterBits(key, f.m) {
		f.words[b/64] |= 1 << (b % 64)
	}
	f.n++
}

func (f *filter) has(key string) bool {
	for _, b := range FilterBits(key, f.m) {
		if f.words[b/64]&(1<<(b%64)) == 0 {
			return false
		}
	}
	return true
}

// forgotten is a session's filters, oldest first; each is made on first
// use, so that a session that never overflows its index has none.
type forgotten struct {
	gens    []*filter
	genBits uint64
}

func newForgotten(maxBytes int) forgotten {
	return forgotten{genBits: max(uint64(maxBytes)/2*8, 512)}
}

func (f *forgotten) add(key string) {
	if n := len(f.gens); n == 0 || f.gens[n-1].n >= FilterCapacity(f.genBits) {
		if n == 2 {
			f.gens = append(f.gens[:0], f.gens[1])
		}
		f.gens = append(f.gens, &filter{words: make([]uint64, (f.genBits+63)/64), m: f.genBits})
	}
	f.gens[len(f.gens)-1].add(key)
}

func (f *forgotten) has(key string) bool {
	for _, g := range f.gens {
		if g.has(key) {
			return true
		}
	}
	return false
}

// bytes is the memory the filters hold.
func (f *forgotten) bytes() int {
	n := 0
	for _, g := range f.gens {
		n += len(g.words) * 8
	}
	return n
}
