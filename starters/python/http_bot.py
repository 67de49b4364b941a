#!/usr/bin/env python3
"""The Python starter as an HTTP bot, standard library only.

Run it, then name its URL as a player:

    python3 starters/python/http_bot.py --port 8090
    arbiter play reaj --players fixed --player http://127.0.0.1:8090/

Arbiter POSTs each message as JSON and reads the answer from the response
body. One server plays any number of seats and games at once: every message
names its match and seat, and the bot keeps one Match (bot.py) for each.
"""
import argparse
import json
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from bot import Match

matches = {}  # (match id, seat) -> Match
lock = threading.Lock()


def answer(message):
    """The answer to one message of the protocol, or None."""
    key = (message.get("match"), message.get("seat"))
    kind = message.get("type")
    if kind == "hello":
        with lock:
            matches[key] = Match(message)
        return {"type": "ready", "name": "python http starter"}
    if kind == "request":
        with lock:
            match = matches[key]
        return {"type": "move", "id": message["id"], "move": match.decide(message)}
    if kind == "bye":
        with lock:
            matches.pop(key, None)
    return None  # "result" and "bye" want no answer


class Handler(BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        try:
            reply = answer(json.loads(body))
        except (KeyError, ValueError) as e:
            self.send_error(400, str(e))
            return
        data = json.dumps(reply or {}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format, *args):
        pass  # quiet: one line per message would be a lot


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8090, help="0 picks a free port")
    args = parser.parse_args()
    server = ThreadingHTTPServer((args.host, args.port), Handler)
    host, port = server.server_address[:2]
    print("listening on http://%s:%d/" % (host, port), flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    sys.exit(main())
