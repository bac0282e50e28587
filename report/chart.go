package report

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/thea-harness/thea/runlog"
)

// The chart's geometry, in SVG user units.
const (
	chartW, chartH         = 760, 260
	padL, padR, padT, padB = 56, 16, 16, 34
)

type point struct {
	turn int
	c    runlog.TokenCounts
}

type compactionMark struct {
	turn int
	info runlog.CompactionInfo
}

// Chart is the context-size chart: one stacked area per lifetime over the
// model requests, a marker at every compaction. All coordinates are
// computed here; the template only places them.
type Chart struct {
	W, H   int
	Areas  []Area
	YTicks []Tick
	XTicks []Tick
	Marks  []Mark
	Left   int // plot area
	Right  int
	Top    int
	Bottom int
}

// Area is one lifetime's band.
type Area struct {
	Name   string // Resident | Refreshed | Accumulated
	Class  string
	Points string // SVG polygon points
	Last   int    // its size at the last request
}

// Tick is one axis label.
type Tick struct {
	Pos   float64
	Label string
}

// Mark is one compaction on the chart.
type Mark struct {
	X     float64
	OK    bool
	Title string
}

// newChart lays out the chart; nil when the run has no context events.
func newChart(points []point, marks []compactionMark) *Chart {
	if len(points) == 0 {
		return nil
	}
	c := &Chart{W: chartW, H: chartH, Left: padL, Right: chartW - padR, Top: padT, Bottom: chartH - padB}
	maxY := 0
	for _, p := range points {
		maxY = max(maxY, p.c.Resident+p.c.Refreshed+p.c.Accumulated, p.c.Total)
	}
	for _, m := range marks {
		maxY = max(maxY, m.info.TokensBefore)
	}
	top := niceCeil(maxY)
	step := float64(c.Right-c.Left) / float64(max(len(points)-1, 1))
	x := func(i int) float64 {
		if len(points) == 1 {
			return float64(c.Left+c.Right) / 2
		}
		return float64(c.Left) + step*float64(i)
	}
	y := func(v int) float64 {
		return float64(c.Bottom) - float64(v)/float64(top)*float64(c.Bottom-c.Top)
	}
	layers := []struct {
		name, class string
		get         func(runlog.TokenCounts) int
	}{
		{"Resident", "resident", func(t runlog.TokenCounts) int { return t.Resident }},
		{"Refreshed", "refreshed", func(t runlog.TokenCounts) int { return t.Refreshed }},
		{"Accumulated", "accumulated", func(t runlog.TokenCounts) int { return t.Accumulated }},
	}
	base := make([]int, len(points))
	for _, l := range layers {
		var upper, lower []string
		for i, p := range points {
			top := base[i] + l.get(p.c)
			upper = append(upper, xy(x(i), y(top)))
			lower = append(lower, xy(x(len(points)-1-i), y(base[len(points)-1-i])))
		}
		for i, p := range points {
			base[i] += l.get(p.c)
		}
		if len(points) == 1 { // a band needs width: draw a thin bar
			upper = append(upper, xy(x(0)+4, y(base[0])))
			lower = append([]string{xy(x(0)+4, y(base[0]-l.get(points[0].c)))}, lower...)
		}
		c.Areas = append(c.Areas, Area{Name: l.name, Class: l.class, Points: strings.Join(append(upper, lower...), " "),
			Last: l.get(points[len(points)-1].c)})
	}
	for i := 0; i <= 4; i++ {
		v := top/4*i + top%4*i/4 // top*i/4, without overflowing
		c.YTicks = append(c.YTicks, Tick{Pos: y(v), Label: shortNum(v)})
	}
	every := max(1, (len(points)+11)/12)
	for i, p := range points {
		if i%every == 0 || i == len(points)-1 {
			c.XTicks = append(c.XTicks, Tick{Pos: x(i), Label: strconv.Itoa(p.turn)})
		}
	}
	// A compaction runs before its turn's model request: mark it just
	// before that request's point.
	for _, m := range marks {
		i := 0
		for i < len(points) && points[i].turn < m.turn {
			i++
		}
		mx := x(min(i, len(points)-1))
		if len(points) > 1 {
			mx -= step / 4
		}
		title := fmt.Sprintf("turn %d: compaction ~%d → ~%d tokens (%d → %d messages)", m.turn,
			m.info.TokensBefore, m.info.TokensAfter, m.info.MessagesBefore, m.info.MessagesAfter)
		if !m.info.OK {
			title = fmt.Sprintf("turn %d: compaction failed, context unchanged: %s", m.turn, m.info.Error)
		}
		c.Marks = append(c.Marks, Mark{X: mx, OK: m.info.OK, Title: title})
	}
	return c
}

func xy(x, y float64) string { return fmt.Sprintf("%.1f,%.1f", x, y) }

// niceCeil rounds up to 1, 2 or 5 times a power of ten (at least 10); the
// largest int when none fits. The loop compares p with v/10, not p*10
// with v: from 10^18 up, p*10 overflows and the loop never ended.
func niceCeil(v int) int {
	if v < 10 {
		return 10
	}
	p := 1
	for p <= v/10 {
		p *= 10
	}
	for _, m := range []int{1, 2, 5} {
		if m*p >= v {
			return m * p
		}
	}
	if p > math.MaxInt/10 {
		return math.MaxInt
	}
	return 10 * p
}

func shortNum(v int) string {
	switch {
	case v >= 1_000_000:
		return strconv.FormatFloat(float64(v)/1e6, 'f', -1, 64) + "M"
	case v >= 1000:
		return strconv.FormatFloat(float64(v)/1e3, 'f', -1, 64) + "k"
	}
	return strconv.Itoa(v)
}
