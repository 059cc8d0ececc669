package coherence

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// Kind is what changing one parameter alone does to an answer.
type Kind string

// The kinds of effect a parameter may declare.
const (
	Scales     Kind = "scales"     // amounts grow or shrink with it
	Filters    Kind = "filters"    // keeps only the items that match it
	Sorts      Kind = "sorts"      // the same items in another order
	Translates Kind = "translates" // texts in another language (or display language)
	Pages      Kind = "pages"      // another window of the same list (offset, page, size)
	Selects    Kind = "selects"    // another entity (place, date, record)
	Units      Kind = "units"      // the same quantities in other units or currency
	NoEffect   Kind = "no effect"  // the same bytes, for the reason given
)

// effect declares what a parameter does and checks it on the pair of
// answers a (the base call) and b (the call with the parameter changed).
type effect struct {
	Kind   Kind
	What   string // the effect in words, or the reason of NoEffect
	check  func(t testing.TB, a, b answer)
	refuse int // b must be refused with this status (a reinterpretation the API rejects)
}

func (e effect) run(t testing.TB, a, b answer) {
	t.Helper()
	require.True(t, a.ok(), "base call: %s", a)
	if e.refuse != 0 {
		require.Equal(t, e.refuse, b.Status, "changed call must be refused: %s", b)
		return
	}
	require.True(t, b.ok(), "changed call: %s", b)
	if e.Kind == NoEffect {
		require.True(t, string(a.Raw) == string(b.Raw), "declared no effect (%s), but\n%s\n%s", e.What, a, b)
		return
	}
	require.True(t, string(a.Raw) != string(b.Raw), "declared %s (%s) but the answers are the same: %s", e.Kind, e.What, a)
	if e.check != nil {
		e.check(t, a, b)
	}
}

// none declares that the parameter changes nothing, and why.
func none(reason string) effect { return effect{Kind: NoEffect, What: reason} }

// custom declares an effect checked by fn.
func custom(k Kind, what string, fn func(t testing.TB, a, b answer)) effect {
	return effect{Kind: k, What: what, check: fn}
}

// refused declares a reinterpretation that the API refuses for the base
// call's other arguments (a city's dest_id read as a hotel's).
func refused(k Kind, what string, status int) effect {
	return effect{Kind: k, What: what, refuse: status}
}

// selects: the values at path (the entity's identity) change.
func selects(path string, want ...any) effect {
	return custom(Selects, "another entity at "+path, func(t testing.TB, a, b answer) {
		va, vb := values(a.Doc, path), values(b.Doc, path)
		require.NotEmpty(t, vb, "nothing at %s: %s", path, b)
		require.NotEqual(t, canonical(va), canonical(vb), "%s is the same", path)
		if len(want) > 0 {
			require.Equal(t, str(want[0]), str(vb[0]), "%s", path)
		}
	})
}

// scales: every number at path in b is factor times the one in a.
func scales(path string, factor float64) effect {
	return custom(Scales, fmt.Sprintf("%s × %g", path, factor), func(t testing.TB, a, b answer) {
		pairwise(t, a, b, path, func(x float64) float64 { return x * factor })
	})
}

// converts: every number at path in b is fn of the one in a.
func converts(k Kind, what, path string, fn func(float64) float64) effect {
	return custom(k, what+" at "+path, func(t testing.TB, a, b answer) {
		pairwise(t, a, b, path, fn)
	})
}

func pairwise(t testing.TB, a, b answer, path string, fn func(float64) float64) {
	t.Helper()
	va, vb := values(a.Doc, path), values(b.Doc, path)
	require.NotEmpty(t, va, "nothing at %s: %s", path, a)
	require.Len(t, vb, len(va), "%s", path)
	for i := range va {
		x, y := num(t, va[i]), num(t, vb[i])
		want := fn(x)
		// Amounts are rounded to a currency's or unit's last digit.
		tol := math.Max(0.011, 2e-3*math.Abs(want))
		require.InDelta(t, want, y, tol, "%s[%d]: %v → %v, want %v", path, i, x, y, want)
	}
}

// translates: the texts at path change (each one, when want is empty);
// want lists texts b must contain.
func translates(path string, want ...string) effect {
	return custom(Translates, "texts at "+path, func(t testing.TB, a, b answer) {
		va, vb := values(a.Doc, path), values(b.Doc, path)
		require.NotEmpty(t, vb, "nothing at %s: %s", path, b)
		require.Len(t, vb, len(va), "the same texts, translated: %s", path)
		changed := 0
		for i := range va {
			if str(va[i]) != str(vb[i]) {
				changed++
			}
		}
		require.Positive(t, changed, "no text at %s changed", path)
		got := strings.Join(strs(vb), "\n")
		for _, w := range want {
			require.Contains(t, got, w, "%s", path)
		}
	})
}

// filters: every item of b keeps, some item of a does not, and b has items.
func filters(items, what string, keep func(t testing.TB, item any) bool) effect {
	return custom(Filters, what, func(t testing.TB, a, b answer) {
		ia, ib := values(a.Doc, items), values(b.Doc, items)
		require.NotEmpty(t, ib, "the filter left nothing at %s: %s", items, b)
		for i, it := range ib {
			require.True(t, keep(t, it), "%s[%d] does not match the filter (%s): %s", items, i, what, canonical(it))
		}
		dropped := false
		for _, it := range ia {
			dropped = dropped || !keep(t, it)
		}
		require.True(t, dropped, "every item of the unfiltered answer already matches (%s): the pair shows nothing", what)
	})
}

// sorts: b holds the same items as a, ordered by key (descending when
// desc), in another order.
func sorts(items, key string, desc bool) effect {
	what := "by " + key
	if desc {
		what += ", descending"
	}
	return custom(Sorts, what, func(t testing.TB, a, b answer) {
		ia, ib := values(a.Doc, items), values(b.Doc, items)
		require.ElementsMatch(t, canonicals(ia), canonicals(ib), "the same items at %s", items)
		keys := make([]string, len(ib))
		for i, it := range ib {
			keys[i] = str(first(t, it, key))
		}
		ok := sort.SliceIsSorted(keys, func(i, j int) bool {
			if desc {
				return keys[i] > keys[j]
			}
			return keys[i] < keys[j]
		})
		require.True(t, ok, "%s not sorted %s: %v", items, what, keys)
		require.NotEqual(t, canonicals(ia), canonicals(ib), "already in that order")
	})
}

// sortedBy: b's items at path are in the order less says, and a's are not.
func sortedBy(items, what string, less func(t testing.TB, x, y any) bool) effect {
	return custom(Sorts, what, func(t testing.TB, a, b answer) {
		ia, ib := values(a.Doc, items), values(b.Doc, items)
		require.NotEmpty(t, ib)
		for i := 1; i < len(ib); i++ {
			require.False(t, less(t, ib[i], ib[i-1]), "%s[%d] out of order (%s)", items, i, what)
		}
		inOrder := true
		for i := 1; i < len(ia); i++ {
			inOrder = inOrder && !less(t, ia[i], ia[i-1])
		}
		require.False(t, inOrder, "the base answer is already in that order")
	})
}

// pages: b shows other items than a (another window of one list); b is
// empty only when allowEmpty says why.
func pages(items, id string, allowEmpty ...string) effect {
	return custom(Pages, "another window of "+items, func(t testing.TB, a, b answer) {
		ia, ib := ids(t, a.Doc, items, id), ids(t, b.Doc, items, id)
		require.NotEmpty(t, ia, "the first window is empty: %s", a)
		if len(allowEmpty) == 0 {
			require.NotEmpty(t, ib, "the next window is empty: %s", b)
		}
		for _, x := range ib {
			require.NotContains(t, ia, x, "%s %s is on both windows", items, x)
		}
	})
}

// limits: b has n items at path, a has another number, and the shorter
// list is the start of the longer one.
func limits(items string, n int) effect {
	return custom(Pages, fmt.Sprintf("%d items at %s", n, items), func(t testing.TB, a, b answer) {
		ia, ib := canonicals(values(a.Doc, items)), canonicals(values(b.Doc, items))
		require.Len(t, ib, n, "%s", items)
		require.NotEqual(t, len(ia), len(ib), "the base answer already has %d items", n)
		short, long := ia, ib
		if len(ib) < len(ia) {
			short, long = ib, ia
		}
		require.Equal(t, short, long[:len(short)], "the shorter list starts the longer one")
	})
}

func ids(t testing.TB, doc any, items, id string) []string {
	t.Helper()
	var out []string
	for _, it := range values(doc, items) {
		out = append(out, str(first(t, it, id)))
	}
	return out
}

func canonicals(vs []any) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = canonical(v)
	}
	return out
}

func strs(vs []any) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = str(v)
	}
	return out
}

// containsFold reports whether s contains sub, ignoring case.
func containsFold(s, sub string) bool {
	return strings.Contains(strings.ToLower(s), strings.ToLower(sub))
}

var _ = slices.Contains[[]string]
