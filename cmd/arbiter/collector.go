package main

import (
	"bufio"
	"bytes"
	"os"
	"runtime/debug"
	"strconv"
)

// serverGOGC is the collector's setting (GOGC) for arbiter serve: the heap
// may grow to five times what is live before it is collected, not twice
// (Go's default, 100). A server of a thousand live matches allocates tens
// of megabytes a second; at the default it collects every second or so,
// and every move waits longer while it marks. The price is memory: the
// figures of `arbiter load` are measured with it.
const serverGOGC = 400

// tuneCollector sets the collector for a long-running server, unless
// GOGC or GOMEMLIMIT say otherwise: serverGOGC, and a soft limit of half
// the machine's memory, which the collector then works harder to keep
// under however large the heap target grows.
func tuneCollector() {
	if _, set := os.LookupEnv("GOGC"); !set {
		debug.SetGCPercent(serverGOGC)
	}
	if _, set := os.LookupEnv("GOMEMLIMIT"); !set {
		if total := physicalMemory(); total > 0 {
			debug.SetMemoryLimit(total / 2)
		}
	}
}

// physicalMemory is the machine's memory in bytes, from /proc/meminfo; 0
// where there is none.
func physicalMemory() int64 {
	b, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		f := bytes.Fields(sc.Bytes())
		if len(f) == 3 && string(f[0]) == "MemTotal:" && string(f[2]) == "kB" {
			kb, err := strconv.ParseInt(string(f[1]), 10, 64)
			if err != nil || kb <= 0 {
				return 0
			}
			return kb << 10
		}
	}
	return 0
}
