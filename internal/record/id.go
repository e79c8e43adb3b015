package record

import (
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"sync/atomic"
	"time"
)

// lastID is the time of the last id this process made (NewID's c), so
// that its ids rise even when the clock gives the same tick twice: a
// FastCGI process makes many.
var lastID atomic.Uint64

// NewID is a record's id made at now: a UUIDv7 (RFC 9562 § 5.7) in its
// canonical text. The first 48 bits are now's Unix time in milliseconds;
// rand_a, the next 12, is the fraction of that millisecond (§ 6.2, method
// 3), so the ids of processes run one after another sort in their order;
// the last 62 are from crypto/rand. It is a few lines of the standard
// library: a UUID package would link database/sql/driver, crypto/md5 and
// crypto/sha1 into every CGI process for one call.
func NewID(now time.Time) string {
	// c is the millisecond and its fraction, 48 and 12 bits: one more
	// than the last when the clock gives the same tick again or goes
	// back, a carry out of the fraction going into the millisecond.
	ns := now.UnixNano()
	c := uint64(ns/1e6)<<12 | uint64(ns%1e6*4096/1e6)
	for {
		last := lastID.Load()
		if c <= last {
			c = last + 1
		}
		if lastID.CompareAndSwap(last, c) {
			break
		}
	}
	hi := c>>12<<16 | 0x7000 | c&0xfff // the version, 7, between them
	var u [16]byte
	binary.BigEndian.PutUint64(u[:8], hi)
	rand.Read(u[8:])        // never fails: the runtime ends the process if it would
	u[8] = u[8]&0x3f | 0x80 // the variant of RFC 9562, 0b10
	var s [36]byte
	hex.Encode(s[0:8], u[0:4])
	hex.Encode(s[9:13], u[4:6])
	hex.Encode(s[14:18], u[6:8])
	hex.Encode(s[19:23], u[8:10])
	hex.Encode(s[24:], u[10:])
	s[8], s[13], s[18], s[23] = '-', '-', '-', '-'
	return string(s[:])
}

// IsID reports whether s is a UUID in its canonical text (RFC 9562 § 4),
// of any version and in either case: what a record's id must be for
// delivery, whose targets key on it (PostgreSQL's uuid type takes them all).
func IsID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
				return false
			}
		}
	}
	return true
}
