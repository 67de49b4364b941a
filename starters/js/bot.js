#!/usr/bin/env node
// An Arbiter bot in JavaScript, for node with no packages.
//
// Copy this file, edit decide(), and play it:
//
//     arbiter play ajveciv --player "exec:node bot.js" --players basic
//
// The protocol is in docs/protocol.md: one JSON object per line each way.
"use strict";
const readline = require("readline");

// Your own dice (mulberry32), seeded at hello: the same game and seat play
// the same way.
let state = 1;
function random() {
  state = (state + 0x6d2b79f5) | 0;
  let t = Math.imul(state ^ (state >>> 15), 1 | state);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

// decide returns the move for one request. request.kind says what is asked
// ("turn", "trade answer", ...), request.view is what your seat may see,
// request.choices lists the legal moves when there are few, and
// request.default is the move played if you are late. This bot picks a
// random choice, or plays the default when the move is open.
function decide(request) {
  if (request.choices && request.choices.length > 0) {
    return request.choices[Math.floor(random() * request.choices.length)];
  }
  return request.default;
}

function send(message) {
  process.stdout.write(JSON.stringify(message) + "\n");
}

const lines = readline.createInterface({ input: process.stdin });
lines.on("line", (line) => {
  if (line.trim() === "") return;
  const message = JSON.parse(line);
  switch (message.type) {
    case "hello":
      state = (message.seed * 1000 + message.seat) | 0;
      send({ type: "ready", name: "js starter" });
      break;
    case "request":
      send({ type: "move", id: message.id, move: decide(message) });
      break;
    case "bye":
      lines.close();
      break;
    // "result" tells how the game ended; nothing to answer.
  }
});
