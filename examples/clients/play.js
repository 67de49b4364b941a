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
// moves twice, and waits as long as the server says when it answers 429
// (too many moves a second) or 503 (its database cannot be reached for
// now), then sends the call again, or opens the stream again. When the rules
// refuse its move it sends the request's default instead. It prints each
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

// waits says whether an API error asks to send the call again after a
// wait: 429 rate-limited, 503 unavailable (the server's database cannot
// be reached for now).
const waits = (error) =>
  !!error && (error.code === "rate-limited" || error.code === "unavailable") && typeof error.retry_after_ms === "number";

// call makes one API call and returns its JSON answer, or the error's.
// While the server asks to be called again later, it waits as long as it
// is told and sends the call again (a move with the same Idempotency-Key,
// which is never made twice).
async function call(url, body, key) {
  const headers = { ...auth };
  if (key) headers["Idempotency-Key"] = key;
  for (;;) {
    const resp = await fetch(url, body === undefined ? { headers } : { method: "POST", headers, body: JSON.stringify(body) });
    const answer = await resp.json();
    if (!waits(answer.error)) return answer;
    if (answer.error.code === "unavailable") {
      console.error(`the server cannot reach its database for now; trying again in ${answer.error.retry_after_ms / 1000}s`);
    }
    await sleep(answer.error.retry_after_ms);
  }
}

// send sends a move (again after each wait the server asks for), and
// returns the server's answer to the last try.
const send = (request, move, key) => call(`${api}/moves`, { request: request.id, move }, key);

// Wait is the server asking to open the stream again later: 429 or 503
// with the wait it asks for.
class Wait extends Error {
  constructor(error) {
    super(`${error.code}: ${error.message}`);
    this.ms = error.retry_after_ms;
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
    if ((resp.status === 429 || resp.status === 503) && waits(error)) throw new Wait(error);
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
  for (;;) {
    try {
      for await (const ev of events(after)) {
        failures = 0;
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
        // The server answered, and said when to come back: not a failure.
        console.error(`the match's events: ${e.message}; opening them again in ${e.ms / 1000}s`);
        await sleep(e.ms);
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
