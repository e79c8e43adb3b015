package search

import (
	"hash/crc32"
	"sync/atomic"

	"github.com/cgigate/cgigate/internal/lazy"
)

// Every block of the index carries a CRC-32C (Castagnoli). crc32's own
// Castagnoli table, on first use, builds the tables of its SSE4.2 code
// (1.5 MB of CRC computed: about 0.25 ms and 9 KB on this machine), more
// than a CGI search over thousands of documents then spends checking
// what it reads (15 to 35 KB: the manifest, a header, posting lists, ten
// records), which crc32's byte-at-a-time loop checks in tens of
// microseconds. So a process checks its first cheapBytes with that loop,
// over a table of its own (crc32.Update takes it for the simple loop:
// it is not crc32's Castagnoli table), and only then makes crc32's: as
// when renting skis before buying, a process that checks more pays at
// most about twice the least it could have. Both give the same sums.
const cheapBytes = 64 << 10

// castagnoli is made on first use: a CGI process that answers a form and
// never opens the index should not pay for the table at start-up.
var castagnoli = lazy.Value[*crc32.Table]{New: func() *crc32.Table { return crc32.MakeTable(crc32.Castagnoli) }}

// castagnoliBytewise is CRC-32C's table for the byte-at-a-time loop, as
// crc32 makes its own (reflected, the polynomial crc32.Castagnoli).
var castagnoliBytewise = lazy.Value[*crc32.Table]{New: func() *crc32.Table {
	t := new(crc32.Table)
	for i := range t {
		crc := uint32(i)
		for range 8 {
			if crc&1 == 1 {
				crc = crc>>1 ^ crc32.Castagnoli
			} else {
				crc >>= 1
			}
		}
		t[i] = crc
	}
	return t
}}

// checkedCheap is the bytes the process has checked with the
// byte-at-a-time loop.
var checkedCheap atomic.Int64

// crcTable is the table to check n more bytes with.
func crcTable(n int) *crc32.Table {
	if checkedCheap.Load()+int64(n) <= cheapBytes {
		checkedCheap.Add(int64(n))
		return castagnoliBytewise.Get()
	}
	return castagnoli.Get()
}

func checksum(b []byte) uint32 { return crc32.Checksum(b, crcTable(len(b))) }

func crc32Update(crc uint32, b []byte) uint32 { return crc32.Update(crc, crcTable(len(b)), b) }
