package player

import (
	"encoding/binary"
	"runtime"

	"golang.org/x/sys/unix"
)

// A sandbox's network namespace cuts a bot off from the network, but not
// from Unix sockets: those with a path are reached through the file
// system, and a read-only mount does not stop a connect. A sandboxed bot
// could then talk to the machine's services (a database, Docker's socket,
// which is as good as root). bwrap loads a seccomp filter (--seccomp)
// that refuses, with EACCES, to make a Unix socket at all; socketpair,
// the pair of connected sockets a runtime makes for itself (Python's
// asyncio, libuv), stays allowed. io_uring, which can make sockets without
// the socket system call, is refused too.
//
// setsid and setpgid are refused as well: every process of a sandboxed
// bot stays in the process group the sandbox starts it in, which rests
// as one between the bot's turns (program.rest). So is every way for a bot
// to wake its resting processes itself, since a SIGCONT from anyone
// resumes a stopped process: sending SIGCONT (kill, tkill, tgkill,
// rt_sigqueueinfo, rt_tgsigqueueinfo, pidfd_send_signal; a process
// spinning on kill(0, SIGCONT) undid its group's stop as it was sent), and
// having the kernel send it later: a timer or a message queue that
// signals (timer_create, and mq_notify with a sigevent, whose signal is in
// memory a filter cannot read), fcntl F_SETSIG, prctl PR_SET_PDEATHSIG and
// a clone whose exit signal is SIGCONT. timer_create, which the C library
// always calls with a sigevent, is refused with ENOSYS, as if the kernel
// had no such timers: programs then time with setitimer or alarm (Go's
// profiler, coreutils' timeout). So is clone3, whose arguments are in
// memory too: the C library makes its threads and processes with clone
// instead. ptrace is refused as well: a tracer is told of its tracee's
// SIGSTOP before the tracee stops, and may discard it; one whose own
// SIGSTOP came after kept its spinning tracee running through a rest.
//
// The filter is a few dozen instructions, written here rather than
// assembled by elastic/go-seccomp-bpf, the pure-Go library for such
// policies: a policy of that library that allows by default lets the
// system calls of another architecture through (a 32-bit program's
// socketcall makes a Unix socket without the socket call), and it refuses
// with EPERM only.

// The classic BPF instructions a seccomp filter is made of.
const (
	bpfLD  = 0x00
	bpfW   = 0x00
	bpfABS = 0x20
	bpfJMP = 0x05
	bpfJEQ = 0x10
	bpfJGE = 0x30
	bpfK   = 0x00
	bpfRET = 0x06
	bpfALU = 0x04
	bpfAND = 0x50

	seccompRetAllow = 0x7fff0000
	seccompRetErrno = 0x00050000

	// The offsets of struct seccomp_data: the system call's number, its
	// architecture, and its first argument (its low 32 bits, on a
	// little-endian machine); each argument takes 8 bytes.
	dataNR   = 0
	dataArch = 4
	dataArg0 = 16

	// x32BIT marks the system calls of x86-64's x32 ABI.
	x32Bit = 0x40000000
)

// step is an instruction (struct sock_filter) of a filter being written;
// a jump's targets are named: "" (the next instruction), or the name of a
// step further on (at).
type step struct {
	at     string // its name, for a jump to it
	code   uint16
	k      uint32
	jt, jf string
}

// sandboxFilter returns the seccomp filter, as bwrap --seccomp reads it
// (struct sock_filter after struct sock_filter, in the machine's byte
// order), or nil on an architecture it is not written for.
func sandboxFilter() []byte {
	var arch uint32
	x32 := false
	switch runtime.GOARCH {
	case "amd64":
		arch, x32 = 0xC000003E, true // AUDIT_ARCH_X86_64
	case "arm64":
		arch = 0xC00000B7 // AUDIT_ARCH_AARCH64
	default:
		return nil
	}
	const (
		jeq  = bpfJMP | bpfJEQ | bpfK
		jge  = bpfJMP | bpfJGE | bpfK
		load = bpfLD | bpfW | bpfABS
		and  = bpfALU | bpfAND | bpfK
		ret  = bpfRET | bpfK
		sig  = uint32(unix.SIGCONT)
	)
	steps := []step{
		{code: load, k: dataArch},
		// A system call of another architecture (a 32-bit one) is
		// refused: its numbers are not these.
		{code: jeq, k: arch, jf: "deny"},
		{code: load, k: dataNR},
	}
	if x32 {
		steps = append(steps, step{code: jge, k: x32Bit, jt: "deny"})
	}
	steps = append(steps,
		step{code: jeq, k: unix.SYS_IO_URING_SETUP, jt: "deny"},
		step{code: jeq, k: unix.SYS_SETSID, jt: "deny"},
		step{code: jeq, k: unix.SYS_SETPGID, jt: "deny"},
		step{code: jeq, k: unix.SYS_PTRACE, jt: "deny"},
		step{code: jeq, k: unix.SYS_CLONE3, jt: "nosys"},
		step{code: jeq, k: unix.SYS_SOCKET, jt: "socket"},
		step{code: jeq, k: unix.SYS_KILL, jt: "arg1"},
		step{code: jeq, k: unix.SYS_TKILL, jt: "arg1"},
		step{code: jeq, k: unix.SYS_RT_SIGQUEUEINFO, jt: "arg1"},
		step{code: jeq, k: unix.SYS_PIDFD_SEND_SIGNAL, jt: "arg1"},
		step{code: jeq, k: unix.SYS_TGKILL, jt: "arg2"},
		step{code: jeq, k: unix.SYS_RT_TGSIGQUEUEINFO, jt: "arg2"},
		step{code: jeq, k: unix.SYS_CLONE, jt: "clone"},
		step{code: jeq, k: unix.SYS_FCNTL, jt: "fcntl"},
		step{code: jeq, k: unix.SYS_PRCTL, jt: "prctl"},
		step{code: jeq, k: unix.SYS_TIMER_CREATE, jt: "nosys"},
		step{code: jeq, k: unix.SYS_MQ_NOTIFY, jt: "sigevent"},
		step{code: ret, k: seccompRetAllow},

		// socket(AF_UNIX, ...)
		step{at: "socket", code: load, k: dataArg0},
		step{code: jeq, k: unix.AF_UNIX, jt: "deny", jf: "allow"},
		// The signal, second or third argument, is SIGCONT.
		step{at: "arg1", code: load, k: dataArg0 + 8},
		step{code: jeq, k: sig, jt: "deny", jf: "allow"},
		step{at: "arg2", code: load, k: dataArg0 + 16},
		step{code: jeq, k: sig, jt: "deny", jf: "allow"},
		// clone's exit signal, the low byte of its flags.
		step{at: "clone", code: load, k: dataArg0},
		step{code: and, k: 0xff},
		step{code: jeq, k: sig, jt: "deny", jf: "allow"},
		// fcntl(fd, F_SETSIG, SIGCONT)
		step{at: "fcntl", code: load, k: dataArg0 + 8},
		step{code: jeq, k: unix.F_SETSIG, jf: "allow"},
		step{code: load, k: dataArg0 + 16},
		step{code: jeq, k: sig, jt: "deny", jf: "allow"},
		// prctl(PR_SET_PDEATHSIG, SIGCONT)
		step{at: "prctl", code: load, k: dataArg0},
		step{code: jeq, k: unix.PR_SET_PDEATHSIG, jf: "allow"},
		step{code: load, k: dataArg0 + 8},
		step{code: jeq, k: sig, jt: "deny", jf: "allow"},
		// mq_notify's sigevent (the second argument, a pointer), unless
		// NULL.
		step{at: "sigevent", code: load, k: dataArg0 + 8},
		step{code: jeq, k: 0, jf: "deny"},
		step{code: load, k: dataArg0 + 12},
		step{code: jeq, k: 0, jt: "allow", jf: "deny"},

		step{at: "allow", code: ret, k: seccompRetAllow},
		step{at: "deny", code: ret, k: seccompRetErrno | uint32(unix.EACCES)},
		step{at: "nosys", code: ret, k: seccompRetErrno | uint32(unix.ENOSYS)},
	)
	labels := map[string]int{}
	for i, st := range steps {
		if st.at != "" {
			labels[st.at] = i
		}
	}
	b := make([]byte, 0, 8*len(steps))
	for i, st := range steps {
		to := func(label string) uint8 {
			if label == "" {
				return 0
			}
			to, ok := labels[label]
			if !ok || to <= i || to-i-1 > 255 {
				panic("seccomp filter: no step " + label + " ahead")
			}
			return uint8(to - i - 1)
		}
		b = binary.NativeEndian.AppendUint16(b, st.code)
		b = append(b, to(st.jt), to(st.jf))
		b = binary.NativeEndian.AppendUint32(b, st.k)
	}
	return b
}
