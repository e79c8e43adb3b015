package sniff

import (
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/cgigate/cgigate/decoder/charset"
)

func TestGeneratedTablesHaveTheirShapes(t *testing.T) {
	t.Run("every cost digit is one the decoder knows", func(t *testing.T) {
		for i := range 64 {
			if got := digit(costDigits[i]); got != i {
				t.Errorf("digit(%q) = %d, want %d", costDigits[i], got, i)
			}
		}
		for name, s := range map[string]string{"hanJa": hanJa, "hanKo": hanKo, "hanHans": hanHans, "hanHant": hanHant, "hangulKo": hangulKo, "hiraganaJa": hiraganaJa, "katakanaJa": katakanaJa} {
			if i := strings.IndexFunc(s, func(r rune) bool { return !strings.ContainsRune(costDigits, r) }); i >= 0 {
				t.Errorf("%s[%d] is no cost digit", name, i)
			}
		}
	})
	t.Run("CJK tables cover their blocks", func(t *testing.T) {
		for name, s := range map[string]string{"hanJa": hanJa, "hanKo": hanKo, "hanHans": hanHans, "hanHant": hanHant} {
			if len(s) != 0x9FFF-0x4E00+1 {
				t.Errorf("%s has %d entries for U+4E00..U+9FFF", name, len(s))
			}
		}
		if len(hangulKo) != 0xD7A3-0xAC00+1 || len(hiraganaJa) != 0x60 || len(katakanaJa) != 0x60 {
			t.Errorf("hangul %d, hiragana %d, katakana %d entries", len(hangulKo), len(hiraganaJa), len(katakanaJa))
		}
	})
	for i := range alphaLangs {
		l := &alphaLangs[i]
		t.Run(l.name+" has a sorted lower-case alphabet and a square bigram table", func(t *testing.T) {
			letters := []rune(l.alphabet)
			if !slices.IsSorted(letters) || len(letters) == 0 {
				t.Errorf("alphabet %q is not sorted", l.alphabet)
			}
			for _, r := range letters {
				if unicode.ToLower(r) != r || !isWordRune(r) {
					t.Errorf("%q is no lower-case letter", r)
				}
			}
			if n := utf8.RuneCountInString(l.alphabet) + 1; len(l.bigrams) != n*n {
				t.Errorf("%d bigram costs for %d symbols", len(l.bigrams), n)
			}
		})
		t.Run(l.name+" is tied to charsets that encode its alphabet", func(t *testing.T) {
			for _, name := range l.charsets {
				if !slices.ContainsFunc(candidateList[:], func(e struct {
					name string
					base float64
					cjk  cjkLang
				}) bool {
					return e.name == name
				}) {
					t.Errorf("%s is no candidate", name)
				}
				c := charset.MustLookup(name)
				if name == "windows-1258" {
					continue // composes Vietnamese from combining marks
				}
				missing := 0
				for _, r := range l.alphabet {
					if _, err := c.Encode(string(r), false); err != nil {
						missing++
					}
				}
				if missing*20 > utf8.RuneCountInString(l.alphabet) {
					t.Errorf("%s lacks %d of the %d letters %q", name, missing, utf8.RuneCountInString(l.alphabet), l.alphabet)
				}
			}
		})
	}
}
