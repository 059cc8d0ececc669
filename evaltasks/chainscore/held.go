package chainscore

import (
	"maps"
	"slices"
	"strings"

	"github.com/understudy/understudy/deps"
	"github.com/understudy/understudy/evaltasks/dataset"
	"github.com/understudy/understudy/evaltasks/textmatch"
)

// A value an agent passes on is judged by the sandbox's own rule: it is
// valid wherever its entity is expected once an earlier answer carried it
// as that entity (deps.Graph.Carriers). What the agent already holds this
// way counts as the step that would have given it.

// carried finds the first successful call before j whose answer carried
// got as the entity parameter param of the API apiID takes (a later one
// that carried it again added nothing): the call, and the carrier's path
// in its answer; -1 when none did.
func (s *scoring) carried(apiID, param string, got any, j int) (int, string) {
	if s.sc.Graph == nil {
		return -1, ""
	}
	carriers := s.sc.Graph.Carriers(apiID, param)
	for k := 0; k < j; k++ {
		c := s.calls[k]
		if !c.ok {
			continue
		}
		for _, cr := range carriers {
			if cr.API != c.api {
				continue
			}
			for _, v := range deps.Values(c.doc, cr.Path) {
				if sameScalar(v, got) {
					return k, cr.Path
				}
			}
		}
	}
	return -1, ""
}

// goldGives tells whether the gold step a binding reads gives got at its
// path: any of its items, as a call of that step would, or the one the
// user named when they named one.
func (s *scoring) goldGives(b dataset.Binding, got any) bool {
	s.runGold()
	if b.Step < 0 || b.Step >= len(s.gold) {
		return false
	}
	doc := s.gold[b.Step]
	for _, v := range deps.Values(doc, b.Path) {
		if sameScalar(v, got) {
			return s.pickedAsSaid(doc, b.Path, got)
		}
	}
	return false
}

// held tells whether the agent held the result of step i, a step no other
// needs, without calling it: for each value the step would be called with
// (the gold chain's), an earlier answer listed it, as the entity the step
// takes, in an item of a list, and the final answer states a fact of that
// item that the step's own answer states too and that no other item of
// the list has, and states none of the others' (Rome's top sight, answered
// from locations_search, which lists it with its address). A value given
// alone (a screenshot's URL, a job's ID) is the input of the step's work,
// not its result: the step must be called. It returns a call whose answer
// held it, or -1.
func (s *scoring) held(i int) int {
	st := s.steps[i]
	if len(st.Bindings) == 0 || strings.TrimSpace(s.answer) == "" || s.sc.Graph == nil {
		return -1
	}
	api := dataset.ResolveAPI(s.sc.Catalog, st.API)
	if api == nil {
		return -1
	}
	s.runGold()
	if i >= len(s.gold) {
		return -1
	}
	stepFacts := map[string]bool{}
	collectStrings(s.gold[i], func(v string) { stepFacts[strings.ToLower(v)] = true })
	answer := strings.ToLower(s.answer)
	by := -1
	for _, name := range slices.Sorted(maps.Keys(st.Bindings)) {
		want, ok := s.goldValue(st.Bindings[name])
		if !ok {
			return -1
		}
		k, path := s.carried(api.ID(), name, want, len(s.calls))
		if k < 0 {
			return -1
		}
		item, others, listed := itemOf(s.calls[k].doc, path, want)
		if !listed {
			return -1
		}
		own, theirs := s.distinctFacts(item, others)
		stated := false
		for _, f := range own {
			if stepFacts[f] && textmatch.ContainsExact(answer, f) {
				stated = true
			}
		}
		for _, f := range theirs {
			if textmatch.ContainsExact(answer, f) {
				return -1 // names another item: the answer did not select
			}
		}
		if !stated {
			return -1
		}
		by = k
	}
	return by
}

// itemOf is the element of the last list on path, in doc, that holds want
// at the rest of the path, and the list's other elements; listed is false
// when the path crosses no list or no element holds want.
func itemOf(doc any, path string, want any) (item any, others []any, listed bool) {
	cut := strings.LastIndex(path, "[]")
	if cut < 0 {
		return nil, nil, false
	}
	prefix, rest := path[:cut+2], strings.TrimPrefix(path[cut+2:], ".")
	items := deps.Values(doc, prefix)
	for k, it := range items {
		vals := []any{it}
		if rest != "" {
			vals = deps.Values(it, rest)
		}
		if slices.ContainsFunc(vals, func(v any) bool { return sameScalar(v, want) }) && item == nil {
			item, listed = it, true
			others = append(append(others, items[:k]...), items[k+1:]...)
		}
	}
	return item, others, listed
}

// distinctFacts are, in lower case, the texts of an item that name it
// among others (a name, an address: texts of a letter or more that no
// other item has at the same place and the user did not write), and the
// others' texts at the places where the item has one.
func (s *scoring) distinctFacts(item any, others []any) (own, theirs []string) {
	fields := map[string]string{}
	collectFields(item, "", func(path, v string) { fields[path] = v })
	otherFields := make([]map[string]string, len(others))
	for k, o := range others {
		otherFields[k] = map[string]string{}
		collectFields(o, "", func(path, v string) { otherFields[k][path] = v })
	}
	question := strings.ToLower(s.text)
	for _, path := range slices.Sorted(maps.Keys(fields)) {
		v := strings.ToLower(strings.TrimSpace(fields[path]))
		if len(textmatch.ContentWords(v)) == 0 || !letterRE.MatchString(v) {
			continue
		}
		shared := false
		for _, of := range otherFields {
			if strings.ToLower(strings.TrimSpace(of[path])) == v {
				shared = true
			}
		}
		if !shared && !textmatch.ContainsExact(question, v) {
			own = append(own, v)
		}
		for _, of := range otherFields {
			o := strings.ToLower(strings.TrimSpace(of[path]))
			if o != "" && o != v && letterRE.MatchString(o) && len(textmatch.ContentWords(o)) > 0 && !textmatch.ContainsExact(question, o) {
				theirs = append(theirs, o)
			}
		}
	}
	return own, theirs
}

// collectFields calls f with the path and text of every string of v,
// within a few levels (lists' items are not entered: they are other things).
func collectFields(v any, path string, f func(path, v string)) {
	switch x := v.(type) {
	case string:
		f(path, x)
	case map[string]any:
		if strings.Count(path, ".") >= 3 {
			return
		}
		for k, e := range x {
			collectFields(e, path+"."+k, f)
		}
	}
}

// collectStrings calls f with every string of v.
func collectStrings(v any, f func(string)) {
	switch x := v.(type) {
	case string:
		f(x)
	case map[string]any:
		for _, e := range x {
			collectStrings(e, f)
		}
	case []any:
		for _, e := range x {
			collectStrings(e, f)
		}
	}
}

// onChain marks the calls on the chain: for each done step, the first call
// that did it (for a polled step, every poll until its condition held),
// the calls whose answers gave those calls' dependent values, and the call
// whose answer held a step's result.
func (s *scoring) onChain(done []bool, heldBy []int) []bool {
	on := make([]bool, len(s.calls))
	for i, st := range s.steps {
		if !done[i] {
			continue
		}
		if heldBy[i] >= 0 {
			on[heldBy[i]] = true
		}
		for _, j := range s.sat[i] {
			on[j] = true
			for _, k := range s.providers[j] {
				on[k] = true
			}
			if !st.Repeat || deps.UntilHolds(s.calls[j].doc, st.Until) {
				break
			}
		}
	}
	return on
}
