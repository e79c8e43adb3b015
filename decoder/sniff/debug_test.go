package sniff

import (
	"flag"
	"testing"
)

var debugHex = flag.String("sniff.debug", "", "hex bytes to explain")

func TestDebugScores(t *testing.T) {
	if *debugHex == "" {
		t.Skip()
	}
	b := unhex(t, *debugHex)
	var sc scratch
	for _, c := range candidates() {
		s, bad := c.evaluate([][]byte{b}, nil, &sc)
		t.Logf("%-14s %8.2f bad=%d %q", c.name, s, bad, sc.key)
		if c.cjk == noCJK && !c.nfc && bad == 0 {
			for _, i := range c.alpha {
				l := &alphaLangs[i]
				sb := c.single()
				var syms []uint8
				k := 0
				for kk, ii := range c.alpha {
					if ii == i {
						k = kk
					}
				}
				for _, x := range b {
					syms = append(syms, sb.syms[k][x])
				}
				t.Logf("      %s %.2f", l.name, -l.cost(sc.text.gs, syms))
			}
		}
	}
}
