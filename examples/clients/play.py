#!/usr/bin/env python3
"""Play one seat of a live Arbiter match through its HTTP API.

    python3 play.py URL MATCH SECRET

URL is the server (http://127.0.0.1:8080), MATCH the match's id and SECRET
the seat's secret, as POST /api/v1/matches answered them. The client
follows the match's event stream and answers every request it owes with its
first choice (or its default, when the move is open), until the match ends.
It reconnects after a dropped stream with Last-Event-ID, sends each move
with an Idempotency-Key, so a retry never moves twice, and waits as long as
the server says when it answers 429 (too many moves a second), then sends
the move again. It prints each move it makes, and stops with the server's
reason when the match refuses it (a wrong secret, no such match). Standard
library only.
"""
import json
import sys
import time
import urllib.error
import urllib.request


def call(url, secret, body=None, key=None):
    """One API call: its JSON answer, or the error's."""
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
        if e.code == 429 or e.code >= 500:
            raise  # the server is busy or going away: reconnect
        try:
            reason = json.load(e)["error"]["message"]
        except (ValueError, KeyError, TypeError):
            reason = e.reason
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


def send(api, match, secret, request, move):
    """Sends a move, again after the wait the server asks for while it
    answers rate-limited: the server's answer to the last try."""
    body = {"request": request["id"], "move": move}
    key = "%s-%d" % (match, request["id"])
    while True:
        answer = call(api + "/moves", secret, body, key=key)
        error = answer.get("error")
        if not error or error["code"] != "rate-limited":
            return answer
        time.sleep(error.get("retry_after_ms", 1000) / 1000)


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
    while True:
        try:
            for name, eid, data in events(api + "/events", secret, after):
                if eid is not None:
                    after = eid
                if name in ("end",):
                    state = call(api, secret)
                    print("the match is", state["status"], "- result:", json.dumps(state.get("result")))
                    return
                if name != "move":
                    continue  # lost or shutdown: reconnect below
                for request in data["requests"]:
                    if request["id"] in answered:
                        continue
                    answered.add(request["id"])
                    move = choose(request)
                    answer = send(api, match, secret, request, move)
                    if "error" not in answer:
                        print("request %d (%s): %s" % (request["id"], request["kind"], json.dumps(move)))
                    elif answer["error"]["code"] != "stale-request":
                        print("refused:", answer["error"]["message"], file=sys.stderr)
        except (urllib.error.URLError, ConnectionError, TimeoutError) as e:
            print("the stream broke (%s); reconnecting" % e, file=sys.stderr)
            time.sleep(0.5)


if __name__ == "__main__":
    main()
