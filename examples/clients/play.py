#!/usr/bin/env python3
"""Play one seat of a live Arbiter match through its HTTP API.

    python3 play.py URL MATCH SECRET

URL is the server (http://127.0.0.1:8080), MATCH the match's id and SECRET
the seat's secret, as POST /api/v1/matches answered them. The client
follows the match's event stream and answers every request it owes with its
first choice (or its default, when the move is open), until the match ends.
It reconnects after a dropped stream with Last-Event-ID, and sends each move
with an Idempotency-Key, so a retry never moves twice. Standard library only.
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
    with urllib.request.urlopen(req, timeout=60) as resp:
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
                    answer = call(api + "/moves", secret, {"request": request["id"], "move": choose(request)},
                                  key="%s-%d" % (match, request["id"]))
                    if "error" in answer and answer["error"]["code"] != "stale-request":
                        print("refused:", answer["error"]["message"], file=sys.stderr)
        except (urllib.error.URLError, ConnectionError, TimeoutError) as e:
            print("the stream broke (%s); reconnecting" % e, file=sys.stderr)
            time.sleep(0.5)


if __name__ == "__main__":
    main()
