#!/usr/bin/env node
// An Arbiter bot in JavaScript, for node with no packages: it plays every
// game.
//
// Copy this directory, edit the game you play (ajveciv.js, reaj.js,
// tncc.js, territories.js or zombie.js: each exports one function,
// decide), and play it:
//
//     arbiter play ajveciv --player "exec:node mybot/bot.js"
//
// The protocol is in docs/protocol.md: one JSON object per line each way.
"use strict";
const readline = require("readline");

const games = {
  ajveciv: require("./ajveciv"),
  reaj: require("./reaj"),
  tncc: require("./tncc"),
  territories: require("./territories"),
  zombie: require("./zombie"),
};

// A match is what a seat knows of its match: the hello, its own dice
// (mulberry32, seeded from the seat's seed: the same game and seat play
// the same way), and a memory the game's decide may keep things in.
function newMatch(hello) {
  let state = Number(BigInt(hello.seed) % 4294967296n) | 0;
  let game = games[hello.game];
  if (!game) {
    // A game this bot does not know: it plays each request's default.
    console.error(`starter: ${JSON.stringify(hello.game)} is not a game this bot knows; it plays the defaults`);
    game = { decide: (request) => request.default };
  }
  return {
    game,
    seat: hello.seat,
    players: hello.players,
    options: hello.options || {},
    memory: {},
    random() {
      state = (state + 0x6d2b79f5) | 0;
      let t = Math.imul(state ^ (state >>> 15), 1 | state);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    },
  };
}

function send(message) {
  process.stdout.write(JSON.stringify(message) + "\n");
}

let match = null;
const lines = readline.createInterface({ input: process.stdin });
lines.on("line", (line) => {
  if (line.trim() === "") return;
  // The seed is a 64-bit number: keep it whole.
  const message = JSON.parse(line.replace(/"seed":(\d+)/, '"seed":"$1"'));
  switch (message.type) {
    case "hello":
      match = newMatch(message);
      send({ type: "ready", name: "js starter" });
      break;
    case "request":
      // request.kind says what is asked, request.view is what the seat may
      // see, request.choices lists the legal moves when there are few, and
      // request.default is the move played if the bot is late.
      send({ type: "move", id: message.id, move: match.game.decide(message, match) });
      break;
    case "bye":
      lines.close();
      break;
    // "result" tells how the game ended; nothing to answer.
  }
});
