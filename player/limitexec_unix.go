//go:build unix

package player

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// limitsEnv names the variable through which Arbiter asks its own
// executable to set a program's limits and become the program: where no
// tool sets another process's limits (macOS, the BSDs), Arbiter runs
// itself first (limitArgs). Its value is formatLimits'; the words after
// the executable's are the program's. The program never sees it.
const limitsEnv = "ARBITER_EXEC_LIMITS"

func init() {
	if spec, ok := os.LookupEnv(limitsEnv); ok && len(os.Args) > 1 {
		os.Exit(execLimited(spec, os.Args[1:], os.Stderr))
	}
}

// formatLimits writes lim as limitsEnv's value: resource:soft:hard, by
// commas.
func formatLimits(lim []rlimit) string {
	parts := make([]string, len(lim))
	for i, r := range lim {
		parts[i] = fmt.Sprintf("%d:%d:%d", r.resource, r.soft, r.hard)
	}
	return strings.Join(parts, ",")
}

// parseLimits reads formatLimits' value.
func parseLimits(spec string) ([]rlimit, error) {
	var out []rlimit
	for _, part := range strings.Split(spec, ",") {
		f := strings.Split(part, ":")
		if len(f) != 3 {
			return nil, fmt.Errorf("%q is not resource:soft:hard", part)
		}
		res, err1 := strconv.Atoi(f[0])
		soft, err2 := strconv.ParseUint(f[1], 10, 63)
		hard, err3 := strconv.ParseUint(f[2], 10, 63)
		if err1 != nil || err2 != nil || err3 != nil || res < 0 || soft > hard {
			return nil, fmt.Errorf("%q is not resource:soft:hard", part)
		}
		out = append(out, rlimit{resource: res, soft: soft, hard: hard})
	}
	return out, nil
}

// execLimited sets the limits spec (formatLimits) on this process and
// replaces it with the program argv, whose first word is an absolute path,
// without limitsEnv in its environment. It returns only when it cannot,
// with the exit status to give, having said why on errs (the program's
// standard error: its seat's log). A limit the system refuses is told
// there, and the program runs without it.
func execLimited(spec string, argv []string, errs *os.File) int {
	lim, err := parseLimits(spec)
	if err != nil || !strings.HasPrefix(argv[0], "/") {
		fmt.Fprintf(errs, "arbiter: %s=%q with %q: this is how Arbiter starts a bot under limits, and these are not its words (%v)\n", limitsEnv, spec, argv, err)
		return 2
	}
	for _, r := range lim {
		var l unix.Rlimit
		setValue(&l.Cur, r.soft)
		setValue(&l.Max, r.hard)
		if err := unix.Setrlimit(r.resource, &l); err != nil {
			fmt.Fprintf(errs, "arbiter: this system refused the limit %s (%v); the bot runs without it\n", limitName(r.resource), err)
		}
	}
	os.Unsetenv(limitsEnv)
	err = syscall.Exec(argv[0], argv, os.Environ())
	fmt.Fprintf(errs, "arbiter: running %s: %v\n", argv[0], err)
	return 127
}

// setValue sets a field of unix.Rlimit, unsigned on most systems and
// signed on some (FreeBSD).
func setValue[T int64 | uint64](field *T, v uint64) { *field = T(v) }

// limitName names a resource as --bot-limits does.
func limitName(resource int) string {
	switch resource {
	case resourceAS:
		return "as (address space)"
	case resourceCPU:
		return "cpu (processor time)"
	case resourceNPROC:
		return "nproc (processes)"
	case resourceFSIZE:
		return "fsize (file size)"
	}
	return "number " + strconv.Itoa(resource)
}
