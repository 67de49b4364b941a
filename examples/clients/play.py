#!/usr/bin/env python3
"""Play one seat of a live Arbiter match through its HTTP API.

    python3 play.py URL MATCH SECRET

URL is the server (http://127.0.0.1:8080), MATCH the match's id and SECRET
the seat's secret, as POST /api/v1/matches answered them. The client
follows the match's event stream and answers every request it owes with its
first choice (or its default, when the move is open), until the match ends.
It reconnects after a dropped stream with Last-Event-ID, sends each move
with an Idempotency-Key, so a retry never moves twice, and waits as long as
the server says when it answers 429 (too many moves a second) or 503 (its
database cannot be reached for now), then sends the call again, or opens
the stream again. When the rules refuse its move it sends the request's
default instead. It prints each move it makes; it stops with the server's
reason when the match refuses it (a wrong secret, no such match), and when
the server cannot be reached (at once, or for ten tries after the stream
broke). It exits 0 once the match is over, 1 otherwise. Standard library
only.
"""
import json
import sys
import time
import urllib.error
import urllib.request


class Wait(Exception):
    """The server asks to be called again later: 429 (too fast) or 503
    (its database cannot be reached for now), with the wait it asks for."""

    def __init__(self, error):
        super().__init__("%s: %s" % (error["code"], error["message"]))
        self.seconds = error.get("retry_after_ms", 1000) / 1000


def waits(error):
    """Whether an API error asks to send the call again after a wait."""
    return error.get("code") in ("rate-limited", "unavailable") and "retry_after_ms" in error


def call(url, secret, body=None, key=None):
    """One API call: its JSON answer, or the error's. While the server asks
    to be called again later (429 rate-limited, 503 unavailable), it waits
    as long as it is told and sends the call again (a move with the same
    Idempotency-Key, which is never made twice)."""
    while True:
        answer = call_once(url, secret, body, key)
        error = answer.get("error")
        if not isinstance(error, dict) or not waits(error):
            return answer
        if error["code"] == "unavailable":
            print("the server cannot reach its database for now; trying again in %gs" % (error["retry_after_ms"] / 1000),
                  file=sys.stderr, flush=True)
        time.sleep(error["retry_after_ms"] / 1000)


def call_once(url, secret, body=None, key=None):
    """One API call, once: its JSON answer, or the error's."""
    req = urllib.request.Request(url, method="POST" if body is not None else "GET")
    req.add_header("Authorization", "Bearer " + secret)
    if body is not None:
        req.data = json.dumps(body).encode()
        req.add_header("Content-Type", "application/json")
    if key:
        req.add_header("Idempotency-Key", key)
    try:
        with urllib.request.urlopen(req, timeout=30) as resp:
            return json.load(resp)
    except urllib.error.HTTPError as e:
        return json.load(e)


def events(url, secret, after):
    """The match's events, as (name, id, data), from after on."""
    req = urllib.request.Request(url)
    req.add_header("Authorization", "Bearer " + secret)
    if after is not None:
        req.add_header("Last-Event-ID", str(after))
    try:
        resp = urllib.request.urlopen(req, timeout=60)
    except urllib.error.HTTPError as e:
        try:
            error = json.load(e)["error"]
            reason = error["message"]
        except (ValueError, KeyError, TypeError):
            error, reason = {}, e.reason
        if e.code in (429, 503) and isinstance(error, dict) and waits(error):
            raise Wait(error)  # open it again after the wait asked for
        if e.code == 429 or e.code >= 500:
            raise  # the server is busy or going away: reconnect
        sys.exit("the match's events: %d: %s" % (e.code, reason))
    with resp:
        name, eid, data = None, None, None
        for raw in resp:
            line = raw.decode().rstrip("\n")
            if line == "":
                if name:
                    yield name, eid, data
                name, eid, data = None, None, None
            elif line.startswith("event: "):
                name = line[7:]
            elif line.startswith("id: "):
                eid = int(line[4:])
            elif line.startswith("data: "):
                data = json.loads(line[6:])


def send(api, match, secret, request, move, key):
    """Sends a move (again after each wait the server asks for): the
    server's answer to the last try."""
    return call(api + "/moves", secret, {"request": request["id"], "move": move}, key=key)


def answer(api, match, secret, request):
    """Answers a request with choose's move; when the rules refuse it, with
    the request's default instead (a move of its own, so a key of its own).
    It stops the client when even the default is refused."""
    key = "%s-%d" % (match, request["id"])
    for move, key in ((choose(request), key), (request["default"], key + "-default")):
        result = send(api, match, secret, request, move, key)
        error = result.get("error")
        if not error:
            print("request %d (%s): %s" % (request["id"], request["kind"], json.dumps(move)))
            return
        if error["code"] == "stale-request":
            return  # answered already, perhaps by its default when time ran out
        print("refused %s: %s" % (json.dumps(move), error["message"]), file=sys.stderr)
        if move == request["default"]:
            break
    sys.exit("even the default of request %d was refused; stopping" % request["id"])


def choose(request):
    """The move for a request: the first choice, or the default."""
    choices = request.get("choices")
    return choices[0] if choices else request["default"]


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    base, match, secret = sys.argv[1].rstrip("/"), sys.argv[2], sys.argv[3]
    api = base + "/api/v1/matches/" + match
    answered = set()
    after = None
    failures = 0  # connections failed in a row
    while True:
        try:
            for name, eid, data in events(api + "/events", secret, after):
                failures = 0
                if eid is not None:
                    after = eid
                if name in ("end",):
                    state = call(api, secret)
                    print("the match is", state["status"], "- result:", json.dumps(state.get("result")))
                    sys.exit(0 if state["status"] == "over" else 1)
                if name != "move":
                    continue  # lost or shutdown: reconnect below
                for request in data["requests"]:
                    if request["id"] not in answered:
                        answered.add(request["id"])
                        answer(api, match, secret, request)
        except Wait as e:
            # The server answered, and said when to come back: not a failure.
            print("the match's events: %s; opening them again in %gs" % (e, e.seconds), file=sys.stderr, flush=True)
            time.sleep(e.seconds)
        except (urllib.error.URLError, ConnectionError, TimeoutError) as e:
            failures += 1
            if after is None or failures > 10:
                sys.exit("cannot reach %s: %s" % (base, e))
            print("the stream broke (%s); reconnecting" % e, file=sys.stderr)
            time.sleep(min(0.5 * 2 ** (failures - 1), 8))


if __name__ == "__main__":
    main()
