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
// as one between the bot's turns (program.rest).
//
// The filter is twelve instructions, written here rather than assembled by
// elastic/go-seccomp-bpf, the pure-Go library for such policies: a policy
// of that library that allows by default lets the system calls of another
// architecture through (a 32-bit program's socketcall makes a Unix socket
// without the socket call), and it refuses with EPERM only.

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

	seccompRetAllow = 0x7fff0000
	seccompRetErrno = 0x00050000

	// The offsets of struct seccomp_data: the system call's number, its
	// architecture, and its first argument (its low 32 bits, on a
	// little-endian machine).
	dataNR   = 0
	dataArch = 4
	dataArg0 = 16

	// x32BIT marks the system calls of x86-64's x32 ABI.
	x32Bit = 0x40000000
)

// step is an instruction (struct sock_filter) of a filter being written; a jump's targets are
// named: "" (the next instruction), "allow" or "deny".
type step struct {
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
	const jeq, jge, load = bpfJMP | bpfJEQ | bpfK, bpfJMP | bpfJGE | bpfK, bpfLD | bpfW | bpfABS
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
		step{code: jeq, k: unix.SYS_SOCKET, jf: "allow"},
		step{code: load, k: dataArg0},
		step{code: jeq, k: unix.AF_UNIX, jt: "deny", jf: "allow"},
	)
	labels := map[string]int{"allow": len(steps), "deny": len(steps) + 1}
	steps = append(steps,
		step{code: bpfRET | bpfK, k: seccompRetAllow},
		step{code: bpfRET | bpfK, k: seccompRetErrno | uint32(unix.EACCES)},
	)
	b := make([]byte, 0, 8*len(steps))
	for i, st := range steps {
		to := func(label string) uint8 {
			if label == "" {
				return 0
			}
			return uint8(labels[label] - i - 1)
		}
		b = binary.NativeEndian.AppendUint16(b, st.code)
		b = append(b, to(st.jt), to(st.jf))
		b = binary.NativeEndian.AppendUint32(b, st.k)
	}
	return b
}
