package player

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// Limits are the resource limits (setrlimit) every process of an external
// program runs under. Zero means no limit of that kind.
type Limits struct {
	// AddressSpace bounds each process's virtual memory, in bytes
	// (RLIMIT_AS).
	AddressSpace int64
	// CPU bounds each process's processor time (RLIMIT_CPU), counted in
	// whole seconds; a process over it is killed.
	CPU time.Duration
	// Processes bounds the processes and threads of the bot's user
	// (RLIMIT_NPROC). Linux does not apply it to processes of root; a
	// sandbox that root starts is bounded to Processes+300 instead, on
	// Linux 6.14 and later (boundProcesses).
	Processes int64
	// FileSize bounds the size of any file a process writes, in bytes
	// (RLIMIT_FSIZE).
	FileSize int64
}

// DefaultLimits are the limits of external programs unless --bot-limits
// says otherwise: 4 GiB of address space, ten minutes of processor time,
// 256 processes and threads, and files of 1 GiB.
var DefaultLimits = Limits{AddressSpace: 4 << 30, CPU: 10 * time.Minute, Processes: 256, FileSize: 1 << 30}

// limitNames are the --bot-limits keys, in the order String writes them.
var limitNames = []string{"as", "cpu", "nproc", "fsize"}

// ParseLimits reads a --bot-limits value: comma-separated key=value pairs
// that change the defaults, where the keys are as (address space: 512MiB,
// 4GiB), cpu (processor time: 90s, 10m), nproc (a count) and fsize (file
// size: 100MiB), and a value of none lifts that limit. "none" alone lifts
// them all; "" keeps the defaults.
func ParseLimits(s string) (Limits, error) {
	l := DefaultLimits
	s = strings.TrimSpace(s)
	if s == "" {
		return l, nil
	}
	if s == "none" {
		return Limits{}, nil
	}
	for _, part := range strings.Split(s, ",") {
		key, value, ok := strings.Cut(strings.TrimSpace(part), "=")
		key, value = strings.TrimSpace(key), strings.TrimSpace(value)
		if !ok || value == "" {
			return Limits{}, fmt.Errorf("--bot-limits %q: %q is not key=value; keys are %s, e.g. as=2GiB,cpu=5m,nproc=64,fsize=100MiB", s, part, strings.Join(limitNames, ", "))
		}
		var err error
		switch key {
		case "as":
			l.AddressSpace, err = parseBytes(value)
		case "fsize":
			l.FileSize, err = parseBytes(value)
		case "nproc":
			l.Processes, err = parseCount(value)
		case "cpu":
			l.CPU, err = parseSeconds(value)
		default:
			return Limits{}, fmt.Errorf("--bot-limits: unknown limit %q; limits are as (address space), cpu (processor time), nproc (processes), fsize (file size)", key)
		}
		if err != nil {
			return Limits{}, fmt.Errorf("--bot-limits %s=%s: %w", key, value, err)
		}
	}
	return l, nil
}

// String writes the limits as ParseLimits reads them.
func (l Limits) String() string {
	if l == (Limits{}) {
		return "none"
	}
	parts := make([]string, 0, len(limitNames))
	for _, name := range limitNames {
		var v string
		switch name {
		case "as":
			v = formatBytes(l.AddressSpace)
		case "cpu":
			v = "none"
			if l.CPU > 0 {
				v = l.CPU.String()
			}
		case "nproc":
			v = "none"
			if l.Processes > 0 {
				v = strconv.FormatInt(l.Processes, 10)
			}
		case "fsize":
			v = formatBytes(l.FileSize)
		}
		parts = append(parts, name+"="+v)
	}
	return strings.Join(parts, ",")
}

// rlimits returns the limits as setrlimit values, by prlimit(1)'s option
// names; a zero limit is left out.
func (l Limits) rlimits() []rlimit {
	var out []rlimit
	if l.AddressSpace > 0 {
		out = append(out, rlimit{"as", resourceAS, uint64(l.AddressSpace), uint64(l.AddressSpace)})
	}
	if l.CPU > 0 {
		// SIGXCPU at the limit, then a second's grace before SIGKILL, so
		// that the fault can name the limit.
		secs := uint64(max(1, (l.CPU+time.Second-1)/time.Second))
		out = append(out, rlimit{"cpu", resourceCPU, secs, secs + 1})
	}
	if l.Processes > 0 {
		out = append(out, rlimit{"nproc", resourceNPROC, uint64(l.Processes), uint64(l.Processes)})
	}
	if l.FileSize > 0 {
		out = append(out, rlimit{"fsize", resourceFSIZE, uint64(l.FileSize), uint64(l.FileSize)})
	}
	return out
}

// rlimit is one limit: its prlimit(1) option, its resource number, and its
// soft and hard values.
type rlimit struct {
	option     string
	resource   int
	soft, hard uint64
}

var units = []struct {
	suffix string
	size   int64
}{
	{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}, {"GB", 1e9}, {"MB", 1e6}, {"KB", 1e3}, {"G", 1 << 30}, {"M", 1 << 20}, {"K", 1 << 10}, {"B", 1},
}

// ParseSize reads a size in bytes such as 512KiB, 16MiB, 4GiB or 1000000;
// none is 0.
func ParseSize(s string) (int64, error) { return parseBytes(strings.TrimSpace(s)) }

// parseBytes reads a size such as 512MiB, 4GiB, 1000000 or none (0).
func parseBytes(s string) (int64, error) {
	if s == "none" {
		return 0, nil
	}
	n, unit := s, int64(1)
	for _, u := range units {
		if strings.HasSuffix(s, u.suffix) {
			n, unit = strings.TrimSpace(strings.TrimSuffix(s, u.suffix)), u.size
			break
		}
	}
	v, err := strconv.ParseInt(n, 10, 64)
	if err != nil || v <= 0 || v > math.MaxInt64/unit {
		return 0, fmt.Errorf("want a positive size such as 512MiB or 4GiB, or none")
	}
	return v * unit, nil
}

func formatBytes(n int64) string {
	switch {
	case n == 0:
		return "none"
	case n%(1<<30) == 0:
		return strconv.FormatInt(n>>30, 10) + "GiB"
	case n%(1<<20) == 0:
		return strconv.FormatInt(n>>20, 10) + "MiB"
	case n%(1<<10) == 0:
		return strconv.FormatInt(n>>10, 10) + "KiB"
	}
	return strconv.FormatInt(n, 10)
}

func parseCount(s string) (int64, error) {
	if s == "none" {
		return 0, nil
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v <= 0 {
		return 0, fmt.Errorf("want a positive whole number, or none")
	}
	return v, nil
}

func parseSeconds(s string) (time.Duration, error) {
	if s == "none" {
		return 0, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < time.Second {
		return 0, fmt.Errorf("want a duration of a second or more such as 90s or 10m, or none")
	}
	return d, nil
}
