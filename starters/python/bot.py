#!/usr/bin/env python3
"""An Arbiter bot in Python, standard library only.

Copy this file, edit decide(), and play it:

    arbiter play ajveciv --player "exec:python3 bot.py" --players basic

The protocol is in docs/protocol.md: one JSON object per line each way.
"""
import json
import random
import sys


def decide(request):
    """Return the move for one request.

    request["kind"] says what is asked ("turn", "trade answer", ...),
    request["view"] is what your seat may see, request["choices"] lists the
    legal moves when there are few, and request["default"] is the move
    played if you are late. This bot picks a random choice, or plays the
    default when the move is open.
    """
    if request.get("choices"):
        return random.choice(request["choices"])
    return request["default"]


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def main():
    for line in sys.stdin:
        if not line.strip():
            continue
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            # Your own dice, the same for the same game and seat.
            random.seed(message["seed"] * 1000 + message["seat"])
            send({"type": "ready", "name": "python starter"})
        elif kind == "request":
            send({"type": "move", "id": message["id"], "move": decide(message)})
        elif kind == "bye":
            break
        # "result" tells how the game ended; nothing to answer.


if __name__ == "__main__":
    main()
