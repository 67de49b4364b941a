//go:build unix

package player

import (
	"io"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"
)

func TestExecLimitedSetsTheLimitsThenRunsTheProgram(t *testing.T) {
	// Where no tool sets another process's limits (macOS, the BSDs),
	// Arbiter's own executable, told the limits in ARBITER_EXEC_LIMITS, sets
	// them on itself and becomes the program, which runs under them and
	// does not see the variable. (This test binary holds the package, and
	// so the same start.)
	if _, err := os.Stat("/proc/self/limits"); err != nil {
		t.Skip("the limits are read from /proc/self/limits, which this system has not")
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	lim := Limits{AddressSpace: 3 << 30, CPU: 7 * time.Second, Processes: 99, FileSize: 1 << 20}
	cat, err := exec.LookPath("cat")
	if err != nil {
		t.Skip(err)
	}
	env, err := exec.LookPath("env")
	if err != nil {
		t.Skip(err)
	}
	run := func(argv ...string) string {
		t.Helper()
		cmd := exec.Command(self, argv...)
		cmd.Env = append(os.Environ(), limitsEnv+"="+formatLimits(lim.rlimits()))
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%v: %v\n%s", argv, err, out)
		}
		return string(out)
	}
	limits := run(cat, "/proc/self/limits")
	for _, want := range []string{
		`Max cpu time\s+7\s+8\s+seconds`,
		`Max file size\s+1048576\s+1048576\s+bytes`,
		`Max processes\s+99\s+99\s+processes`,
		`Max address space\s+3221225472\s+3221225472\s+bytes`,
	} {
		if !regexp.MustCompile(want).MatchString(limits) {
			t.Errorf("the program's limits do not hold %q:\n%s", want, limits)
		}
	}
	if environ := run(env); strings.Contains(environ, limitsEnv) {
		t.Errorf("the program sees %s:\n%s", limitsEnv, environ)
	}
}

func TestExecLimitedRefusesWordsNotItsOwn(t *testing.T) {
	// The variable set by anything but Arbiter's start (a value it does not
	// write, or a program not named by its absolute path) runs nothing, and
	// says why.
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for _, c := range []struct {
		spec string
		argv []string
	}{
		{"lots", []string{"/bin/true"}},
		{"0:5:1", []string{"/bin/true"}}, // soft above hard
		{formatLimits(Limits{CPU: time.Second}.rlimits()), []string{"true"}},
	} {
		if code := execLimited(c.spec, c.argv, w); code != 2 {
			t.Errorf("%q %q: exit %d; want 2", c.spec, c.argv, code)
		}
	}
	w.Close()
	b, _ := io.ReadAll(r)
	said := string(b)
	if n := strings.Count(said, "this is how Arbiter starts a bot under limits"); n != 3 {
		t.Errorf("it said why %d times of 3:\n%s", n, said)
	}
}

func FuzzExecLimitsSpec(f *testing.F) {
	// ARBITER_EXEC_LIMITS, however written, is read or refused, never a
	// panic; what is read writes back as it reads.
	f.Add(formatLimits(Limits{AddressSpace: 4 << 30, CPU: 10 * time.Minute, Processes: 256, FileSize: 1 << 30}.rlimits()))
	f.Add("0:5:1")
	f.Add("9:18446744073709551615:18446744073709551615")
	f.Add(",,:")
	f.Fuzz(func(t *testing.T, spec string) {
		lim, err := parseLimits(spec)
		if err != nil {
			return
		}
		for _, r := range lim {
			if r.resource < 0 || r.soft > r.hard {
				t.Fatalf("%q read as %+v", spec, r)
			}
		}
		again, err := parseLimits(formatLimits(lim))
		if err != nil || len(again) != len(lim) {
			t.Fatalf("%q read as %+v, which writes %q, read as %+v, %v", spec, lim, formatLimits(lim), again, err)
		}
		for i := range lim {
			if again[i] != lim[i] {
				t.Fatalf("%q: %+v written and read again is %+v", spec, lim[i], again[i])
			}
		}
	})
}
