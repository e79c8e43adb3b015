package bench

import (
	"bytes"
	"image/png"
	"slices"
	"testing"
)

func TestNiceTicksCoverTheDataInRoundSteps(t *testing.T) {
	tests := []struct {
		max  float64
		want []float64
	}{
		{200, []float64{0, 50, 100, 150, 200}},
		{24.4, []float64{0, 5, 10, 15, 20, 25}},
		{212, []float64{0, 50, 100, 150, 200, 250}},
		{1, []float64{0, 0.2, 0.4, 0.6000000000000001, 0.8, 1}},
		{7, []float64{0, 2, 4, 6, 8}},
		{0, []float64{0, 1}},
	}
	for _, tt := range tests {
		if got := niceTicks(tt.max); !slices.Equal(got, tt.want) {
			t.Errorf("niceTicks(%v) = %v, want %v", tt.max, got, tt.want)
		}
	}
}

// Every point is drawn in its series' colour where the axes put it, and the
// chart is a PNG of the chart's size.
func TestChartDrawsEachPointWhereTheAxesPutIt(t *testing.T) {
	c := Chart{Title: "peak RSS", XLabel: "body (MB)", YLabel: "MB", Series: []Series{
		{Name: "multipart", X: []float64{25, 50, 100, 200}, Y: []float64{6, 6, 6, 6}},
		{Name: "urlencoded", X: []float64{1.25, 2.5, 5, 10}, Y: []float64{8, 11, 16, 24}},
	}}
	var b bytes.Buffer
	if err := c.WritePNG(&b); err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(&b)
	if err != nil {
		t.Fatal(err)
	}
	if sz := img.Bounds().Size(); sz.X != chartW || sz.Y != chartH {
		t.Fatalf("size %v", sz)
	}
	sc := scale{xMax: 200, yMax: 25} // the last ticks of 200 and 24
	for k, s := range c.Series {
		for i := range s.X {
			x, y := sc.at(s.X[i], s.Y[i])
			r, g, bl, _ := img.At(x, y).RGBA()
			want := seriesColors[k]
			if uint8(r>>8) != want.R || uint8(g>>8) != want.G || uint8(bl>>8) != want.B {
				t.Errorf("%s point %d at (%d, %d) is %v, want %v", s.Name, i, x, y, img.At(x, y), want)
			}
		}
	}
	if x, y := sc.at(200, 25); x != chartW-marginR || y != marginT {
		t.Errorf("the top right of the data is at (%d, %d), want the plot's corner (%d, %d)", x, y, chartW-marginR, marginT)
	}
}

func TestChartRefusesSeriesOfUnequalLengths(t *testing.T) {
	err := Chart{Series: []Series{{Name: "bad", X: []float64{1, 2}, Y: []float64{1}}}}.WritePNG(&bytes.Buffer{})
	if err == nil {
		t.Fatal("no error")
	}
}
