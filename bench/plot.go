package bench

import (
	"errors"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"io"
	"math"
	"strconv"

	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"
)

// Series is one line of a Chart: points (X[i], Y[i]), in the order given.
type Series struct {
	Name string
	X, Y []float64
}

// Chart is a line chart on linear axes that start at zero, for how a cost
// grows with the size of the input (BENCHMARKS.md).
type Chart struct {
	Title, XLabel, YLabel string
	Series                []Series
}

// The chart's geometry, in pixels.
const (
	chartW, chartH = 720, 440
	marginL        = 70
	marginR        = 20
	marginT        = 40
	marginB        = 50
)

// seriesColors are the lines' colours, in turn.
var seriesColors = []color.RGBA{{0x1f, 0x77, 0xb4, 0xff}, {0xd6, 0x27, 0x28, 0xff}, {0x2c, 0xa0, 0x2c, 0xff}, {0x94, 0x67, 0xbd, 0xff}}

// WritePNG draws the chart and encodes it as PNG.
func (c Chart) WritePNG(w io.Writer) error {
	xMax, yMax := 0.0, 0.0
	for _, s := range c.Series {
		if len(s.X) != len(s.Y) {
			return errors.New("bench: chart series " + s.Name + " has unequal X and Y")
		}
		for i := range s.X {
			xMax, yMax = math.Max(xMax, s.X[i]), math.Max(yMax, s.Y[i])
		}
	}
	xTicks, yTicks := niceTicks(xMax), niceTicks(yMax)
	sc := scale{xMax: xTicks[len(xTicks)-1], yMax: yTicks[len(yTicks)-1]}

	img := image.NewRGBA(image.Rect(0, 0, chartW, chartH))
	draw.Draw(img, img.Bounds(), image.White, image.Point{}, draw.Src)
	grey, black := color.RGBA{0xdd, 0xdd, 0xdd, 0xff}, color.RGBA{0, 0, 0, 0xff}
	for _, t := range yTicks {
		_, y := sc.at(0, t)
		line(img, marginL, y, chartW-marginR, y, grey)
		s := tickText(t, yTicks[1])
		label(img, marginL-6-textWidth(s), y+4, s)
	}
	for _, t := range xTicks {
		x, _ := sc.at(t, 0)
		line(img, x, marginT, x, chartH-marginB, grey)
		s := tickText(t, xTicks[1])
		label(img, x-textWidth(s)/2, chartH-marginB+16, s)
	}
	line(img, marginL, chartH-marginB, chartW-marginR, chartH-marginB, black)
	line(img, marginL, marginT, marginL, chartH-marginB, black)
	label(img, marginL, 16, c.Title)
	label(img, (chartW-textWidth(c.XLabel))/2, chartH-12, c.XLabel)
	label(img, marginL+4, marginT-6, c.YLabel)
	for k, s := range c.Series {
		col := seriesColors[k%len(seriesColors)]
		for i := range s.X {
			x, y := sc.at(s.X[i], s.Y[i])
			if i > 0 {
				px, py := sc.at(s.X[i-1], s.Y[i-1])
				line(img, px, py, x, y, col)
			}
			draw.Draw(img, image.Rect(x-3, y-3, x+4, y+4), image.NewUniform(col), image.Point{}, draw.Src)
		}
		ly := marginT + 20 + 16*k
		lx := chartW - marginR - 40 - textWidth(s.Name)
		draw.Draw(img, image.Rect(lx, ly-6, lx+16, ly-2), image.NewUniform(col), image.Point{}, draw.Src)
		label(img, lx+22, ly, s.Name)
	}
	return png.Encode(w, img)
}

// scale maps data to pixels: (0, 0) at the plot's lower left corner,
// (xMax, yMax) at its upper right.
type scale struct{ xMax, yMax float64 }

func (s scale) at(x, y float64) (int, int) {
	px := marginL + int(math.Round(x/s.xMax*float64(chartW-marginL-marginR)))
	py := chartH - marginB - int(math.Round(y/s.yMax*float64(chartH-marginT-marginB)))
	return px, py
}

// niceTicks are the ticks from 0 to the first multiple of a 1, 2 or 5 step
// at or above max, four to ten of them; max 0 gives 0 and 1.
func niceTicks(max float64) []float64 {
	if max <= 0 {
		return []float64{0, 1}
	}
	step := math.Pow(10, math.Floor(math.Log10(max/5)))
	for _, m := range []float64{1, 2, 5, 10} {
		if max/(step*m) <= 5 {
			step *= m
			break
		}
	}
	n := int(math.Ceil(max/step - 1e-9))
	ticks := make([]float64, n+1)
	for i := range ticks {
		ticks[i] = float64(i) * step
	}
	return ticks
}

// tickText writes tick v with the decimals its step needs: 0.2, 25, 10000.
func tickText(v, step float64) string {
	return strconv.FormatFloat(v, 'f', max(0, int(-math.Floor(math.Log10(step)))), 64)
}

func textWidth(s string) int { return font.MeasureString(basicfont.Face7x13, s).Round() }

func label(img *image.RGBA, x, y int, s string) {
	d := font.Drawer{Dst: img, Src: image.Black, Face: basicfont.Face7x13, Dot: fixed.P(x, y)}
	d.DrawString(s)
}

// line draws from (x0, y0) to (x1, y1), one pixel wide (Bresenham).
func line(img *image.RGBA, x0, y0, x1, y1 int, c color.RGBA) {
	dx, dy := abs(x1-x0), -abs(y1-y0)
	sx, sy := sign(x1-x0), sign(y1-y0)
	for e := dx + dy; ; {
		img.SetRGBA(x0, y0, c)
		if x0 == x1 && y0 == y1 {
			return
		}
		e2 := 2 * e
		if e2 >= dy {
			e += dy
			x0 += sx
		}
		if e2 <= dx {
			e += dx
			y0 += sy
		}
	}
}

func abs(n int) int { return max(n, -n) }

func sign(n int) int {
	switch {
	case n > 0:
		return 1
	case n < 0:
		return -1
	}
	return 0
}
