#!/usr/bin/env node
// Play one seat of a live Arbiter match through its HTTP API.
//
//     node play.js URL MATCH SECRET
//
// URL is the server (http://127.0.0.1:8080), MATCH the match's id and
// SECRET the seat's secret, as POST /api/v1/matches answered them. The
// client follows the match's event stream and answers every request it
// owes with its first choice (or its default, when the move is open),
// until the match ends. It reconnects after a dropped stream with
// Last-Event-ID, sends each move with an Idempotency-Key, so a retry never
// moves twice, and waits as long as the server says (retry_after_ms, or
// Retry-After) when it answers 429 (too many moves a second) or 503 (its
// database cannot be reached for now), then sends the call again, or opens
// the stream again: at most RETRIES more times, WAIT_MOST ms a wait and
// WAIT_ALL ms of waiting in all; then it gives up, says so and why on
// standard error, and stops. When the rules refuse its move it sends the
// request's default instead. It prints each
// move it makes; it stops with the server's reason when the match refuses
// it (a wrong secret, no such match), and when the server cannot be
// reached (at once, or for ten tries after the stream broke). It exits 0
// once the match is over, 1 otherwise. Node 18 or later, no packages.

const [base, match, secret] = process.argv.slice(2);
if (!secret) {
  console.error("usage: node play.js URL MATCH SECRET");
  process.exit(2);
}
const api = `${base.replace(/\/$/, "")}/api/v1/matches/${match}`;
const auth = { Authorization: `Bearer ${secret}` };

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// How long the client waits out a server that asks it to (429, 503), for
// one call, or for the stream between two of its events: at most RETRIES
// more tries, each wait at most WAIT_MOST ms (whatever the server asks),
// and WAIT_ALL ms of waiting in all.
const RETRIES = 6;
const WAIT_MOST = 10000;
const WAIT_ALL = 30000;

// retryAfter returns the milliseconds an answer (resp, with the error of
// its body) asks to wait before the call is sent again: retry_after_ms,
// or Retry-After (seconds, or a date); null when it asks for no wait, or
// is not a 429 or a 503.
function retryAfter(resp, error) {
  if (resp.status !== 429 && resp.status !== 503) return null;
  if (error && typeof error.retry_after_ms === "number") return Math.max(0, error.retry_after_ms);
  const said = (resp.headers.get("Retry-After") || "").trim();
  if (/^\d+$/.test(said)) return Number(said) * 1000;
  const at = Date.parse(said);
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
}

// Patience counts the waits taken for one call (or for the stream) within
// the bound: past it, the client gives up and stops, saying so on
// standard error.
class Patience {
  constructor(what) {
    this.what = what;
    this.tries = 1;
    this.waited = 0;
  }

  // wait waits ms (at most WAIT_MOST) before the next try, or stops the
  // client when that would pass the bound.
  async wait(ms, error) {
    ms = Math.min(ms, WAIT_MOST);
    const reason = error ? `${error.code}: ${error.message}` : "busy";
    if (this.tries > RETRIES || this.waited + ms > WAIT_ALL) {
      console.error(`giving up on ${this.what}: the server still asked to wait after ${this.tries} tries over ${this.waited / 1000}s (${reason})`);
      process.exit(1);
    }
    if (error && error.code === "unavailable") console.error(`the server cannot reach its database for now; trying again in ${ms / 1000}s`);
    else if (!error || error.code !== "rate-limited") console.error(`${this.what}: ${reason}; trying again in ${ms / 1000}s`);
    await sleep(ms);
    this.tries++;
    this.waited += ms;
  }
}

// call makes one API call and returns its JSON answer, or the error's.
// While the server asks to be called again later, it waits as long as it
// is told and sends the call again (a move with the same Idempotency-Key,
// which is never made twice), within the bound.
async function call(url, body, key, what = "a call") {
  const headers = { ...auth };
  if (key) headers["Idempotency-Key"] = key;
  const patience = new Patience(what);
  for (;;) {
    const resp = await fetch(url, body === undefined ? { headers } : { method: "POST", headers, body: JSON.stringify(body) });
    const text = await resp.text();
    let answer;
    try {
      answer = JSON.parse(text);
    } catch {
      answer = { error: { code: `http-${resp.status}`, message: text.trim().slice(0, 200) } }; // not the API's answer: a proxy's page
    }
    const wait = retryAfter(resp, answer.error);
    if (wait === null) return answer;
    await patience.wait(wait, answer.error);
  }
}

// send sends a move (again after each wait the server asks for), and
// returns the server's answer to the last try.
const send = (request, move, key) => call(`${api}/moves`, { request: request.id, move }, key, `the move for request ${request.id}`);

// Wait is the server asking to open the stream again later: 429 or 503
// with the wait it asks for.
class Wait extends Error {
  constructor(ms, error) {
    super(error ? `${error.code}: ${error.message}` : "busy");
    this.ms = ms;
    this.error = error;
  }
}

// answer answers a request with choose's move; when the rules refuse it,
// with the request's default instead (a move of its own, so a key of its
// own). It stops the client when even the default is refused.
async function answer(request) {
  const key = `${match}-${request.id}`;
  for (const [move, k] of [[choose(request), key], [request.default, `${key}-default`]]) {
    const result = await send(request, move, k);
    if (!result.error) {
      console.log(`request ${request.id} (${request.kind}): ${JSON.stringify(move)}`);
      return;
    }
    if (result.error.code === "stale-request") return; // answered already, perhaps by its default
    console.error(`refused ${JSON.stringify(move)}: ${result.error.message}`);
    if (JSON.stringify(move) === JSON.stringify(request.default)) break;
  }
  console.error(`even the default of request ${request.id} was refused; stopping`);
  process.exit(1);
}

// events yields the match's events as {name, id, data}, from after on.
async function* events(after) {
  const headers = { ...auth };
  if (after !== null) headers["Last-Event-ID"] = String(after);
  const resp = await fetch(`${api}/events`, { headers });
  if (!resp.ok) {
    const text = await resp.text();
    let error;
    try { error = JSON.parse(text).error; } catch {}
    const wait = retryAfter(resp, error);
    if (wait !== null) throw new Wait(wait, error);
    if (resp.status === 429 || resp.status >= 500) throw new Error(`${resp.status} ${text.trim()}`);
    let message = text.trim();
    if (error && error.message) message = error.message;
    console.error(`the match's events: ${resp.status}: ${message}`);
    process.exit(1);
  }
  const decoder = new TextDecoder();
  let buffer = "";
  let event = {};
  for await (const chunk of resp.body) {
    buffer += decoder.decode(chunk, { stream: true });
    let nl;
    while ((nl = buffer.indexOf("\n")) >= 0) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      if (line === "") {
        if (event.name) yield event;
        event = {};
      } else if (line.startsWith("event: ")) event.name = line.slice(7);
      else if (line.startsWith("id: ")) event.id = Number(line.slice(4));
      else if (line.startsWith("data: ")) event.data = JSON.parse(line.slice(6));
    }
  }
}

const choose = (request) => (request.choices && request.choices.length ? request.choices[0] : request.default);

async function main() {
  const answered = new Set();
  let after = null;
  let failures = 0; // connections failed in a row
  let stream = new Patience("the match's events"); // the server's waits since the last event
  for (;;) {
    try {
      for await (const ev of events(after)) {
        failures = 0;
        stream = new Patience("the match's events");
        if (ev.id !== undefined) after = ev.id;
        if (ev.name === "end") {
          const state = await call(api);
          console.log(`the match is ${state.status} - result: ${JSON.stringify(state.result)}`);
          process.exit(state.status === "over" ? 0 : 1);
        }
        if (ev.name !== "move") continue; // lost or shutdown: reconnect below
        for (const request of ev.data.requests) {
          if (answered.has(request.id)) continue;
          answered.add(request.id);
          await answer(request);
        }
      }
    } catch (e) {
      if (e instanceof Wait) {
        // The server answered, and said when to come back: not a
        // failure, but waited within the bound.
        await stream.wait(e.ms, e.error);
        continue;
      }
      failures++;
      const why = e.cause ? `${e.message}: ${e.cause.code || e.cause.message}` : e.message;
      if (after === null || failures > 10) {
        console.error(`cannot reach ${base}: ${why}`);
        process.exit(1);
      }
      console.error(`the stream broke (${why}); reconnecting`);
      await sleep(Math.min(500 * 2 ** (failures - 1), 8000));
    }
  }
}

main();
