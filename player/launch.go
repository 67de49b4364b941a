package player

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/shell"
)

// How an external program is started, and kept in bounds:
//
//   - Its command is split into words as a shell would (quotes, escapes,
//     $VARIABLES), and run without a shell. Words that name files relative
//     to Arbiter's directory are made absolute, because the program runs in
//     a directory of its own.
//   - It runs in a new private temporary directory, which is also its HOME
//     and TMPDIR, removed when its seat ends; its environment is PATH, HOME,
//     TMPDIR, LANG and what External.Env adds, nothing else of Arbiter's.
//   - Its processes run under the resource limits of External.Limits, set
//     by prlimit(1) before the program itself starts (limitArgs; on macOS
//     and the BSDs, by Arbiter's own executable: execLimited).
//   - On Linux, it is the first process of a PID namespace of its own (with a user
//     namespace, so that no privilege is needed). When it ends, or is
//     killed, the kernel kills every process it started, however they
//     detached (setsid, double forks, nohup). A namespace is chosen over a
//     subreaper because it is exact: it holds this seat's processes and no
//     other's, and nothing need be tracked. Where namespaces are refused (a
//     container without the privilege), Arbiter becomes a subreaper instead:
//     orphans of bots are re-parented to it, and a seat's end kills its
//     program's process group, every descendant still linked to it, and
//     every orphan re-parented to Arbiter that is not another seat's still
//     playing, and reaps the orphans that ended by themselves.
//     Elsewhere it leads a session of its own, which is killed with it
//     (launch_otherunix.go); Windows runs no programs (program_windows.go).
//   - With External.Sandbox, on Linux, bubblewrap (bwrap) runs it instead: no network,
//     its own PID namespace with its own /proc (Arbiter's command line and
//     other processes are out of sight), a read-only view of the file
//     system, an empty, read-only /tmp and $TMPDIR (no seat sees
//     another's private directory), the bot-log directory and the run's
//     outputs (External.Outputs) hidden, /dev/shm read-only, and its
//     private directory the only place it can write: a file system in
//     memory of the file-size limit (fsize), which bounds all its files
//     together.

// launch is how one program is started.
type launch struct {
	argv    []string // what is executed: the wrappers, then the program's words
	env     []string
	dir     string // the program's private directory, its working directory
	limited bool   // prlimit(1) sets the limits
	// seccomp is the filter bwrap reads from descriptor 5 (seccompFD),
	// under --sandbox; nil for none.
	seccomp []byte
	// sandboxed says bwrap runs the program, and writes on descriptor 6
	// (infoFD) the process id of the sandbox's first process, whose
	// process group holds every process of the program (see rest).
	sandboxed bool
}

// seccompFD is the descriptor bwrap reads the seccomp filter from: after
// the program's standard input and output (initFiles).
const seccompFD = 5

// infoFD is the descriptor bwrap writes what it knows of the sandbox to
// (--info-fd): {"child-pid": N}, the first process inside it.
const infoFD = 6

// gateFD is the descriptor the sandbox's init reads a line from before it
// starts the program (sandboxInitArgs): Arbiter bounds the sandbox's
// processes first (boundProcesses).
const gateFD = 7

// prepare makes the launch of command for a seat: its words, its private
// directory and environment, and the wrappers that confine it. The caller
// removes l.dir when the program is done.
func prepare(command string, ext External) (l launch, err error) {
	words, err := commandWords(command)
	if err != nil {
		return launch{}, err
	}
	env, err := botEnv(ext.Env)
	if err != nil {
		return launch{}, err
	}
	// The program is looked up on the PATH it will have.
	prog, err := lookPath(words[0], envValue(env, "PATH"))
	if err != nil {
		return launch{}, fmt.Errorf("exec: %s: %w", words[0], err)
	}
	words[0] = prog
	dir, err := os.MkdirTemp("", "arbiter-bot-")
	if err != nil {
		return launch{}, fmt.Errorf("exec: a directory for the bot: %w", err)
	}
	defer func() {
		if err != nil {
			os.RemoveAll(dir)
		}
	}()
	env = append(env, "HOME="+dir, "TMPDIR="+dir)
	argv, env, limited, err := limitArgs(ext.Limits.rlimits(), words, env)
	if err != nil {
		return launch{}, err
	}
	if ext.Sandbox {
		bwrap, err := sandboxProgram()
		if err != nil {
			return launch{}, err
		}
		// The sandbox's init is ours (initArgs), not bwrap's: when it ends,
		// every process of the sandbox has ended before bwrap does.
		hidden := append(ext.Outputs.list(), ext.Logs.dir())
		filter := sandboxFilter()
		argv = append(append(sandboxArgs(bwrap, dir, env, hidden, filter != nil, words, ext.Limits.FileSize), sandboxInitArgs()...), argv...)
		return launch{argv: argv, env: env, dir: dir, limited: limited, seccomp: filter, sandboxed: true}, nil
	}
	return launch{argv: argv, env: env, dir: dir, limited: limited}, nil
}

// commandWords splits an exec: command into words as a shell would, and
// makes absolute the words that name files relative to the current
// directory.
func commandWords(command string) ([]string, error) {
	words, err := shell.Fields(command, os.Getenv)
	if err != nil {
		return nil, fmt.Errorf("exec:%s: %v; the command is split into words as a shell would, then run without a shell: for pipes, ; or &&, write exec:sh -c '...'", command, err)
	}
	if len(words) == 0 {
		return nil, errors.New("exec: give the command that runs the bot, e.g. exec:python3 bot.py")
	}
	script := false // a word named the script its interpreter runs
	for i, w := range words {
		if w == "--" {
			script = true // the words after it are the program's own
		}
		// The words after a script are its own: not checked.
		isScript := i > 0 && !script && namesScript(words[i-1], w)
		script = script || isScript
		if w == "" || filepath.IsAbs(w) || strings.HasPrefix(w, "-") {
			continue
		}
		if i == 0 && !strings.Contains(w, "/") {
			continue // a program found on the PATH
		}
		if _, err := os.Stat(w); err == nil {
			if abs, err := filepath.Abs(w); err == nil {
				words[i] = abs
			}
		} else if isScript && errors.Is(err, os.ErrNotExist) {
			// The bot runs in a directory of its own, where its
			// interpreter would say the file is missing from there.
			dir, _ := os.Getwd()
			return nil, fmt.Errorf("exec:%s: %s: no such file in %s (a bot's files are found from the directory arbiter runs in)", command, w, dir)
		}
	}
	return words, nil
}

// namesScript says whether w, a word of a bot's command after prev, names the
// script an interpreter runs: a path with a script's extension, not code
// (python3 -c, node -e, bash -lc), a module (python3 -m), a URL or a
// pattern.
func namesScript(prev, w string) bool {
	if !scriptExts[strings.ToLower(filepath.Ext(w))] || strings.Contains(w, "://") || strings.ContainsAny(w, "\n*?[;&|<>()$`'\"=") {
		return false
	}
	switch {
	case prev == "--eval" || prev == "--print" || prev == "--require" || prev == "--import" || prev == "--module":
		return false
	case len(prev) > 1 && prev[0] == '-' && prev[1] != '-':
		// The value of -c, -e, -m, -p, -r, alone or last of their
		// letters (sh -ec, perl -ne).
		return !strings.ContainsAny(prev[len(prev)-1:], "cemprE")
	}
	return true
}

// scriptExts are the extensions of the scripts an interpreter runs: a
// word of a bot's command with one names a file.
var scriptExts = map[string]bool{".py": true, ".js": true, ".mjs": true, ".cjs": true, ".ts": true, ".rb": true, ".pl": true,
	".sh": true, ".lua": true, ".php": true, ".jl": true, ".r": true, ".jar": true}

// lookPath finds program on path, as the program's own environment would.
func lookPath(program, path string) (string, error) {
	if strings.Contains(program, "/") {
		if err := executable(program); err != nil {
			return "", err
		}
		return program, nil
	}
	for _, d := range filepath.SplitList(path) {
		if d == "" || !filepath.IsAbs(d) {
			continue
		}
		p := filepath.Join(d, program)
		if executable(p) == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("not found on the PATH (%s)", path)
}

func executable(path string) error {
	fi, err := os.Stat(path)
	switch {
	case err != nil:
		return errors.Unwrap(err)
	case fi.IsDir():
		return errors.New("is a directory")
	case fi.Mode()&0o111 == 0:
		return errors.New("is not executable")
	}
	return nil
}

// CheckProgram checks an exec: spec before anything is played: that its
// command splits into words and names a program that can be run.
func CheckProgram(spec string, ext External) error {
	if err := execSupported(); err != nil {
		return err
	}
	command := strings.TrimSpace(strings.TrimPrefix(spec, "exec:"))
	words, err := commandWords(command)
	if err != nil {
		return err
	}
	env, err := botEnv(ext.Env)
	if err != nil {
		return err
	}
	prog, err := lookPath(words[0], envValue(env, "PATH"))
	if err != nil {
		return fmt.Errorf("exec:%s: the program %s: %w%s", command, words[0], err, scriptHint(words[0], command, false))
	}
	if hint := scriptHint(prog, command, true); hint != "" {
		return fmt.Errorf("exec:%s: the program %s has no #! line, so the system would run it with /bin/sh%s", command, words[0], hint)
	}
	return nil
}

// interpreters run the scripts of an extension, for a bot's command that
// names the script alone.
var interpreters = map[string]string{".py": "python3", ".js": "node", ".mjs": "node", ".cjs": "node", ".rb": "ruby",
	".pl": "perl", ".lua": "lua", ".php": "php", ".jl": "julia"}

// scriptHint says how to run prog, the first word of command, when it is a
// script of an interpreter (bots/mybot.js) that cannot run by itself, after
// a colon, or "": one that is not executable (run is false), or one that
// is, but has no #! line to name its interpreter (run is true), which the
// system would run as a shell script.
func scriptHint(prog, command string, run bool) string {
	ext := strings.ToLower(filepath.Ext(prog))
	interp := interpreters[ext]
	if interp == "" {
		return ""
	}
	if run {
		f, err := os.Open(prog)
		if err != nil {
			return ""
		}
		defer f.Close()
		head := make([]byte, 2)
		if n, _ := io.ReadFull(f, head); n == 2 && string(head) == "#!" {
			return ""
		}
	}
	how := "make it executable (chmod +x) with a #! line first"
	if run {
		how = "begin it with a #! line"
	}
	return fmt.Sprintf(": give its interpreter (exec:%s %s), or %s (#!/usr/bin/env %s)", interp, command, how, interp)
}

// CheckEnv checks --bot-env values before anything is played.
func CheckEnv(extra []string) error {
	_, err := botEnv(extra)
	return err
}

// CheckSandbox makes sure programs can run as ext says: bubblewrap is
// there when a sandbox is asked for.
func CheckSandbox(ext External) error {
	if !ext.Sandbox {
		return nil
	}
	_, err := sandboxProgram()
	return err
}

// botEnv is the environment of a program: PATH and LANG from Arbiter's,
// and each of extra: NAME=VALUE, or NAME for Arbiter's own value of NAME.
func botEnv(extra []string) ([]string, error) {
	path := os.Getenv("PATH")
	if path == "" {
		path = "/usr/local/bin:/usr/bin:/bin"
	}
	env := []string{"PATH=" + path}
	if lang, ok := os.LookupEnv("LANG"); ok {
		env = append(env, "LANG="+lang)
	}
	for _, e := range extra {
		name, value, set := strings.Cut(e, "=")
		if name == "" || strings.ContainsAny(name, " \t\x00") {
			return nil, fmt.Errorf("--bot-env %q: give NAME=VALUE, or NAME to pass this environment's value", e)
		}
		if name == "HOME" || name == "TMPDIR" {
			return nil, fmt.Errorf("--bot-env %s: a bot's %s is its own directory", name, name)
		}
		if !set {
			v, ok := os.LookupEnv(name)
			if !ok {
				continue
			}
			value = v
		}
		env = setEnv(env, name, value)
	}
	return env, nil
}

func setEnv(env []string, name, value string) []string {
	for i, e := range env {
		if strings.HasPrefix(e, name+"=") {
			env[i] = name + "=" + value
			return env
		}
	}
	return append(env, name+"="+value)
}

func envValue(env []string, name string) string {
	for _, e := range env {
		if v, ok := strings.CutPrefix(e, name+"="); ok {
			return v
		}
	}
	return ""
}

// sandboxArgs runs a program under bubblewrap: no network nor Unix
// sockets (seccomp: a filter on descriptor seccompFD), its own PID
// namespace and /proc, the file system read-only, an empty /tmp but for
// the program's own files there (the directories of the files its words
// name), the run's outputs and logs hidden (hidden), dir writable and its
// working directory, and only env in its environment. bwrap dies with
// Arbiter, and its processes with it; it tells the id of the sandbox's
// first process on descriptor infoFD.
//
// With space above 0, dir is a file system of the program's own, in
// memory, of that many bytes: the limit of one file's size is then the
// limit of all its files, so that a program cannot fill the disk file by
// file. Without, dir is the private directory made for it on disk.
func sandboxArgs(bwrap, dir string, env []string, hidden []string, seccomp bool, words []string, space int64) []string {
	args := []string{bwrap, "--unshare-all", "--as-pid-1", "--die-with-parent", "--new-session",
		"--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"}
	roots := tempRoots()
	for _, root := range roots {
		args = append(args, "--tmpfs", root)
	}
	for _, own := range ownTempDirs(words, roots) {
		args = append(args, "--ro-bind", own, own)
	}
	// After the program's own directories: an output beside the program
	// is hidden all the same.
	var hiddenDirs []string
	for _, h := range hidden {
		a := hide(h)
		if len(a) == 2 && a[0] == "--tmpfs" {
			hiddenDirs = append(hiddenDirs, a[1])
		}
		args = append(args, a...)
	}
	for _, own := range ownFilesIn(words, hiddenDirs) {
		args = append(args, "--ro-bind", own, own)
	}
	if space > 0 {
		args = append(args, "--size", strconv.FormatInt(space, 10), "--tmpfs", dir)
	} else {
		args = append(args, "--bind", dir, dir)
	}
	// The empty file systems over the temporary roots, the hidden outputs
	// and /dev (its /dev/shm) are read-only once the mounts in them are
	// made, so that the program writes in dir alone: in memory, without a
	// bound of their own, they would hold whatever it wrote there.
	// (--remount-ro leaves the mounts in them as they are.)
	for _, ro := range append(append(slices.Clone(roots), hiddenDirs...), "/dev") {
		args = append(args, "--remount-ro", ro)
	}
	args = append(args, "--chdir", dir, "--clearenv", "--info-fd", strconv.Itoa(infoFD))
	if seccomp {
		args = append(args, "--seccomp", strconv.Itoa(seccompFD))
	}
	for _, e := range env {
		name, value, _ := strings.Cut(e, "=")
		args = append(args, "--setenv", name, value)
	}
	return append(args, "--")
}

// hide returns the arguments of bwrap that hide path from the program: an
// empty directory over a directory, the empty /dev/null over a file. A
// path that is not there yet has nothing to show.
func hide(path string) []string {
	if path == "" {
		return nil
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	fi, err := os.Stat(abs)
	switch {
	case err != nil:
		return nil
	case fi.IsDir():
		return []string{"--tmpfs", abs}
	}
	return []string{"--ro-bind", "/dev/null", abs}
}

// ownFilesIn returns what of the files a program's words name lies in
// one of dirs, hidden (a --record directory that holds the bot): a
// directory of its own there whole, a file right in a hidden directory
// alone, so that the program runs and the outputs beside it stay hidden.
func ownFilesIn(words []string, dirs []string) []string {
	var own []string
	seen := map[string]bool{}
	for _, w := range words {
		if !filepath.IsAbs(w) {
			continue
		}
		p := filepath.Clean(w)
		if real, err := filepath.EvalSymlinks(p); err == nil {
			p = real
		}
		fi, err := os.Stat(p)
		if err != nil {
			continue
		}
		for _, d := range dirs {
			if !strings.HasPrefix(p, d+"/") {
				continue
			}
			show := p
			if !fi.IsDir() && filepath.Dir(p) != d {
				show = filepath.Dir(p)
			}
			if !seen[show] {
				seen[show] = true
				own = append(own, show)
			}
		}
	}
	return own
}

// Outputs are the files and directories a run writes as it plays: its
// records, results, reports and training data. A sandboxed program does
// not see them (each directory is empty to it, each file empty), so that
// no bot reads the seeds of the games before its own, from which the
// seeds of its own game and of those after it follow (game k plays with
// the first seed plus k-1), nor how the others played.
type Outputs struct {
	mu    sync.Mutex
	paths []string
}

// Add adds paths to the outputs; empty ones are passed over. Each is
// hidden from the programs started after, if it is there when they start:
// a directory hides what is written in it later.
func (o *Outputs) Add(paths ...string) {
	if o == nil {
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	for _, p := range paths {
		if p != "" {
			o.paths = append(o.paths, p)
		}
	}
}

func (o *Outputs) list() []string {
	if o == nil {
		return nil
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	return slices.Clone(o.paths)
}

// tempRoots are the directories a sandbox shows empty: /tmp, and the
// system's temporary directory ($TMPDIR) when it is elsewhere, where every
// seat's private directory is made: a seat does not see another's.
func tempRoots() []string {
	roots := []string{"/tmp"}
	t := filepath.Clean(os.TempDir())
	if real, err := filepath.EvalSymlinks(t); err == nil {
		t = real
	}
	if t != "/" && t != "/tmp" && !strings.HasPrefix(t, "/tmp/") && filepath.IsAbs(t) {
		roots = append(roots, t)
	}
	return roots
}

// ownTempDirs returns the directories under roots (tempRoots) of the files
// a program's words name, which the sandbox's empty roots would hide: the
// program's own.
func ownTempDirs(words []string, roots []string) []string {
	var dirs []string
	seen := map[string]bool{}
	for _, w := range words {
		d := filepath.Clean(w)
		under := ""
		for _, root := range roots {
			if strings.HasPrefix(d, root+"/") {
				under = root
			}
		}
		if under == "" {
			continue
		}
		fi, err := os.Stat(w)
		if err != nil {
			continue
		}
		if !fi.IsDir() {
			d = filepath.Dir(d)
		}
		if d != under && !seen[d] {
			seen[d] = true
			dirs = append(dirs, d)
		}
	}
	return dirs
}

// initArgs is the first process of a program's PID namespace: a shell that
// runs the program as its child and exits with its status. The program is
// then not the namespace's init, which the kernel treats apart (signals it
// sends itself without a handler are ignored); when the shell is killed,
// the kernel kills everything else in the namespace. The program's
// standard input and output come to the shell as descriptors 3 and 4
// (initFiles), and the shell gives them to the program alone, keeping no
// copy (nor does bwrap, whose own are /dev/null): a program that closes
// its output is heard to, at once, though it runs on.
//
// A shell starts a command in the background with SIGINT and SIGQUIT
// ignored, and a program keeps what it starts with: env(1) gives them back
// their default where it can (coreutils 8.31 and later), so that a program
// starts as from a terminal.
func initArgs() []string {
	return []string{"/bin/sh", "-c", defaultSignals() + `"$@" <&3 >&4 3<&- 4>&- & exec 3<&- 4>&-; wait $!`, "arbiter-bot"}
}

// sandboxInitArgs is initArgs for a sandbox: it waits for a line on
// descriptor gateFD (or its end) before it starts the program.
func sandboxInitArgs() []string {
	a := initArgs()
	a[2] = "read -r _ <&" + strconv.Itoa(gateFD) + "; exec " + strconv.Itoa(gateFD) + "<&-; " + a[2]
	return a
}

// defaultSignals is the start of a command that runs the rest with SIGINT
// and SIGQUIT at their default, or "" where env(1) cannot.
var defaultSignals = sync.OnceValue(func() string {
	env, err := exec.LookPath("env")
	if err != nil || exec.Command(env, "--default-signal=INT,QUIT", "true").Run() != nil {
		return ""
	}
	return env + " --default-signal=INT,QUIT "
})

// initFiles are the descriptors 3 and 4 of an init (initArgs): the
// program's standard input and output.
func initFiles(in, out *os.File) []*os.File { return []*os.File{in, out} }
