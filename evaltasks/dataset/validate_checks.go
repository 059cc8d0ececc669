package dataset

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/understudy/understudy/agent/observe"
	"github.com/understudy/understudy/deps"
	"github.com/understudy/understudy/evaltasks/textmatch"
	"github.com/understudy/understudy/internal/canon"
	"github.com/understudy/understudy/toolset"
)

// Scenarios are the application scenarios of the built-in toolset.
var Scenarios = []string{"daily_life", "image_processing", "travel", "basic"}

// checkText rejects texts that name an API the way only a developer would.
func (v *validator) checkText(in *Instruction) {
	if in.Scenario != "" && !slices.Contains(Scenarios, in.Scenario) {
		v.problem(in, "scenario", "%q is not one of %s", in.Scenario, strings.Join(Scenarios, ", "))
	}
	low := strings.ToLower(in.Text)
	for _, a := range v.cat.APIs() {
		for _, name := range []string{a.Name, a.Tool.StandardizedName, a.FunctionName()} {
			if strings.Contains(name, "_") && strings.Contains(low, strings.ToLower(name)) {
				v.problem(in, "text", "names the API identifier %q; users never name APIs", name)
				return
			}
		}
	}
}

// checkEarlierTurns requires an instruction that speaks of an earlier
// turn to carry it, and history only where a conversation can have it
// (Types II and III: the other tasks' conversations start with the user).
func (v *validator) checkEarlierTurns(in *Instruction) {
	if len(in.History) > 0 && in.Type != TypeSufficient && in.Type != TypeMissing {
		v.problem(in, "history", "a Type-%s record has no earlier turns", roman(in.Type))
		return
	}
	if len(in.History) > 0 && strings.TrimSpace(in.Earlier) == "" {
		v.problem(in, "earlier", "the conversation would start with the assistant's earlier calls before any user turn: give the user's request they answered")
	}
	if in.Earlier != "" && len(in.History) == 0 {
		v.problem(in, "earlier", "an earlier request without the earlier turns that answered it")
	}
	if w := EarlierTurn(in.Text); w != "" && len(in.History) == 0 {
		v.problem(in, "text", "speaks of an earlier turn (%q) that the conversation does not carry: give the record that turn as its history, or reword it", w)
	}
}

func (v *validator) checkTypeI(in *Instruction) {
	if in.TemptingAPI == "" {
		v.problem(in, "tempting_api", "missing: a Type-I record names the API that looks relevant")
	} else {
		v.needAPI(in, "tempting_api", in.TemptingAPI)
	}
	if n := len(in.KeyPoints); n < 1 || n > 4 {
		v.problem(in, "key_points", "has %d key points, want 1 to 4", n)
	}
	ref := strings.ToLower(in.ReferenceAnswer)
	for i, kp := range in.KeyPoints {
		if !strings.Contains(ref, strings.ToLower(kp)) {
			v.problem(in, fmt.Sprintf("key_points[%d]", i), "%q does not appear in the reference answer", kp)
		}
	}
	if in.GoldCall != nil || len(in.Chain) > 0 {
		v.problem(in, "", "a Type-I record has no gold call")
	}
	v.checkTypeIKeyPoints(in)
}

func (v *validator) checkTypeII(ctx context.Context, in *Instruction) {
	api := v.needAPI(in, "target_api", in.TargetAPI)
	if api == nil {
		return
	}
	gc := in.GoldCall
	if gc.API != in.TargetAPI {
		v.problem(in, "gold_call.api", "%q is not the target API %q", gc.API, in.TargetAPI)
		return
	}
	for _, id := range in.AlsoCorrect {
		if id == in.TargetAPI {
			v.problem(in, "also_correct", "lists the target API itself")
		} else {
			v.needAPI(in, "also_correct", id)
		}
	}
	ok := true
	names := make([]string, 0, len(gc.Arguments))
	for name := range gc.Arguments {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		acc := gc.Arguments[name]
		field := "gold_call.arguments." + name
		p := api.Param(name)
		switch {
		case p == nil:
			v.problem(in, field, "%s has no parameter %q", api.ID(), name)
			ok = false
		case p.Required && acc.Optional:
			v.problem(in, field, "a required parameter cannot be optional")
			ok = false
		case len(acc.Values) == 0:
			v.problem(in, field, "no acceptable values: an empty list is a dataset error, not \"anything goes\"")
			ok = false
		default:
			ok = v.checkKinds(in, field, p, acc.Values) && ok
		}
	}
	for _, p := range api.Params {
		if _, given := gc.Arguments[p.Name]; p.Required && !given {
			v.problem(in, "gold_call.arguments", "required parameter %q of %s is missing", p.Name, api.ID())
			ok = false
		}
	}
	if !ok {
		return
	}
	base := gc.FirstValues()
	called, err := api.Validate(base)
	if err != nil {
		v.problem(in, "gold_call", "the gold call does not validate: %v", err)
		return
	}
	// Every acceptable value must validate in place of the first one.
	for _, name := range names {
		for i, val := range gc.Arguments[name].Values {
			if i == 0 {
				continue
			}
			alt := copyArgs(base)
			alt[name] = val
			if _, err := api.Validate(alt); err != nil {
				v.problem(in, fmt.Sprintf("gold_call.arguments.%s.values[%d]", name, i), "acceptable value %v does not validate: %v", val, err)
			}
		}
	}
	session := "validate/" + in.ID
	if len(in.History) > 0 {
		// The earlier turns, shown to the agent.
		if _, ok := v.runChain(ctx, in, in.History, session, "history"); !ok {
			return
		}
	}
	if len(in.Chain) > 0 {
		// The steps that mint the opaque values the user quotes.
		if _, ok := v.runChain(ctx, in, in.Chain, session, "chain"); !ok {
			return
		}
	}
	res, err := v.st.Engine.CallAPI(ctx, api, base, session)
	if err != nil {
		v.problem(in, "gold_call", "executing %s: %v", callText(api, base), err)
		return
	}
	if res.Status < 200 || res.Status >= 300 {
		v.problem(in, "gold_call", "%s answered %d: %s", callText(api, base), res.Status, truncate(string(res.Response), 300))
		return
	}
	doc, err := canon.Decode(res.Response)
	if err != nil {
		v.problem(in, "gold_call", "%s answered a body that is not JSON: %v", callText(api, base), err)
		return
	}
	if !Informative(doc, called) {
		v.problem(in, "gold_call", "%s returns nothing beyond its own arguments and envelope: no answer can come from it", callText(api, base))
		return
	}
	shown := ShownResult(api, res.Response, base)
	shownDoc := ShownDoc(shown)
	for i, f := range in.ExpectedFacts {
		field := fmt.Sprintf("expected_facts[%d]", i)
		switch {
		case strings.TrimSpace(f) == "":
			v.problem(in, field, "empty fact")
		case !factIn(doc, f):
			v.problem(in, field, "%q does not appear in the response of %s", f, callText(api, base))
		case !factIn(shownDoc, f):
			v.problem(in, field, "%q is only in the part of the response of %s cut to fit the %d bytes a model is shown (%s)", f, callText(api, base), observe.Budget, shown.Note)
		default:
			if fault := ExpectedFactFault(in, doc, f); fault != "" {
				v.problem(in, field, "%q %s", f, fault)
			}
		}
	}
	v.checkPerturbing(in)
}

// Informative tells whether a response holds anything beyond the call:
// a value that is not bookkeeping, not an internal code, and not one of
// the arguments it was called with (defaults included). An empty result
// list with its envelope and the echoed query holds nothing, and a record
// whose gold call answers so asks for an answer no tool gives.
func Informative(doc any, args map[string]any) bool {
	echo := map[string]bool{}
	for _, a := range args {
		if k, ok := deps.ScalarKey(a); ok {
			echo[strings.ToLower(k)] = true
		}
	}
	found := false
	var walk func(v any, key string)
	walk = func(v any, key string) {
		if found {
			return
		}
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				walk(e, k)
			}
		case []any:
			for _, e := range x {
				walk(e, key)
			}
		case nil:
		default:
			k, ok := deps.ScalarKey(x)
			switch {
			case !ok || k == "" || echo[strings.ToLower(k)]:
			case slices.Contains(bookkeepingKeys, strings.ToLower(key)), idKeyRE.MatchString(key) && (isToken(k) || codeRE.MatchString(k)):
			default:
				found = true
			}
		}
	}
	walk(doc, "")
	return found
}

// checkKinds requires gold values of the parameter's JSON type as they
// stand: calls are scored without the coercions the sandbox applies, so a
// gold value of another type ("venue": true for a string) is one no reply
// can match.
func (v *validator) checkKinds(in *Instruction, field string, p *toolset.Param, vals []any) bool {
	ok := true
	for i, val := range vals {
		if !p.Kind.Holds(val) {
			f := field
			if len(vals) > 1 || strings.HasPrefix(field, "gold_call.") {
				f = fmt.Sprintf("%s.values[%d]", field, i)
			}
			js, _ := json.Marshal(val)
			v.problem(in, f, "%s is a JSON %s, but %s is %s: no call can match it", js, toolset.KindOf(val), p.Name, p.Kind)
			ok = false
		}
	}
	return ok
}

func (v *validator) checkPerturbing(in *Instruction) {
	p1 := v.opts.Perturb(v.cat, v.ix, *in)
	p2 := v.opts.Perturb(v.cat, v.ix, *in)
	if !reflect.DeepEqual(p1, p2) {
		v.problem(in, "perturbing", "not reproducible: %v then %v", p1, p2)
	}
	if len(p1) != 4 {
		v.problem(in, "perturbing", "%d perturbing APIs, want 4: %v", len(p1), p1)
	}
	seen := map[string]bool{}
	for _, id := range p1 {
		switch {
		case id == in.TargetAPI:
			v.problem(in, "perturbing", "the target API %s is among the perturbing APIs", id)
		case slices.Contains(in.AlsoCorrect, id):
			v.problem(in, "perturbing", "%s answers the instruction equally well (also_correct) but is a perturbing API", id)
		case seen[id]:
			v.problem(in, "perturbing", "%s appears twice", id)
		case v.api(id) == nil:
			v.problem(in, "perturbing", "unknown API %s", id)
		}
		seen[id] = true
	}
	v.rep.Perturbing[in.ID] = p1
}

func (v *validator) checkTypeIII(ctx context.Context, in *Instruction) {
	api := v.needAPI(in, "target_api", in.TargetAPI)
	if api == nil {
		return
	}
	// A value the earlier turns gave is present too: the agent saw it.
	var shown []any
	if len(in.History) > 0 {
		steps, ok := v.runChain(ctx, in, in.History, "validate/"+in.ID, "history")
		if !ok {
			return
		}
		for _, st := range steps {
			shown = append(shown, ShownDoc(ShownResult(st.api, st.raw, st.args)))
		}
	}
	if in.GoldCall != nil {
		v.problem(in, "gold_call", "a Type-III record has no gold call: information is missing")
	}
	for _, m := range in.Missing {
		p := api.Param(m)
		switch {
		case p == nil:
			v.problem(in, "missing", "%s has no parameter %q", api.ID(), m)
		case !p.Required:
			v.problem(in, "missing", "%q is optional in %s: nothing is missing", m, api.ID())
		default:
			if hint, found := valueHint(v.hints(), p, in.Text); found {
				v.problem(in, "missing", "the text seems to give %s: %q", m, hint)
			}
		}
	}
	for _, name := range slices.Sorted(maps.Keys(in.Present)) {
		p := api.Param(name)
		switch {
		case p == nil:
			v.problem(in, "present."+name, "%s has no parameter %q", api.ID(), name)
		case slices.Contains(in.Missing, name):
			v.problem(in, "present."+name, "is also listed as missing")
		case !textHas(in.Text, in.Present[name]) && !docsHave(shown, in.Present[name]):
			v.problem(in, "present."+name, "value %v does not appear in the text or the earlier turns", in.Present[name])
		}
	}
	for _, p := range api.Params {
		_, present := in.Present[p.Name]
		if p.Required && !present && !slices.Contains(in.Missing, p.Name) && p.Default == nil {
			v.problem(in, "present", "required parameter %q of %s is neither present nor missing", p.Name, api.ID())
		}
	}
}

func (v *validator) checkTypeIV(ctx context.Context, in *Instruction) {
	ok := true
	for i, st := range in.Chain {
		field := fmt.Sprintf("chain[%d]", i)
		a := v.needAPI(in, field+".api", st.API)
		if a == nil {
			ok = false
			continue
		}
		for _, param := range slices.Sorted(maps.Keys(st.Bindings)) {
			b := st.Bindings[param]
			bf := field + ".bindings." + param
			switch {
			case a.Param(param) == nil:
				v.problem(in, bf, "%s has no parameter %q", a.ID(), param)
				ok = false
			case b.Step < 0 || b.Step >= i:
				v.problem(in, bf, "refers to step %d, which is not an earlier step", b.Step)
				ok = false
			case !v.isEdge(in.Chain[b.Step].API, a.ID(), param, b.Path):
				v.problem(in, bf, "%s ← %s:%s is not a dependency of the catalog (edges into %s: %s)", param, in.Chain[b.Step].API, b.Path, a.ID(), v.edgesInto(a.ID()))
				ok = false
			}
		}
		for _, name := range slices.Sorted(maps.Keys(st.Arguments)) {
			if p := a.Param(name); p == nil {
				v.problem(in, field+".arguments."+name, "%s has no parameter %q", a.ID(), name)
				ok = false
			} else {
				ok = v.checkKinds(in, field+".arguments."+name, p, []any{st.Arguments[name]}) && ok
			}
			if _, bound := st.Bindings[name]; bound {
				v.problem(in, field+".arguments."+name, "both a literal argument and a binding")
				ok = false
			}
		}
	}
	bound := 0
	for _, st := range in.Chain {
		bound += len(st.Bindings)
	}
	if bound == 0 {
		v.problem(in, "chain", "no step takes a value from an earlier step: not a dependency chain")
		ok = false
	}
	if !ok {
		return
	}
	results, ok := v.runChain(ctx, in, in.Chain, "validate/"+in.ID, "chain")
	if !ok {
		return
	}
	v.checkBoundShown(in, results)
	if last := results[len(results)-1]; last.api != nil {
		if called, err := last.api.Validate(last.args); err == nil && !Informative(last.doc, called) {
			v.problem(in, fmt.Sprintf("chain[%d]", len(results)-1), "%s returns nothing beyond its own arguments and envelope: no answer can come from it", callText(last.api, last.args))
		}
	}
	// The user cannot know an opaque value: it must not be in the text.
	for i, st := range in.Chain {
		a := v.api(st.API)
		for param := range st.Bindings {
			p := a.Param(param)
			if p == nil || !p.Opaque {
				continue
			}
			if k, ok := scalarText(results[i].args[param]); ok && len(k) > 3 && strings.Contains(in.Text, k) {
				v.problem(in, fmt.Sprintf("chain[%d].bindings.%s", i, param), "the opaque value %q appears in the text; the user cannot know it", k)
			}
		}
	}
}

// checkBoundShown requires every value a step takes from an earlier one
// to be in what a model is shown of that step's result (ShownResult): a
// value only in the part cut to fit the budget is one no agent can bind.
func (v *validator) checkBoundShown(in *Instruction, results []chainStep) {
	shown := make([]any, len(results))
	notes := make([]string, len(results))
	for i, r := range results {
		f := ShownResult(r.api, r.raw, r.args)
		shown[i], notes[i] = ShownDoc(f), f.Note
	}
	for i, st := range in.Chain {
		for _, param := range slices.Sorted(maps.Keys(st.Bindings)) {
			b := st.Bindings[param]
			want, ok := deps.ScalarKey(results[i].args[param])
			if !ok || b.Step < 0 || b.Step >= len(results) {
				continue
			}
			found := false
			for _, val := range deps.Values(shown[b.Step], b.Path) {
				if k, ok := deps.ScalarKey(val); ok && k == want {
					found = true
					break
				}
			}
			if !found {
				v.problem(in, fmt.Sprintf("chain[%d].bindings.%s", i, param), "%q is only in the part of step %d's result cut to fit the %d bytes a model is shown (%s)", want, b.Step, observe.Budget, notes[b.Step])
			}
		}
	}
}

func (v *validator) isEdge(from, to, param, path string) bool {
	for _, e := range v.annot.Into(to) {
		if e.From == from && e.Param == param && e.Path == path {
			return true
		}
	}
	return false
}

func (v *validator) edgesInto(to string) string {
	var s []string
	for _, e := range v.annot.Into(to) {
		s = append(s, e.Param+" ← "+e.From+":"+e.Path)
	}
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, "; ")
}

// chainStep is one executed step of a gold chain.
type chainStep struct {
	api  *toolset.API
	args map[string]any
	doc  any
	raw  []byte // the response as answered
}

// runChain executes steps in one session, resolving bindings from earlier
// responses and polling repeatable steps; it reports the first failure.
func (v *validator) runChain(ctx context.Context, in *Instruction, steps []GoldStep, session, field string) ([]chainStep, bool) {
	var out []chainStep
	for i, st := range steps {
		f := fmt.Sprintf("%s[%d]", field, i)
		a := v.api(st.API)
		if a == nil {
			v.problem(in, f+".api", "unknown API %q", st.API)
			return out, false
		}
		args := copyArgs(st.Arguments)
		for _, param := range slices.Sorted(maps.Keys(st.Bindings)) {
			b := st.Bindings[param]
			if b.Step < 0 || b.Step >= i {
				v.problem(in, f+".bindings."+param, "refers to step %d, which is not an earlier step", b.Step)
				return out, false
			}
			vals := deps.Values(out[b.Step].doc, b.Path)
			if len(vals) == 0 {
				v.problem(in, f+".bindings."+param, "no value at %s in the response of step %d (%s)", b.Path, b.Step, steps[b.Step].API)
				return out, false
			}
			args[param] = vals[0]
		}
		var (
			doc any
			raw []byte
		)
		for calls := 1; ; calls++ {
			res, err := v.st.Engine.CallAPI(ctx, a, args, session)
			if err != nil {
				v.problem(in, f, "executing %s: %v", callText(a, args), err)
				return out, false
			}
			if res.Status < 200 || res.Status >= 300 {
				v.problem(in, f, "%s answered %d: %s", callText(a, args), res.Status, truncate(string(res.Response), 300))
				return out, false
			}
			raw = res.Response
			if doc, err = canon.Decode(res.Response); err != nil {
				v.problem(in, f, "%s answered a body that is not JSON: %v", callText(a, args), err)
				return out, false
			}
			if !st.Repeat || untilHolds(doc, st.Until) {
				break
			}
			if calls >= deps.MaxPolls {
				v.problem(in, f, "%s: still not %s after %d calls", callText(a, args), st.Until, calls)
				return out, false
			}
		}
		out = append(out, chainStep{api: a, args: args, doc: doc, raw: raw})
	}
	return out, true
}

// untilHolds tells whether a polling condition "path == value" holds.
func untilHolds(doc any, until string) bool {
	p, want, ok := strings.Cut(until, " == ")
	if !ok {
		return true
	}
	for _, val := range deps.Values(doc, p) {
		if s, ok := scalarText(val); ok && s == want {
			return true
		}
	}
	return false
}

func (v *validator) checkTypeV(in *Instruction) {
	members := v.groupMembers()
	if _, ok := members[in.Group]; !ok {
		v.problem(in, "group", "no API belongs to group %q (groups: %s)", in.Group, strings.Join(slices.Sorted(maps.Keys(members)), ", "))
		return
	}
	if len(in.GroupAPIs) < 2 {
		v.problem(in, "group_apis", "a high-level plan needs at least 2 APIs, has %d", len(in.GroupAPIs))
	}
	seen := map[string]bool{}
	for i, id := range in.GroupAPIs {
		f := fmt.Sprintf("group_apis[%d]", i)
		if seen[id] {
			v.problem(in, f, "%s listed twice", id)
		}
		seen[id] = true
		if a := v.needAPI(in, f, id); a != nil && !slices.Contains(a.Groups, in.Group) {
			v.problem(in, f, "%s is not in group %q (its groups: %v)", id, in.Group, a.Groups)
		}
	}
	if n := len(in.KeySteps); n < 3 || n > 6 {
		v.problem(in, "key_steps", "has %d key steps, want 3 to 6", n)
	}
	for i, s := range in.KeySteps {
		if strings.TrimSpace(s) == "" {
			v.problem(in, fmt.Sprintf("key_steps[%d]", i), "empty step")
		}
	}
}

func (v *validator) groupMembers() map[string][]string {
	out := map[string][]string{}
	for _, a := range v.cat.APIs() {
		for _, g := range a.Groups {
			out[g] = append(out[g], a.ID())
		}
	}
	return out
}

func (v *validator) checkCounts() {
	for _, t := range []int{TypeNoTool, TypeSufficient, TypeMissing, TypeDependencies, TypeHighLevel} {
		if min := v.opts.MinCounts[t]; v.rep.ByType[t] < min {
			v.problem(nil, "", "type %s: %d instructions, fewer than the %d of the paper's Table 2", roman(t), v.rep.ByType[t], min)
		}
	}
}

// checkCoverage requires every API in Type II (MinTypeIIPerAPI times),
// every API with a required parameter in Type III, every dependency pair
// in Type IV and every coherent group in Type V.
func (v *validator) checkCoverage(ins []Instruction) {
	for _, a := range v.cat.APIs() {
		c := v.rep.APICoverage[a.ID()]
		if n := c[TypeSufficient]; n < MinTypeIIPerAPI {
			v.problem(nil, "coverage", "%s: %d Type-II instructions, want at least %d", a.ID(), n, MinTypeIIPerAPI)
		}
		// An API needs a Type-III instruction when a user must give one of
		// its required values; pagination (numbers with defaults) is not
		// something a user is asked for.
		required := false
		for _, p := range a.Params {
			paging := p.Default != nil && (p.Kind == toolset.KindNumber || p.Kind == toolset.KindInteger)
			required = required || p.Required && !paging
		}
		if required && c[TypeMissing] == 0 {
			v.problem(nil, "coverage", "%s has required parameters but no Type-III instruction", a.ID())
		}
	}
	pairs := map[deps.Pair]bool{}
	for _, in := range ins {
		if in.Type != TypeDependencies {
			continue
		}
		for _, st := range in.Chain {
			for _, b := range st.Bindings {
				if b.Step >= 0 && b.Step < len(in.Chain) {
					pairs[deps.Pair{From: in.Chain[b.Step].API, To: st.API}] = true
				}
			}
		}
	}
	for _, p := range v.annot.Pairs() {
		if !pairs[p] {
			v.problem(nil, "coverage", "dependency pair %s → %s has no Type-IV instruction", p.From, p.To)
		}
	}
	groups := map[string]bool{}
	for _, in := range ins {
		if in.Type == TypeHighLevel {
			groups[in.Group] = true
		}
	}
	for _, g := range slices.Sorted(maps.Keys(v.groupMembers())) {
		if !groups[g] {
			v.problem(nil, "coverage", "group %q has no Type-V instruction", g)
		}
	}
}

// factIn tells whether a fact appears in a response: as a part of a string
// leaf, or equal to a number or boolean leaf.
func factIn(doc any, fact string) bool {
	num, numErr := strconv.ParseFloat(fact, 64)
	found := false
	var walk func(v any)
	walk = func(v any) {
		if found {
			return
		}
		switch x := v.(type) {
		case map[string]any:
			for _, e := range x {
				walk(e)
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		case string:
			found = strings.Contains(x, fact)
		case json.Number:
			found = string(x) == fact
		case float64:
			found = numErr == nil && math.Abs(x-num) < 1e-9 || strconv.FormatFloat(x, 'f', -1, 64) == fact
		case bool:
			found = strconv.FormatBool(x) == fact
		}
	}
	walk(doc)
	return found
}

// docsHave tells whether a value is a leaf of one of the documents.
func docsHave(docs []any, val any) bool {
	want, ok := deps.ScalarKey(val)
	if !ok {
		return false
	}
	found := false
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			for _, e := range x {
				walk(e)
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		default:
			if k, ok := deps.ScalarKey(x); ok && k == want {
				found = true
			}
		}
	}
	for _, d := range docs {
		walk(d)
	}
	return found
}

// textHas tells whether a value (or, for a list, one of its values)
// appears in a text, case-insensitively.
func textHas(text string, val any) bool {
	if list, ok := val.([]any); ok {
		for _, x := range list {
			if textHas(text, x) {
				return true
			}
		}
		return false
	}
	s, ok := scalarText(val)
	return ok && strings.Contains(strings.ToLower(text), strings.ToLower(s))
}

func scalarText(v any) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, true
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64), true
	case int:
		return strconv.Itoa(x), true
	case bool:
		return strconv.FormatBool(x), true
	case json.Number:
		return x.String(), true
	}
	return "", false
}

// callText writes a call as its API and JSON arguments, for messages.
func callText(a *toolset.API, args map[string]any) string {
	b, _ := json.Marshal(args)
	return a.ID() + string(b)
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// copyArgs copies arguments into a map the caller may write (never nil).
func copyArgs(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// roman writes an instruction type as the paper does (I-V).
func roman(t int) string {
	if t >= 1 && t <= 5 {
		return []string{"I", "II", "III", "IV", "V"}[t-1]
	}
	return strconv.Itoa(t)
}

// bookkeepingKeys are response fields that describe the call or the
// service (the interpreter's step count, a poll session), never the
// answer to a question.
var bookkeepingKeys = []string{"steps", "status", "success", "ok", "error", "error_type", "output_truncated", "took", "took_ms", "elapsed_ms", "request_id", "requestid", "total_results", "totalresults", "sessionid", "session_id", "flightssessionid", "token", "page", "cached", "timestamp", "pricingoptionid"}

// idKeyRE matches the keys of response fields that hold an API's own
// identifiers (id, hotel_id, entityId, skyId, token): codes a later call
// needs, not values a user asks for.
var idKeyRE = regexp.MustCompile(`^(id|ids|token|skyid|entityid)$|_id$|[a-z]Id$|ID$`)

// codeRE is a value shaped like an internal code: a number, a short run of
// capitals and digits (KYOA), or a token.
var codeRE = regexp.MustCompile(`^(-?\d+|[A-Z0-9]{2,8})$`)

// isToken tells whether a value is a session token or an opaque ID: 20
// characters or more of letters, digits and base64 punctuation, letters
// and digits both, no space (a URL or an e-mail address is none).
func isToken(s string) bool {
	if len(s) < 20 {
		return false
	}
	letters, digits := false, false
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z':
			letters = true
		case r >= '0' && r <= '9':
			digits = true
		case r == '+' || r == '/' || r == '=' || r == '_' || r == '-':
		default:
			return false
		}
	}
	return letters && digits
}

// queryStopWords are words of a search query that say nothing about its topic.
var queryStopWords = []string{"the", "and", "for", "with", "from", "about", "news", "video", "videos", "photo", "photos", "image", "images", "picture", "pictures", "how", "what", "best"}

// ExpectedFactFault tells why an expected fact of a Type-II record is not
// a fact the question asks for (Task 6 scores answers by these facts), or
// "" when it is one: a status literal, a session token or opaque ID, a
// value only in the response's echo of the request, the call's own
// argument given back, a bookkeeping field of the response (the envelope:
// status, timestamp, session), an internal code of the API (an ID, a
// place code), a label of its categories, sort orders or contributors, a
// value the question already states, or a search hit that shares too
// little with the query to be what the user is looking for.
// doc is the executed gold call's response.
func ExpectedFactFault(in *Instruction, doc any, fact string) string {
	low := strings.ToLower(strings.TrimSpace(fact))
	if textmatch.IsStatusLiteral(low) {
		return "is a status literal, not a fact the question asks for"
	}
	if isToken(strings.TrimSpace(fact)) {
		return "is a session token or an opaque ID, not a value a user wants"
	}
	if echoed(doc, fact) {
		return "is only in the response's echo of the request (parameters), not a fact the question asks for"
	}
	if arg := argumentEcho(in, fact); arg != "" {
		return fmt.Sprintf("is the call's own argument (%s) given back, not a fact the question asks for", arg)
	}
	if hits := factHits(doc, fact); len(hits) > 0 {
		keys := factKeys(doc, fact)
		book, labels := true, true
		var idKeys []string
		for _, k := range keys {
			book = book && slices.Contains(bookkeepingKeys, strings.ToLower(k))
		}
		ids := true
		for _, h := range hits {
			labels = labels && slices.Contains(labelParents, strings.ToLower(h.parent()))
			switch {
			case h.exact:
				ids = ids && idKeyRE.MatchString(h.leaf())
				idKeys = append(idKeys, h.leaf())
			case !h.inURL:
				// Part of a text the user is shown ("Bengaluru (BLR)").
				ids = false
			}
		}
		if book {
			return fmt.Sprintf("is bookkeeping of the response (%s), not a fact the question asks for", strings.Join(keys, ", "))
		}
		if ids && len(idKeys) > 0 && codeRE.MatchString(strings.TrimSpace(fact)) {
			return fmt.Sprintf("is an internal code of the API (%s), not a value a user wants", strings.Join(slices.Compact(slices.Sorted(slices.Values(idKeys))), ", "))
		}
		if labels {
			h := hits[0]
			return fmt.Sprintf("is a label of the API's own categories, sort orders or contributors (%s.%s), not a fact the question asks for", h.parent(), h.leaf())
		}
	}
	if hasWord(strings.ToLower(in.Text), low) {
		return "is already in the question: stating it proves nothing"
	}
	// A search API answers with ranked hits; the first hit is not what
	// the user wants when it is about something else.
	if in.GoldCall != nil && strings.Contains(in.GoldCall.API, "search") && len(strings.Fields(fact)) >= 3 {
		for _, name := range []string{"q", "query"} {
			acc, ok := in.GoldCall.Arguments[name]
			if !ok || len(acc.Values) == 0 {
				continue
			}
			q, _ := acc.Values[0].(string)
			words := queryWords(q)
			if len(words) == 0 {
				continue
			}
			need, have := min(2, len(words)), 0
			hit := queryWords(fact)
			for _, w := range words {
				for _, h := range hit {
					if sameStem(w, h) {
						have++
						break
					}
				}
			}
			if have < need {
				return fmt.Sprintf("shares %d of the query's topic words %v: a search hit unrelated to the question", have, words)
			}
		}
	}
	return ""
}

// labelParents are the objects whose fields label the API's own
// taxonomy, sort orders and contributors rather than the thing asked
// about: a result's category ("Geographic"), a facilities block's heading
// ("Most popular facilities"), a sort option ("most relevant"), where a
// reviewer or photographer comes from.
var labelParents = []string{"category", "categories", "subcategory", "facilities_block", "sort_options", "sort_option", "sorters", "sort", "user_location", "reviewer", "owner", "uploader"}

// argumentEcho names the gold call's argument a fact merely repeats
// ("width=800" for a resize to 800 pixels, "language=en" for an OCR call
// told the text is English), or "" when it repeats none: the response
// giving back what the call was told is no answer to the question.
func argumentEcho(in *Instruction, fact string) string {
	if in.GoldCall == nil {
		return ""
	}
	f := strings.ToLower(strings.TrimSpace(fact))
	for _, name := range slices.Sorted(maps.Keys(in.GoldCall.Arguments)) {
		for _, v := range in.GoldCall.Arguments[name].Values {
			if k, ok := deps.ScalarKey(v); ok && strings.ToLower(k) == f {
				return name + "=" + k
			}
		}
	}
	return ""
}

// echoKeys name the objects in which a response repeats the request.
var echoKeys = []string{"parameters", "params", "request", "search_parameters", "query_params"}

// echoed tells whether a fact appears in a response only inside its echo
// of the request ("parameters": {"country": "us", ...}).
func echoed(doc any, fact string) bool {
	inEcho, outside := false, false
	var walk func(v any, echo bool)
	walk = func(v any, echo bool) {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				walk(e, echo || slices.Contains(echoKeys, strings.ToLower(k)))
			}
		case []any:
			for _, e := range x {
				walk(e, echo)
			}
		default:
			if k, ok := deps.ScalarKey(x); ok && (k == fact || strings.Contains(k, fact) && len(fact) > 3) {
				if echo {
					inEcho = true
				} else {
					outside = true
				}
			}
		}
	}
	walk(doc, false)
	return inEcho && !outside
}

// queryWords are the topic words of a query: lower-case, accents folded,
// at least three letters, no stop words.
func queryWords(s string) []string {
	var out []string
	for _, w := range framingWords(textmatch.FoldAccents(s)) {
		if len(w) >= 3 && !slices.Contains(queryStopWords, w) && !reDigits.MatchString(w) {
			out = append(out, w)
		}
	}
	return out
}

// sameStem tells whether two words share a stem: equal, or one a prefix of
// the other of at least four letters (tram/trams, heat/heatwave).
func sameStem(a, b string) bool {
	if len(a) > len(b) {
		a, b = b, a
	}
	return a == b || len(a) >= 4 && strings.HasPrefix(b, a)
}

// factHit is a place in a response where a fact is found: the keys from
// the root to the leaf (list indexes left out), and whether the leaf is
// the fact itself rather than a longer text that contains it, and
// whether that text is a URL (an ID in a link is not shown as a value).
type factHit struct {
	path  []string
	exact bool
	inURL bool
}

// leaf is the key of the leaf; parent the key of the object holding it
// (a list's key for an item of a list), "" at the root.
func (h factHit) leaf() string { return h.path[len(h.path)-1] }
func (h factHit) parent() string {
	if len(h.path) < 2 {
		return ""
	}
	return h.path[len(h.path)-2]
}

// factHits lists the places of the response a fact is found in (see
// factIn), in a stable order.
func factHits(doc any, fact string) []factHit {
	num, numErr := strconv.ParseFloat(fact, 64)
	var hits []factHit
	var walk func(v any, path []string)
	add := func(path []string, exact bool, url bool) {
		hits = append(hits, factHit{path: slices.Clone(path), exact: exact, inURL: url})
	}
	walk = func(v any, path []string) {
		switch x := v.(type) {
		case map[string]any:
			for _, k := range slices.Sorted(maps.Keys(x)) {
				walk(x[k], append(path, k))
			}
		case []any:
			for _, e := range x {
				walk(e, path)
			}
		case string:
			if strings.Contains(x, fact) {
				add(path, x == fact, strings.HasPrefix(x, "http://") || strings.HasPrefix(x, "https://"))
			}
		case json.Number:
			if string(x) == fact {
				add(path, true, false)
			}
		case float64:
			if numErr == nil && math.Abs(x-num) < 1e-9 || strconv.FormatFloat(x, 'f', -1, 64) == fact {
				add(path, true, false)
			}
		case bool:
			if strconv.FormatBool(x) == fact {
				add(path, true, false)
			}
		}
	}
	walk(doc, []string{""})
	return hits
}

// factKeys lists the keys of the response leaves a fact is found in
// (see factIn), sorted and unique.
func factKeys(doc any, fact string) []string {
	keys := map[string]bool{}
	for _, h := range factHits(doc, fact) {
		keys[h.leaf()] = true
	}
	return slices.Sorted(maps.Keys(keys))
}

// toleranceWords mark a Type-I question that accepts an approximate
// number; its key points must then be numbers, so that the scorer can
// apply the tolerance.
var reTolerance = regexp.MustCompile(`(?i)\b(roughly|ballpark|approximately|approx|more or less)\b`)

// Topics a Type-I question can ask about and the words that show its key
// points answer that topic: a question about rain needs a rain key point.
var typeITopics = []struct {
	question *regexp.Regexp
	answer   *regexp.Regexp
	what     string
}{
	{regexp.MustCompile(`(?i)\b(rain|rainy|wet|dry|umbrella|precipitation)\b`), regexp.MustCompile(`(?i)\brain|\bdays?\b`), "rain"},
	{regexp.MustCompile(`(?i)\b(hot|warm|cold|chilly|temperatures?|sweater|t-shirt|mild|degrees)\b`), regexp.MustCompile(`°|\bdegrees\b`), "temperature"},
}

// checkTypeIKeyPoints holds Task 5's key points to the question: numbers
// when the question asks roughly, and on the topic the question asks about.
func (v *validator) checkTypeIKeyPoints(in *Instruction) {
	if reTolerance.MatchString(in.Text) {
		for i, kp := range in.KeyPoints {
			if !reDigits.MatchString(kp) {
				v.problem(in, fmt.Sprintf("key_points[%d]", i), "%q is not a number, but the question asks for an approximate one", kp)
			}
		}
	}
	for _, t := range typeITopics {
		if !t.question.MatchString(in.Text) || !strings.Contains(in.ReferenceAnswer, "°") || !strings.Contains(in.ReferenceAnswer, "rain") {
			// Only a reference that covers both topics (climate) can
			// be held to the one asked about.
			continue
		}
		ok := false
		for _, kp := range in.KeyPoints {
			ok = ok || t.answer.MatchString(kp)
		}
		if !ok {
			v.problem(in, "key_points", "the question asks about %s but no key point states it: %q", t.what, in.KeyPoints)
		}
	}
}
