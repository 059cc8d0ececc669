package htmlreport

import (
	"fmt"
	"strings"
)

// A chart is drawn twice from the same groups of bars: as columns for a
// wide screen (the evaluation paper's figures) and as rows for a narrow
// one, each shown by the stylesheet's media query, so that every task's
// bar is on screen at any width and its labels stay readable (a
// columns chart shrunk to a phone's width would print them at half
// size).

// Geometry of the charts, in SVG user units. A bar of value v is
// v×plotHeight tall in columns and v×plotWidth long in rows: the browser
// test reads the sizes back.
const (
	// Columns.
	plotHeight = 200.0
	plotTop    = 16.0
	plotLeft   = 40.0
	barWidth   = 56.0
	barGap     = 28.0
	// Rows.
	plotWidth  = 210.0
	rowLabels  = 100.0 // the label column's width
	rowValue   = 44.0  // room right of the plot for a value
	rowBar     = 16.0  // a bar's height in a group of one bar
	rowRunBar  = 12.0  // a bar's height in a group of several
	rowStep    = 17.0  // from bar to bar in a group of several: a value label's height, so labels never touch
	rowGap     = 14.0  // between groups
	rowAxis    = 18.0  // the tick labels above the rows
	lineHeight = 14.0  // of label lines
	capHalf    = 4.0   // half the width of a whisker's cap
)

// Chart layouts, also the charts' CSS classes.
const (
	layoutColumns = "columns"
	layoutRows    = "rows"
)

// chartData is what a chart shows, before any geometry.
type chartData struct {
	Title  string
	Groups []chartGroup
	Legend []string // a label per run, for a chart of several runs
}

// chartGroup is one task's bars: one per run.
type chartGroup struct {
	// Labels name the group (the first is the task); Notes add what a
	// reader checks next (n, errors, scorer).
	Labels, Notes []string
	Bars          []chartBar
}

type chartBar struct {
	Task, Run int
	Class     string
	// Present is false for a task a run did not run: no bar is drawn.
	Present bool
	Value   float64
	// Interval, when HasInterval, is drawn as a whisker from Lo to Hi.
	HasInterval bool
	Lo, Hi      float64
	Title       string
}

// svgChart is a chart laid out for the "chart" template.
type svgChart struct {
	Layout        string
	Title         string
	Width, Height float64
	Grid          []gridLine
	Bars          []svgBar
	Texts         []line
	Legend        []legendItem
}

// gridLine is a grid line at a tick, with its label.
type gridLine struct {
	X1, Y1, X2, Y2 float64
	Label          line
}

// line is a text of a chart; Class sets its anchor and weight.
type line struct {
	Text  string
	Class string
	X, Y  float64
}

type legendItem struct {
	Label string
	Class string
	X, Y  float64
}

type svgBar struct {
	Task, Run  int
	Class      string
	Value      float64
	X, Y, W, H float64
	Title      string
	// Label is the value's text beside the bar's end.
	Label line
	// Whisker is the interval's path ("" for none), Lo and Hi its ends.
	Whisker string
	Lo, Hi  float64
}

func clamp01(v float64) float64 { return min(max(v, 0), 1) }

func tickValues() []float64 { return []float64{0, 0.25, 0.5, 0.75, 1} }

// charts lays a chart out both ways.
func charts(d chartData) [2]svgChart {
	return [2]svgChart{columnsChart(d), rowsChart(d)}
}

// columnsChart stands the bars up, a group per task along the x axis,
// the labels under each group.
func columnsChart(d chartData) svgChart {
	c := svgChart{Layout: layoutColumns, Title: d.Title}
	base := plotTop + plotHeight
	y := func(v float64) float64 { return base - clamp01(v)*plotHeight }
	const inner = 4.0
	x := plotLeft + barGap
	maxLines := 0
	for _, g := range d.Groups {
		w := barWidth
		if len(g.Bars) > 1 {
			w = barWidth / 2
		}
		start := x
		for _, b := range g.Bars {
			sb := svgBar{Task: b.Task, Run: b.Run, Class: b.Class, Value: b.Value, X: x, W: w, Y: base, Title: b.Title}
			top := base
			if b.Present {
				sb.Y = y(b.Value)
				sb.H = base - sb.Y
				top = sb.Y
				if b.HasInterval {
					mid := x + w/2
					sb.Lo, sb.Hi = b.Lo, b.Hi
					sb.Whisker = whiskerPath(mid, y(b.Lo), mid, y(b.Hi), true)
					top = min(top, y(b.Hi))
				}
				sb.Label = line{Text: fmt.Sprintf("%.2f", b.Value), Class: "value", X: x + w/2, Y: top - 4}
			}
			c.Bars = append(c.Bars, sb)
			x += w + inner
		}
		mid := (start + x - inner) / 2
		texts := append(append([]string(nil), g.Labels...), g.Notes...)
		for i, t := range texts {
			class := "under"
			if i == 0 {
				class = "under task-name"
			}
			c.Texts = append(c.Texts, line{Text: t, Class: class, X: mid, Y: base + 18 + float64(i)*lineHeight})
		}
		maxLines = max(maxLines, len(texts))
		x += barGap - inner
	}
	width := x
	for _, v := range tickValues() {
		c.Grid = append(c.Grid, gridLine{X1: plotLeft, X2: width, Y1: y(v), Y2: y(v),
			Label: line{Text: fmt.Sprintf("%.2f", v), Class: "tick", X: plotLeft - 6, Y: y(v) + 4}})
	}
	height := base + 18 + float64(maxLines)*lineHeight
	lx := plotLeft
	for i, label := range d.Legend {
		c.Legend = append(c.Legend, legendItem{Label: label, Class: runClass(i), X: lx, Y: height})
		lx += 24 + 7*float64(len([]rune(label)))
	}
	if len(d.Legend) > 0 {
		height += 20
	}
	c.Width, c.Height = max(width, lx), height
	return c
}

// rowsChart lays the bars along the x axis, a group per task down the
// page, the labels left of each group: the chart of a narrow screen.
func rowsChart(d chartData) svgChart {
	c := svgChart{Layout: layoutRows, Title: d.Title}
	x := func(v float64) float64 { return rowLabels + clamp01(v)*plotWidth }
	top := rowAxis
	for _, g := range d.Groups {
		h, step := rowBar, 0.0
		if len(g.Bars) > 1 {
			h, step = rowRunBar, rowStep
		}
		y := top
		for _, b := range g.Bars {
			sb := svgBar{Task: b.Task, Run: b.Run, Class: b.Class, Value: b.Value, X: rowLabels, Y: y, H: h, Title: b.Title}
			if b.Present {
				sb.W = x(b.Value) - rowLabels
				end := x(b.Value)
				if b.HasInterval {
					mid := y + h/2
					sb.Lo, sb.Hi = b.Lo, b.Hi
					sb.Whisker = whiskerPath(x(b.Lo), mid, x(b.Hi), mid, false)
					end = max(end, x(b.Hi))
				}
				sb.Label = line{Text: fmt.Sprintf("%.2f", b.Value), Class: "value side", X: end + 4, Y: y + h/2 + 4}
			}
			c.Bars = append(c.Bars, sb)
			y += max(h+3, step)
		}
		barsEnd := y - max(h+3, step) + h
		for i, t := range g.Labels {
			class := "side"
			if i == 0 {
				class = "side task-name"
			}
			c.Texts = append(c.Texts, line{Text: t, Class: class, X: 0, Y: top + 11 + float64(i)*lineHeight})
		}
		labelsEnd := top + float64(len(g.Labels))*lineHeight
		notesEnd := barsEnd
		if len(g.Notes) > 0 {
			c.Texts = append(c.Texts, line{Text: strings.Join(g.Notes, " · "), Class: "side note", X: rowLabels, Y: barsEnd + 12})
			notesEnd += lineHeight
		}
		top = max(barsEnd, labelsEnd, notesEnd) + rowGap
	}
	bottom := top - rowGap + 4
	for _, v := range tickValues() {
		c.Grid = append(c.Grid, gridLine{X1: x(v), X2: x(v), Y1: rowAxis - 4, Y2: bottom,
			Label: line{Text: fmt.Sprintf("%.2f", v), Class: "tick mid", X: x(v), Y: rowAxis - 7}})
	}
	height := bottom + 4
	lx, ly := 0.0, height+6
	for i, label := range d.Legend {
		w := 24 + 7*float64(len([]rune(label)))
		if lx > 0 && lx+w > rowLabels+plotWidth+rowValue {
			lx, ly = 0, ly+18
		}
		c.Legend = append(c.Legend, legendItem{Label: label, Class: runClass(i), X: lx, Y: ly})
		lx += w
	}
	if len(d.Legend) > 0 {
		height = ly + 16
	}
	c.Width, c.Height = rowLabels+plotWidth+rowValue, height
	return c
}

// whiskerPath draws an interval from (x1, y1) to (x2, y2) with a cap
// across each end: vertical caps on a horizontal whisker, horizontal on
// a vertical one.
func whiskerPath(x1, y1, x2, y2 float64, vertical bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "M%.2f %.2fL%.2f %.2f", x1, y1, x2, y2)
	for _, p := range [2][2]float64{{x1, y1}, {x2, y2}} {
		if vertical {
			fmt.Fprintf(&b, "M%.2f %.2fH%.2f", p[0]-capHalf, p[1], p[0]+capHalf)
		} else {
			fmt.Fprintf(&b, "M%.2f %.2fV%.2f", p[0], p[1]-capHalf, p[1]+capHalf)
		}
	}
	return b.String()
}

// runClass is a run's colour in a chart of several runs.
func runClass(i int) string { return fmt.Sprintf("run%d", i%6) }
