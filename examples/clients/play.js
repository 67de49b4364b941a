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
// (too many moves a second), then sends the move again. It prints each
// move it makes, and stops with the server's reason when the match refuses
// it (a wrong secret, no such match). Node 18 or later, no packages.

const [base, match, secret] = process.argv.slice(2);
if (!secret) {
  console.error("usage: node play.js URL MATCH SECRET");
  process.exit(2);
}
const api = `${base.replace(/\/$/, "")}/api/v1/matches/${match}`;
const auth = { Authorization: `Bearer ${secret}` };

async function call(url, body, key) {
  const headers = { ...auth };
  if (key) headers["Idempotency-Key"] = key;
  const resp = await fetch(url, body === undefined ? { headers } : { method: "POST", headers, body: JSON.stringify(body) });
  return resp.json();
}

// send sends a move, again after the wait the server asks for while it
// answers rate-limited, and returns the server's answer to the last try.
async function send(request, move) {
  for (;;) {
    const answer = await call(`${api}/moves`, { request: request.id, move }, `${match}-${request.id}`);
    if (!answer.error || answer.error.code !== "rate-limited") return answer;
    await new Promise((r) => setTimeout(r, answer.error.retry_after_ms ?? 1000));
  }
}

// events yields the match's events as {name, id, data}, from after on.
async function* events(after) {
  const headers = { ...auth };
  if (after !== null) headers["Last-Event-ID"] = String(after);
  const resp = await fetch(`${api}/events`, { headers });
  if (!resp.ok) {
    const text = await resp.text();
    if (resp.status === 429 || resp.status >= 500) throw new Error(`${resp.status} ${text.trim()}`);
    let message = text.trim();
    try { message = JSON.parse(text).error.message; } catch {}
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
  for (;;) {
    try {
      for await (const ev of events(after)) {
        if (ev.id !== undefined) after = ev.id;
        if (ev.name === "end") {
          const state = await call(api);
          console.log(`the match is ${state.status} - result: ${JSON.stringify(state.result)}`);
          return;
        }
        if (ev.name !== "move") continue; // lost or shutdown: reconnect below
        for (const request of ev.data.requests) {
          if (answered.has(request.id)) continue;
          answered.add(request.id);
          const move = choose(request);
          const answer = await send(request, move);
          if (!answer.error) console.log(`request ${request.id} (${request.kind}): ${JSON.stringify(move)}`);
          else if (answer.error.code !== "stale-request") console.error(`refused: ${answer.error.message}`);
        }
      }
    } catch (e) {
      console.error(`the stream broke (${e.message}); reconnecting`);
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}

main();
