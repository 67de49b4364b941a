package server_test

import (
	"math"
	"testing"

	"github.com/arbiter-games/arbiter/server"
)

func TestStreamsFitAnyFileLimit(t *testing.T) {
	// The streams that fit an open-file limit were its files less those
	// kept, made an int whatever their number: a limit of 2⁶³ files or
	// more (RLIM_INFINITY where it is not all ones) came out negative,
	// and on 32 bits any limit past 2³¹, a server then holding no stream
	// at all. FileLimit is read apart for Unix (RLIMIT_NOFILE, signed on
	// FreeBSD) and for the others (no bound known), so that both build.
	for _, files := range []uint64{1, 256, 1024, 1 << 20, 1 << 40, math.MaxInt64, math.MaxUint64} {
		fit := server.StreamsFit(files)
		if fit < 1 || fit > math.MaxInt32 || files < math.MaxInt32 && uint64(fit) > files {
			t.Errorf("StreamsFit(%d) = %d; want 1 to %d, and no more than the files", files, fit, min(files, math.MaxInt32))
		}
	}
	if got := server.StreamsFit(256); got != 128 {
		t.Errorf("StreamsFit(256) = %d; want 128, a half kept", got)
	}
	if got := server.StreamsFit(0); got != server.DefaultLimits.Streams {
		t.Errorf("StreamsFit(0), no bound known = %d; want the default, %d", got, server.DefaultLimits.Streams)
	}
	if n := server.DefaultStreams(); n < 1 || n > server.DefaultLimits.Streams {
		t.Errorf("DefaultStreams() = %d; want 1 to %d", n, server.DefaultLimits.Streams)
	}
}
