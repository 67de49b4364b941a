#!/usr/bin/env python3
"""An Arbiter bot in Python, standard library only: it plays every game.

Copy this directory, edit the game you play (ajveciv.py, reaj.py, tncc.py,
territories.py or zombie.py: each has one function, decide), and play it:

    arbiter play ajveciv --player "exec:python3 mybot/bot.py"

The protocol is in docs/protocol.md: one JSON object per line each way.
The same bot behind a URL is http_bot.py.
"""
import json
import random
import sys

import ajveciv
import reaj
import territories
import tncc
import zombie

GAMES = {"ajveciv": ajveciv, "reaj": reaj, "tncc": tncc, "territories": territories, "zombie": zombie}


class Defaults:
    """A game this bot does not know: it plays each request's default."""

    @staticmethod
    def decide(request, match):
        return request["default"]


class Match:
    """What a seat knows of its match: the hello, its own dice, and a
    memory the game's decide may keep things in from one request to the
    next."""

    def __init__(self, hello):
        self.game = GAMES.get(hello["game"], Defaults)
        if self.game is Defaults:
            print(f"starter: {hello['game']!r} is not a game this bot knows; it plays the defaults", file=sys.stderr)
        self.seat = hello["seat"]
        self.players = hello["players"]
        self.options = hello.get("options", {})
        # Your own dice, the same for the same game and seat.
        self.rng = random.Random(hello["seed"])
        self.memory = {}

    def decide(self, request):
        """The move for one request. request["kind"] says what is asked,
        request["view"] is what the seat may see, request["choices"] lists
        the legal moves when there are few, and request["default"] is the
        move played if the bot is late."""
        return self.game.decide(request, self)


def main():
    match = None
    for line in sys.stdin:
        if not line.strip():
            continue
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            match = Match(message)
            send({"type": "ready", "name": "python starter"})
        elif kind == "request":
            send({"type": "move", "id": message["id"], "move": match.decide(message)})
        elif kind == "bye":
            break
        # "result" tells how the game ended; nothing to answer.


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
