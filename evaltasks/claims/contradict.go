package claims

import (
	"fmt"
	"strconv"

	"github.com/understudy/understudy/evaltasks/reading"
	"github.com/understudy/understudy/evaltasks/textmatch"
)

// checkedKinds are the kinds of quantity a result's fields measure that
// an answer states by their unit: a stated temperature, speed, share,
// pressure or length that no field of that kind holds is made up. Sums
// and durations are not among them: an answer may add them up (the
// total of a stay, a flight in hours).
var checkedKinds = map[reading.Kind]bool{reading.Temperature: true, reading.Speed: true, reading.Percent: true,
	reading.Pressure: true, reading.Length: true}

// factors convert a field's number into the units an answer may state it
// in (m/s as km/h or mph, metres as kilometres, km as miles).
var factors = map[reading.Kind][]float64{
	reading.Temperature: {1},
	reading.Percent:     {1, 100},
	reading.Pressure:    {1},
	reading.Speed:       {1, 3.6, 2.237, 1 / 3.6, 1 / 2.237, 1.609, 1 / 1.609},
	reading.Length:      {1, 1e-3, 1e3, 1.609, 1 / 1.609, 10, 0.1, 25.4, 1 / 25.4},
}

// Contradictions are the numbers an answer states, with a unit, for a
// kind of field the result has, that no field of that kind holds (as
// rounded) and the question does not give: a value not in the result,
// for a field it has, is a fabrication.
func Contradictions(rd *reading.Reading, question string, data textmatch.ToolData) []string {
	held := map[reading.Kind][]float64{}
	for _, v := range data.Values {
		x, err := strconv.ParseFloat(v, 64)
		if err != nil {
			continue
		}
		if k := reading.PathsKind(data.Paths[v]); checkedKinds[k] {
			held[k] = append(held[k], x)
		}
	}
	var given []float64
	for _, n := range textmatch.Numbers(question) {
		given = append(given, n.Val, n.Hi)
	}
	var out []string
	for _, v := range rd.Numbers() {
		xs, ok := held[v.Kind]
		if !checkedKinds[v.Kind] || !ok {
			continue
		}
		found := false
		for _, x := range given {
			found = found || v.Val == x || v.Hi == x
		}
		for _, x := range xs {
			for _, f := range factors[v.Kind] {
				if v.Within(x*f, "", 0.01, textmatch.Rounded) || v.Within(x*f, "c", 0.01, textmatch.Rounded) || v.Within(x*f, "f", 0.01, textmatch.Rounded) {
					found = true
				}
			}
		}
		if !found {
			out = append(out, fmt.Sprintf("%s %s", strconv.FormatFloat(v.Val, 'f', -1, 64), v.Kind))
		}
	}
	return out
}
