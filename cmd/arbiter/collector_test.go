package main

import (
	"math"
	"os"
	"runtime/debug"
	"testing"
)

// TestServerCollectorSetting: a server collects at GOGC 400 under a soft
// limit of half the machine's memory, unless GOGC or GOMEMLIMIT is set,
// which it leaves as the user chose.
func TestServerCollectorSetting(t *testing.T) {
	gogc, limit := debug.SetGCPercent(100), debug.SetMemoryLimit(math.MaxInt64)
	t.Cleanup(func() { debug.SetGCPercent(gogc); debug.SetMemoryLimit(limit) })

	t.Setenv("GOGC", "77")
	t.Setenv("GOMEMLIMIT", "1TiB")
	debug.SetGCPercent(77)
	debug.SetMemoryLimit(1 << 40)
	tuneCollector()
	if got := debug.SetGCPercent(77); got != 77 {
		t.Errorf("GOGC set: the collector's setting became %d, want it left at 77", got)
	}
	if got := debug.SetMemoryLimit(-1); got != 1<<40 {
		t.Errorf("GOMEMLIMIT set: the limit became %d, want it left", got)
	}

	unsetenv(t, "GOGC")
	unsetenv(t, "GOMEMLIMIT")
	tuneCollector()
	if got := debug.SetGCPercent(100); got != serverGOGC {
		t.Errorf("GOGC unset: the collector's setting is %d, want %d", got, serverGOGC)
	}
	mem := physicalMemory()
	if mem <= 0 {
		t.Skip("no /proc/meminfo here: no limit to check")
	}
	if got := debug.SetMemoryLimit(-1); got != mem/2 {
		t.Errorf("GOMEMLIMIT unset: the limit is %d, want half of %d", got, mem)
	}
}

// unsetenv removes an environment variable for the test, and puts it back
// after.
func unsetenv(t *testing.T, name string) {
	t.Helper()
	t.Setenv(name, "") // restores it at the end
	if err := os.Unsetenv(name); err != nil {
		t.Fatal(err)
	}
}
