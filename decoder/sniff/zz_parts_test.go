package sniff

import "testing"

func BenchmarkZZParts(b *testing.B) {
	rows := shortRows(b)
	pri := priorsFor(Evidence{})
	for _, kind := range []string{"cjk", "single", "1258"} {
		b.Run(kind, func(b *testing.B) {
			var sc scratch
			var cs []*candidate
			for _, c := range candidates.Get() {
				switch {
				case kind == "cjk" && c.cjk != noCJK && c.name != "iso-2022-jp",
					kind == "single" && c.sb != nil,
					kind == "1258" && c.nfc:
					cs = append(cs, c)
				}
			}
			start := cpuTime(b)
			for i := 0; b.Loop(); i++ {
				s := [][]byte{rows[i%len(rows)]}
				sc.resetTexts()
				for _, c := range cs {
					c.evaluate(s, pri, &sc, negInf)
				}
			}
			b.ReportMetric(float64(cpuTime(b)-start)/float64(b.N), "cpu-ns/op")
		})
	}
}
