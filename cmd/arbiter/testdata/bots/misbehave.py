#!/usr/bin/env python3
"""A bot that misbehaves as its first argument says, for Arbiter's tests.

  silent     answers hello, then never answers a request
  garbage    answers every request with a line that is not JSON
  notamove   answers every request with a move that is not a move of the game
  huge       answers every request with a line of 3 MiB
  exits      answers hello, then exits at the first request
  nostart    exits at once, without a word
  late       answers every request 80 ms after it, and logs the bank it is told
  children   starts a child that sleeps for ever (its pid in the file $2), then plays
  record     plays the default, and writes every line it receives to the file $2
  illegal    answers every request with its second argument, parsed as JSON
"""
import json
import subprocess
import sys
import time

mode = sys.argv[1]
arg = sys.argv[2] if len(sys.argv) > 2 else None
if mode == "nostart":
    sys.exit(3)
if mode == "children":
    child = subprocess.Popen(["sleep", "300"])
    with open(arg, "w") as f:
        f.write(str(child.pid))
record = open(arg, "w") if mode == "record" else None


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
        send({"type": "ready"})
    elif t == "request":
        if mode == "silent":
            continue
        if mode == "garbage":
            sys.stdout.write("hello, I am a bot\n")
            sys.stdout.flush()
        elif mode == "notamove":
            send({"type": "move", "id": m["id"], "move": "fly to the moon"})
        elif mode == "huge":
            sys.stdout.write("x" * (3 << 20) + "\n")
            sys.stdout.flush()
        elif mode == "exits":
            sys.exit(0)
        elif mode == "late":
            sys.stderr.write("bank_ms %d\n" % m["bank_ms"])
            time.sleep(0.08)
            send({"type": "move", "id": m["id"], "move": m["default"]})
        elif mode == "illegal":
            send({"type": "move", "id": m["id"], "move": json.loads(arg)})
        else:
            send({"type": "move", "id": m["id"], "move": m["default"]})
    elif t == "bye":
        break
