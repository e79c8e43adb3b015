package bench

import (
	"errors"
	"os"
	"testing"
	"time"
)

func TestParseWrk(t *testing.T) {
	tests := []struct {
		name string
		file string
		want Sample
	}{
		{"a report with --latency gives req/s, mean, p99 and the count", "testdata/wrk-latency.txt",
			Sample{Requests: 128, Seconds: 1, RPS: 127.37, Mean: 70430 * time.Microsecond, P99: 398270 * time.Microsecond}},
		{"non-2xx answers are counted", "testdata/wrk-non2xx.txt",
			Sample{Requests: 464, Seconds: 1.06, RPS: 437.58, Mean: 81720 * time.Microsecond, P99: 678050 * time.Microsecond, Non2xx: 464}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := os.ReadFile(tt.file)
			if err != nil {
				t.Fatal(err)
			}
			got, err := ParseWrk(string(out))
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("ParseWrk = %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestParseWrkRefuses(t *testing.T) {
	tests := []struct {
		name, out string
	}{
		{"a report without the latency distribution is refused", "    Latency    70.43ms  102.08ms 429.68ms   82.23%\n  128 requests in 1.00s, 68.12KB read\nRequests/sec:    127.37\n"},
		{"a usage message is refused", "Usage: wrk <options> <url>\n"},
		{"socket errors that are not numbers are refused", "Socket errors: connect x, read 0, write 0, timeout 0\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := ParseWrk(tt.out); !errors.Is(err, ErrWrkOutput) {
				t.Errorf("ParseWrk error = %v, want ErrWrkOutput", err)
			}
		})
	}
}

func TestParseWrkCountsSocketErrors(t *testing.T) {
	out, err := os.ReadFile("testdata/wrk-latency.txt")
	if err != nil {
		t.Fatal(err)
	}
	got, err := ParseWrk(string(out) + "  Socket errors: connect 1, read 2, write 3, timeout 4\n")
	if err != nil {
		t.Fatal(err)
	}
	if got.Errors != 10 {
		t.Errorf("Errors = %d, want 10", got.Errors)
	}
}

func TestParseWrkDuration(t *testing.T) {
	tests := []struct {
		in   string
		want time.Duration
	}{
		{"812.00us", 812 * time.Microsecond},
		{"5.83ms", 5830 * time.Microsecond},
		{"1.02s", 1020 * time.Millisecond},
		{"2.00m", 2 * time.Minute},
	}
	for _, tt := range tests {
		t.Run("wrk's "+tt.in+" is read in its unit", func(t *testing.T) {
			got, err := ParseWrkDuration(tt.in)
			if err != nil || got != tt.want {
				t.Errorf("ParseWrkDuration(%q) = %v, %v, want %v", tt.in, got, err, tt.want)
			}
		})
	}
	t.Run("a number without a unit is refused", func(t *testing.T) {
		if _, err := ParseWrkDuration("5.83"); !errors.Is(err, ErrWrkOutput) {
			t.Errorf("error = %v, want ErrWrkOutput", err)
		}
	})
}

func TestWrkSecondsRoundsUp(t *testing.T) {
	for _, tt := range []struct {
		d    time.Duration
		want int
	}{{0, 1}, {300 * time.Millisecond, 1}, {time.Second, 1}, {1500 * time.Millisecond, 2}, {3 * time.Second, 3}} {
		if got := wrkSeconds(tt.d); got != tt.want {
			t.Errorf("wrkSeconds(%v) = %d, want %d", tt.d, got, tt.want)
		}
	}
}
