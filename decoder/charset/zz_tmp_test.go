package charset

import (
	"fmt"
	"testing"
	"time"

	"golang.org/x/text/encoding/htmlindex"
)

func TestTmpRatio(t *testing.T) {
	for _, name := range benchCharsets {
		c := MustLookup(name)
		xt, _ := htmlindex.Get(name)
		long, short := benchText(t, c, 1<<20)
		mostly := append([]byte(nil), long...)
		for i := 1 << 16; i < len(mostly); i += 1 << 16 {
			mostly[i] = 0xFF
		}
		for _, in := range []struct {
			n    string
			src  []byte
			reps int
		}{{"valid", long, 1}, {"mostly", mostly, 1}, {"short", short, 2000}} {
			best := [2]time.Duration{1 << 62, 1 << 62}
			for range 25 {
				t0 := time.Now()
				for range in.reps {
					c.Decode(in.src)
				}
				d0 := time.Since(t0)
				t1 := time.Now()
				for range in.reps {
					xt.NewDecoder().Bytes(in.src)
				}
				d1 := time.Since(t1)
				best[0], best[1] = min(best[0], d0), min(best[1], d1)
			}
			fmt.Printf("%-13s %-7s cgigate %9v xtext %9v ratio %.2f\n", name, in.n, best[0]/time.Duration(in.reps), best[1]/time.Duration(in.reps), float64(best[0])/float64(best[1]))
		}
	}
}
