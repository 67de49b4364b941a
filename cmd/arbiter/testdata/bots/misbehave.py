#!/usr/bin/env python3
"""A bot that misbehaves as its first argument says, for Arbiter's tests.

  silent     answers hello, then never answers a request
  garbage    answers every request with a line that is not JSON
  chatter    prints a line that is not JSON before its first answer (a
             debug print), then plays
  twice      sends its first answer twice, then plays
  noid       answers every request with a move that has no id
  nonewline  answers hello with its ready and, in the same write, the
             start of a line it never ends ({"type": "move"); then never
             answers
  notamove   answers every request with a move that is not a move of the game
  huge       answers every request with a line of 3 MiB
  exits      answers hello, then exits at the first request
  closes     answers hello, then closes its standard output at the first
             request and reads on until its standard input closes
  code       answers hello, then exits with code $2 at the first request
  segv       answers hello, then kills itself with SIGSEGV at the first request
  nostart    exits at once with code 3, without a word
  complains  writes two lines to its standard error and exits at once
             with code 1, as `go run .` does outside a module
  escapes    answers hello, then at the first request writes to its
             standard error a line of terminal escapes (it clears the
             screen, sets the window's title, goes back over the line) and
             exits with code 1
  traceback  answers hello, then fails at the first request with a
             Python traceback (KeyError: 'no_such_key')
  unflushed  answers hello with print() and no flush: to a pipe, nothing
             is sent
  slurps     reads its whole standard input as one JSON document before it
             answers (json.load), and so waits for its end
  late       answers every request $2 ms after it, and logs the bank it is told
  children   starts a child `sleep $2` (a marker), then plays
  daemon     starts `sleep $2` in a new session, and one more by a double
             fork whose middle process exits, then plays
  record     plays the default, and appends every line it receives to the file $2
  illegal    answers every request with its second argument, parsed as JSON
  env        writes its environment, directory and limits to the file $2 as
             JSON, then plays
  alloc      allocates $2 MiB at the first request, then plays
  spin       spins at the first request, for ever
  bigfile    writes a file of $2 MiB in its directory at the first request
  fill       writes files of 1 MiB in its directory (or in the directory
             $3) at the first request, $2 of them or until one fails, says
             on its standard error "filled N MiB", then plays
  chatty     writes $2 KiB to its standard error at every request, then plays
  gate       plays the default; but in game $2 of its run (its match id
             ends in -$2), if the file $3 does not exist yet, makes it and
             never answers (it reads on until its standard input closes)
  peek       writes to its standard error what it can see and do: the
             processes in /proc, whether it can connect to 127.0.0.1:$3,
             whether it can write beside its own script, what is in /tmp;
             then plays
  neighbours writes a file in its own directory, then, at its first
             request, writes to its standard error, as JSON, the files it
             can read in the directories of other bots beside its own; then
             plays
  unix       writes to its standard error, as JSON, whether it could
             connect to the Unix socket $2, and whether it could make a
             pair of connected sockets for itself; then plays
  spy        writes to its standard error, as JSON, every file it finds
             under the directory $2 with the bytes it could read of it (or
             why it could not), and its match id; then plays
"""
import json
import os
import resource
import signal
import socket
import subprocess
import sys
import time

mode = sys.argv[1]
arg = sys.argv[2] if len(sys.argv) > 2 else None
if mode == "nostart":
    sys.exit(3)
if mode == "complains":
    sys.stderr.write("starting\ngo: go.mod file not found in current directory or any parent directory\n")
    sys.exit(1)
if mode == "children":
    subprocess.Popen(["sleep", arg])
if mode == "daemon":
    subprocess.Popen(["sleep", arg], start_new_session=True)
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            os.execvp("sleep", ["sleep", arg])
        os._exit(0)
if mode == "env":
    limits = {}
    for name in ("AS", "CPU", "NPROC", "FSIZE"):
        limits[name] = resource.getrlimit(getattr(resource, "RLIMIT_" + name))[0]
    with open(arg, "w") as f:
        json.dump({"env": dict(os.environ), "cwd": os.getcwd(), "limits": limits}, f)
if mode == "peek":
    seen = {}
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                with open("/proc/%s/cmdline" % pid, "rb") as f:
                    seen[pid] = f.read().replace(b"\0", b" ").decode(errors="replace")
            except OSError:
                pass
    try:
        socket.create_connection(("127.0.0.1", int(sys.argv[3])), timeout=2).close()
        network = "connected"
    except OSError as e:
        network = str(e)
    try:
        beside = os.path.join(os.path.dirname(os.path.abspath(__file__)), ".peek-write-test")
        with open(beside, "w") as f:
            f.write("x")
        os.remove(beside)
        wrote = "wrote"
    except OSError as e:
        wrote = str(e)
    with open(os.path.join(os.environ["HOME"], "mine"), "w") as f:
        f.write("x")
    out = {"processes": seen, "network": network, "write": wrote, "cwd": os.getcwd(), "tmp": sorted(os.listdir("/tmp"))}
    sys.stdout.write(json.dumps({"type": "ready"}) + "\n")
    sys.stdout.flush()
    sys.stderr.write(json.dumps(out) + "\n")
    sys.stderr.flush()
    mode = "default"
if mode == "spy":
    spied = {}
    for root, dirs, files in os.walk(arg):
        for name in files:
            path = os.path.join(root, name)
            try:
                with open(path, "rb") as f:
                    spied[os.path.relpath(path, arg)] = len(f.read())
            except OSError as e:
                spied[os.path.relpath(path, arg)] = str(e)
    spy = spied
if mode == "neighbours":
    with open(os.path.join(os.environ["HOME"], "mine"), "w") as f:
        f.write("what this seat saw")
if mode == "unix":
    try:
        c = socket.socket(socket.AF_UNIX)
        c.connect(arg)
        c.sendall(b"a bot\n")
        c.close()
        unix = "connected"
    except OSError as e:
        unix = str(e)
    try:
        a, b = socket.socketpair()
        a.sendall(b"x")
        pair = "made" if b.recv(1) == b"x" else "broken"
    except OSError as e:
        pair = str(e)
    sys.stderr.write(json.dumps({"unix": unix, "pair": pair}) + "\n")
    sys.stderr.flush()
if mode == "slurps":
    json.load(sys.stdin)
record = open(arg, "a") if mode == "record" else None
first = True


def send(m):
    sys.stdout.write(json.dumps(m) + "\n")
    sys.stdout.flush()


for line in sys.stdin:
    if record:
        record.write(line)
        record.flush()
    m = json.loads(line)
    t = m["type"]
    if t == "hello":
        if mode == "gate" and m["match"].endswith("-" + arg) and not os.path.exists(sys.argv[3]):
            open(sys.argv[3], "w").close()
            for _ in sys.stdin:
                pass
            break
        if mode == "unflushed":
            print(json.dumps({"type": "ready"}))
        elif mode == "nonewline":
            sys.stdout.write(json.dumps({"type": "ready"}) + "\n" + '{"type": "move"')
            sys.stdout.flush()
        elif mode != "default":
            send({"type": "ready"})
        if mode == "spy":
            sys.stderr.write(json.dumps({"match": m["match"], "spied": spy}) + "\n")
            sys.stderr.flush()
    elif t == "request":
        was_first, first = first, False
        if was_first and mode == "neighbours":
            home = os.environ["HOME"]
            parent = os.path.dirname(home)
            read = []
            for name in sorted(os.listdir(parent)) if os.path.isdir(parent) else []:
                other = os.path.join(parent, name, "mine")
                if name.startswith("arbiter-bot-") and os.path.join(parent, name) != home:
                    try:
                        with open(other) as f:
                            read.append(other + ": " + f.read())
                    except OSError:
                        pass
            sys.stderr.write(json.dumps({"neighbours": read}) + "\n")
            sys.stderr.flush()
        if mode == "silent":
            continue
        if mode == "garbage":
            sys.stdout.write("hello, I am a bot\n")
            sys.stdout.flush()
        elif mode == "chatter":
            if was_first:
                sys.stdout.write("starting!\n")
            send({"type": "move", "id": m["id"], "move": m["default"]})
        elif mode == "twice":
            send({"type": "move", "id": m["id"], "move": m["default"]})
            if was_first:
                send({"type": "move", "id": m["id"], "move": m["default"]})
        elif mode == "noid":
            send({"type": "move", "move": m["default"]})
        elif mode == "nonewline":
            continue
        elif mode == "notamove":
            send({"type": "move", "id": m["id"], "move": "fly to the moon"})
        elif mode == "huge":
            sys.stdout.write("x" * (3 << 20) + "\n")
            sys.stdout.flush()
        elif mode == "exits":
            sys.exit(0)
        elif mode == "closes":
            sys.stdout.close()
            os.close(1)
            for _ in sys.stdin:
                pass
            break
        elif mode == "escapes":
            sys.stderr.write("\x1b]0;title\x07\x1b[2J\x1b[31mred\rback\x08\n")
            sys.stderr.flush()
            sys.exit(1)
        elif mode == "traceback":
            m["no_such_key"]
        elif mode == "code":
            sys.exit(int(arg))
        elif mode == "segv":
            os.kill(os.getpid(), signal.SIGSEGV)
        elif mode == "late":
            sys.stderr.write("bank_ms %d\n" % m["bank_ms"])
            sys.stderr.flush()
            time.sleep(int(arg) / 1000)
            send({"type": "move", "id": m["id"], "move": m["default"]})
        elif mode == "illegal":
            send({"type": "move", "id": m["id"], "move": json.loads(arg)})
        else:
            if was_first and mode == "alloc":
                hog = bytearray(int(arg) << 20)
            if was_first and mode == "spin":
                while True:
                    pass
            if was_first and mode == "bigfile":
                with open("big", "wb") as f:
                    for _ in range(int(arg)):
                        f.write(b"x" * (1 << 20))
            if was_first and mode == "fill":
                filled = 0
                try:
                    for k in range(int(arg)):
                        name = "fill%d" % k
                        if len(sys.argv) > 3:
                            name = os.path.join(sys.argv[3], name)
                        with open(name, "wb") as f:
                            f.write(b"x" * (1 << 20))
                        filled += 1
                except OSError:
                    pass
                sys.stderr.write("filled %d MiB\n" % filled)
                sys.stderr.flush()
            if mode == "chatty":
                sys.stderr.write("y" * (int(arg) << 10) + "\n")
                sys.stderr.flush()
            send({"type": "move", "id": m["id"], "move": m["default"]})
    elif t == "bye":
        break
