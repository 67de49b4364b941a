#!/usr/bin/env python3
"""Play one seat of a live Arbiter match through its HTTP API.

    python3 play.py URL MATCH SECRET

URL is the server (http://127.0.0.1:8080), MATCH the match's id and SECRET
the seat's secret, as POST /api/v1/matches answered them. The client
follows the match's event stream and answers every request it owes with its
first choice (or its default, when the move is open), until the match ends.
It reconnects after a dropped stream with Last-Event-ID, sends each move
with an Idempotency-Key, so a retry never moves twice, and waits as long as
the server says (retry_after_ms, or Retry-After) when it answers 429 (too
many moves a second) or 503 (its database cannot be reached for now), then
sends the call again, or opens the stream again: at most RETRIES more
times, WAIT_MOST seconds a wait and WAIT_ALL seconds of waiting in all;
then it gives up, says so and why on standard error, and stops. When the
rules refuse its move it sends the request's default instead. It prints
each move it makes; it stops with the server's reason when the match
refuses it (a wrong secret, no such match), and when the server cannot be
reached (at once, or for ten tries after the stream broke). It exits 0
once the match is over, 1 otherwise. Standard library only.
"""
import email.utils
import json
import sys
import time
import urllib.error
import urllib.request

# How long the client waits out a server that asks it to (429, 503), for
# one call, or for the stream between two of its events: at most RETRIES
# more tries, each wait at most WAIT_MOST seconds (whatever the server
# asks), and WAIT_ALL seconds of waiting in all.
RETRIES = 6
WAIT_MOST = 10.0
WAIT_ALL = 30.0


def retry_after(status, headers, error):
    """The seconds an answer of status asks to wait before the call is
    sent again: its error's retry_after_ms, or its Retry-After header
    (seconds, or a date); None when it asks for no wait, or is not a 429
    or a 503."""
    if status not in (429, 503):
        return None
    if isinstance(error, dict) and isinstance(error.get("retry_after_ms"), (int, float)):
        return max(0, error["retry_after_ms"]) / 1000
    said = (headers.get("Retry-After") or "").strip() if headers is not None else ""
    if said.isdigit():
        return int(said)
    try:
        return max(0.0, email.utils.parsedate_to_datetime(said).timestamp() - time.time())
    except (TypeError, ValueError):
        return None


class Patience:
    """The waits taken for one call (or for the stream), within the bound:
    past it, the client gives up and stops, saying so on standard error."""

    def __init__(self, what):
        self.what = what
        self.tries = 1
        self.waited = 0.0

    def wait(self, seconds, error):
        """Waits seconds (at most WAIT_MOST) before the next try, or stops
        the client when that would pass the bound."""
        seconds = min(seconds, WAIT_MOST)
        reason = "%s: %s" % (error.get("code"), error.get("message")) if isinstance(error, dict) else "busy"
        if self.tries > RETRIES or self.waited + seconds > WAIT_ALL:
            sys.exit("giving up on %s: the server still asked to wait after %d tries over %gs (%s)"
                     % (self.what, self.tries, self.waited, reason))
        if isinstance(error, dict) and error.get("code") == "unavailable":
            print("the server cannot reach its database for now; trying again in %gs" % seconds, file=sys.stderr, flush=True)
        elif not isinstance(error, dict) or error.get("code") != "rate-limited":
            print("%s: %s; trying again in %gs" % (self.what, reason, seconds), file=sys.stderr, flush=True)
        time.sleep(seconds)
        self.tries += 1
        self.waited += seconds


class Wait(Exception):
    """The server asks to open the stream again later: 429 or 503, with the
    wait it asks for."""

    def __init__(self, seconds, error):
        super().__init__("%s: %s" % (error.get("code"), error.get("message")) if isinstance(error, dict) else "busy")
        self.seconds, self.error = seconds, error


def call(url, secret, body=None, key=None, what="a call"):
    """One API call: its JSON answer, or the error's. While the server asks
    to be called again later (429 rate-limited, 503 unavailable), it waits
    as long as it is told and sends the call again (a move with the same
    Idempotency-Key, which is never made twice), within the bound."""
    patience = Patience(what)
    while True:
        status, headers, answer = call_once(url, secret, body, key)
        error = answer.get("error")
        wait = retry_after(status, headers, error)
        if wait is None:
            return answer
        patience.wait(wait, error)


def call_once(url, secret, body=None, key=None):
    """One API call, once: its status, headers and JSON answer (the
    error's)."""
    req = urllib.request.Request(url, method="POST" if body is not None else "GET")
    req.add_header("Authorization", "Bearer " + secret)
    if body is not None:
        req.data = json.dumps(body).encode()
        req.add_header("Content-Type", "application/json")
    if key:
        req.add_header("Idempotency-Key", key)
    try:
        with urllib.request.urlopen(req, timeout=30) as resp:
            return resp.status, resp.headers, json.load(resp)
    except urllib.error.HTTPError as e:
        try:
            answer = json.load(e)
        except ValueError:  # not the API's answer: a proxy's page
            answer = {"error": {"code": "http-%d" % e.code, "message": str(e.reason)}}
        return e.code, e.headers, answer


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
        wait = retry_after(e.code, e.headers, error)
        if wait is not None:
            raise Wait(wait, error)  # open it again after the wait asked for
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
    return call(api + "/moves", secret, {"request": request["id"], "move": move}, key=key,
                what="the move for request %d" % request["id"])


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
    stream = Patience("the match's events")  # the server's waits since the last event
    while True:
        try:
            for name, eid, data in events(api + "/events", secret, after):
                failures = 0
                stream = Patience("the match's events")
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
            # The server answered, and said when to come back: not a
            # failure, but waited within the bound.
            stream.wait(e.seconds, e.error)
        except (urllib.error.URLError, ConnectionError, TimeoutError) as e:
            failures += 1
            if after is None or failures > 10:
                sys.exit("cannot reach %s: %s" % (base, e))
            print("the stream broke (%s); reconnecting" % e, file=sys.stderr)
            time.sleep(min(0.5 * 2 ** (failures - 1), 8))


if __name__ == "__main__":
    main()
