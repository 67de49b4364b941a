// The zombie game on a page. A player sees their identity (human or
// zombie: never whether they are infected), their antibodies or viruses,
// their private messages and the public counts, and plans their turn in a
// form (whom to touch, in what order, with what precaution or viruses,
// their guard, a cure, the end of their turn). The judge sees everything;
// in the judge's mode they enter the script's commands, one line at a
// time or many, and see the script so far.
import { h, num, table, voice } from "../dom.js";

// tells is what the match's story tells as events.
export const tells = "what the judge announces to everyone";

// personName is seat i's person's own name, or "" when it has none but
// the game's P1, P2, ...
function personName(ctx, i) {
  const p = ctx.players[i];
  return p && p !== "person" && !/^P\d+$/.test(p) ? p : "";
}

// playerName names seat i: the game's P1, P2, ... and the person's name.
export function playerName(ctx, i) {
  const p = personName(ctx, i);
  return p ? `P${i + 1} (${p})` : `P${i + 1}`;
}

// shortName names seat i in a sentence: the person's name, else P1, P2,
// ...; so also when another seat goes by the same name (bots of one kind,
// "sensible" and "sensible"), which would not tell them apart.
function shortName(ctx, i) {
  if (!ctx || !ctx.players) return `P${i + 1}`;
  const p = personName(ctx, i);
  return p && ctx.players.filter((x) => x === p).length === 1 ? p : `P${i + 1}`;
}

// reasonWords words how a party ended with the players by their names, as
// the rest of the page names them: the rules' "humans win: P2 is the last
// survivor" is "humans win: Bob is the last survivor" when P2 is Bob.
export function reasonWords(reason, ctx) {
  if (!ctx || ctx.mode !== "party" || !ctx.players) return reason;
  return reason.replace(/\bP(\d+)\b/g, (p, n) => (Number(n) >= 1 && Number(n) <= ctx.players.length ? shortName(ctx, Number(n) - 1) : p));
}

// identity tells who a player is: "You are HUMAN", or in v's voice
// "Ann is a ZOMBIE"; with no voice, under the player's name, "HUMAN".
function identity(id, v) {
  const what = id === "zombie" ? "a ZOMBIE" : "HUMAN";
  return h("span", { class: `identity ${id}` }, v ? `${v.You} ${v.are} ${what}` : what);
}

// counts tells the public counts of one announcement.
function counts(a) {
  const parts = [];
  if (a.kind === "start") parts.push("the start");
  else parts.push(a.turn === 0 ? "the start" : `after turn ${a.turn}`);
  parts.push(`${a.zombies} zombie${a.zombies === 1 ? "" : "s"}`, `${a.humans} human${a.humans === 1 ? "" : "s"}`);
  if (a.max_antibodies !== undefined) parts.push(`most antibodies ${a.max_antibodies}`, `most viruses ${a.max_viruses}`);
  return parts.join(" · ");
}

function message(m) {
  return `${m.turn === 0 ? "at the start" : "after turn " + m.turn}: ${m.identity}, ${m.antibodies} antibod${m.antibodies === 1 ? "y" : "ies"}, ${m.viruses} virus${m.viruses === 1 ? "" : "es"}`;
}

// sheet draws one player's private side: identity, counts, messages.
function sheet(me, messages, title) {
  return h("div", { class: "card" },
    title ? h("h3", null, title) : null,
    h("p", null, identity(me.identity, title ? null : voice({}))),
    h("p", null, me.identity === "zombie" ? `${num(me.viruses)} virus${me.viruses === 1 ? "" : "es"}` : `${num(me.antibodies)} antibod${me.antibodies === 1 ? "y" : "ies"}`),
    h("details", null, h("summary", null, "private messages"), h("ul", { class: "log" }, messages.map((m) => h("li", null, message(m))))));
}

function publicBoard(p, turnLabel) {
  return h("div", null,
    h("p", null, turnLabel),
    h("ul", { class: "legend" }, h("li", null, "zombies ", h("strong", null, num(p.zombies))), h("li", null, "humans ", h("strong", null, num(p.humans))),
      // The start tells the counts only; the turns tell the highest too.
      p.max_antibodies === undefined ? null : [h("li", null, "most antibodies ", h("strong", null, num(p.max_antibodies))), h("li", null, "most viruses ", h("strong", null, num(p.max_viruses)))]),
    h("p", { class: "small muted" }, "The infected count as humans; nobody is told who is infected."),
    p.result ? h("p", { class: "note" }, p.result) : null);
}

export function board(view, ctx) {
  if (!view) return h("p", null, "Nothing is known yet.");
  if (view.status !== undefined) return judgedBoard(view, ctx);
  if (view.me) {
    return h("div", null,
      h("p", null, `You are ${playerName(ctx, view.you)} · turn ${view.turn} of ${view.max_turns}`),
      sheet(view.me, view.messages),
      h("p", { class: "small muted" }, "Nobody is ever told that they are infected."),
      h("h3", null, "Announced to everyone"),
      h("ul", { class: "log" }, view.announcements.map((a) => h("li", null, counts(a)))));
  }
  if (view.public) {
    const p = view.public;
    return h("div", null, publicBoard(p, `Turn ${p.turn} of ${p.max_turns} played`),
      view.overseen ? [h("h3", null, "The true state (the judge's eyes only)"),
        table(["player", "state", "antibodies", "viruses"], view.overseen.map((f) => [f.name, f.state, num(f.antibodies), num(f.viruses)]))] : null,
      h("h3", null, "Every player (the judge's eyes)"),
      h("div", { class: "cards" }, view.seats.map((s, i) => sheet(s.me, s.messages, playerName(ctx, i)))));
  }
  return publicBoard(view, `Turn ${view.turn} of ${view.max_turns} played`);
}

// judgedBoard is the judge's mode: the sheets the script's lines make.
function judgedBoard(view, ctx) {
  const out = h("div", null, h("p", null, `The game is ${view.status.replace("_", " ")}; turn ${view.turn}${view.max_turns ? " of " + view.max_turns : ""}`));
  if (view.player) out.append(h("p", null, `You are ${view.player}.`));
  for (const p of view.private || []) {
    const last = p.messages[p.messages.length - 1];
    if (last) out.append(sheet(last, p.messages, view.player ? null : p.name));
    else out.append(h("p", null, `${p.name}: nothing yet`));
  }
  if (view.final) {
    out.append(h("h3", null, "The true state (the judge's eyes only)"),
      table(["player", "state", "antibodies", "viruses"], view.final.map((f) => [f.name, f.state, num(f.antibodies), num(f.viruses)])));
  }
  out.append(h("h3", null, "Announced to everyone"),
    view.announcements.length ? h("ul", { class: "log" }, view.announcements.map((a) => h("li", null, counts(a)))) : h("p", { class: "muted" }, "nothing yet"));
  if (view.result) out.append(h("p", { class: "note" }, typeof view.result === "string" ? view.result : JSON.stringify(view.result)));
  return out;
}

export function label(choice) {
  return JSON.stringify(choice);
}

export const asks = { plan: "plan your turn" };

// moveWords words a move for people: a plan (touch P2 with a
// precaution, Cy, guard with a precaution, end the turn), the players by
// their names or P1, P2, ...; a judge's command or a plan's text as it is.
export function moveWords(move, ctx = { players: [] }) {
  if (typeof move === "string") return move;
  if (!move || !Array.isArray(move.touch)) return JSON.stringify(move);
  const plural = (n, one, many) => `${num(n)} ${n === 1 ? one : many}`;
  const touch = move.touch.map((t) => shortName(ctx, t.with) + (t.precaution ? " with a precaution" : t.viruses ? " with " + plural(t.viruses, "virus", "viruses") : ""));
  const parts = [touch.length ? "touch " + touch.join(", ") : "touch nobody"];
  if (move.guard?.precaution) parts.push("guard with a precaution");
  if (move.guard?.viruses) parts.push("guard with " + plural(move.guard.viruses, "virus", "viruses"));
  if (move.cure_first && move.cure_last) parts.push("cure before and after the touches");
  else if (move.cure_first) parts.push("cure before the touches");
  else if (move.cure_last) parts.push("cure after the touches");
  if (move.end) parts.push("end the turn");
  return parts.join(", ");
}

// planText writes a plan in the game's text form: P2/p P4 guard=p cure=last end,
// each player by the name the page gives them (Bob/p Dan), as a party's plans
// name them.
export function planText(plan, ctx) {
  const parts = plan.touch.map((t) => `${shortName(ctx, t.with)}${t.precaution ? "/p" : t.viruses ? "/v" + t.viruses : ""}`);
  if (plan.guard?.precaution) parts.push("guard=p");
  if (plan.guard?.viruses) parts.push("guard=v" + plan.guard.viruses);
  const cure = plan.cure_first && plan.cure_last ? "both" : plan.cure_first ? "first" : plan.cure_last ? "last" : "";
  if (cure) parts.push("cure=" + cure);
  if (plan.end) parts.push("end");
  return parts.join(" ");
}

// form is the turn's plan.
export function form(req, view, ctx) {
  if (req.kind !== "plan") return null;
  const me = view.me;
  const zombie = me.identity === "zombie";
  const v = voice(ctx, shortName(ctx, view.you));
  const order = [];
  const rows = [];
  const summary = h("output", { class: "link" });
  const budget = h("p", { class: "small", "aria-live": "polite" });
  for (let i = 0; i < view.seats; i++) {
    if (i === view.you) continue;
    const touch = h("input", { type: "checkbox", name: `touch-${i}` });
    const pos = h("span", { class: "badge", "aria-hidden": "true" }, "");
    const mod = zombie
      ? h("input", { type: "number", name: `viruses-${i}`, min: 0, max: me.viruses, value: 0, "aria-label": `viruses on ${playerName(ctx, i)}`, disabled: me.viruses === 0 })
      : h("input", { type: "checkbox", name: `precaution-${i}`, "aria-label": `with precaution toward ${playerName(ctx, i)}` });
    // A precaution's box is tapped through a label around it, of a
    // finger's size (a box alone was 20 px).
    const modBox = zombie ? mod : h("label", { class: "tick" }, mod);
    touch.addEventListener("change", () => {
      const k = order.indexOf(i);
      if (touch.checked && k < 0) order.push(i);
      if (!touch.checked && k >= 0) order.splice(k, 1);
    });
    rows.push({ i, touch, mod, modBox, pos });
  }
  const guardIn = zombie ? h("input", { type: "number", name: "guard-viruses", min: 0, max: me.viruses, value: 0, disabled: me.viruses === 0 }) : h("input", { type: "checkbox", name: "guard" });
  const cure = h("select", { name: "cure", disabled: zombie }, [["", "no cure"], ["first", "cure before the touches"], ["last", "cure after the touches"], ["both", "cure before and after"]].map(([v, t]) => h("option", { value: v }, t)));
  const end = h("input", { type: "checkbox", name: "end" });
  const plan = () => ({
    touch: order.map((i) => {
      const r = rows.find((x) => x.i === i);
      const t = { with: i };
      if (zombie && Number(r.mod.value) > 0) t.viruses = Number(r.mod.value);
      if (!zombie && r.mod.checked) t.precaution = true;
      return t;
    }),
    ...(zombie ? (Number(guardIn.value) > 0 ? { guard: { viruses: Number(guardIn.value) } } : {}) : guardIn.checked ? { guard: { precaution: true } } : {}),
    ...(cure.value === "first" || cure.value === "both" ? { cure_first: true } : {}),
    ...(cure.value === "last" || cure.value === "both" ? { cure_last: true } : {}),
    ...(end.checked ? { end: true } : {}),
  });
  const update = () => {
    rows.forEach((r) => { const k = order.indexOf(r.i); r.pos.textContent = k >= 0 ? `${k + 1}` : ""; r.mod.disabled = !r.touch.checked || (zombie && me.viruses === 0); });
    const p = plan();
    summary.textContent = p.touch.length ? planText(p, ctx) : "(touch at least one player)";
    if (zombie) {
      const spent = p.touch.reduce((a, t) => a + (t.viruses || 0), 0);
      budget.textContent = `viruses: ${spent} of ${me.viruses} on the touches` + (spent > me.viruses ? ` — more than ${v.you} ${v.hold}` : "");
    } else {
      const spent = p.touch.filter((t) => t.precaution).length + (p.cure_first ? 1 : 0) + (p.cure_last ? 1 : 0);
      budget.textContent = `antibodies: ${spent} of ${me.antibodies} on precautions and cures` + (spent > me.antibodies ? ` — more than ${v.you} ${v.hold}` : "") + (p.guard ? "; the guard costs one more for each touch not asked for" : "");
      for (const r of rows) if (!r.mod.checked && r.touch.checked) r.mod.disabled = spent >= me.antibodies;
      cure.disabled = me.antibodies === 0;
    }
  };
  const list = table(["player", "touch (in the order ticked)", zombie ? "viruses" : "precaution"], rows.map((r) => [playerName(ctx, r.i), h("label", { class: "tick" }, r.touch, r.pos, h("span", { class: "sr-only" }, `touch ${playerName(ctx, r.i)}`)), r.modBox]));
  const f = h("form", { class: "plan" },
    h("fieldset", null, h("legend", null, `${v.Your} plan for turn ${view.turn}`),
      h("p", null, identity(me.identity, v), zombie ? ` · ${me.viruses} virus${me.viruses === 1 ? "" : "es"}` : ` · ${me.antibodies} antibod${me.antibodies === 1 ? "y" : "ies"}`), list,
      zombie ? h("label", { class: "block" }, "viruses to each touch not asked for", guardIn) : h("p", null, h("label", null, guardIn, "precaution toward every touch not asked for (an antibody each)")),
      zombie ? null : h("label", { class: "block" }, "cure (an antibody each: an infected human becomes human again)", cure),
      h("label", null, end, `end ${v.your} turn after the touches (nobody can touch ${v.you} after that)`),
      budget, h("p", { class: "small" }, "the plan: ", summary),
      h("p", { class: "small muted" }, `Send nothing and ${v.your} plan is the default: ${planText(req.default, ctx)}.`)),
    h("button", { class: "primary", type: "submit" }, ctx.role === "judge" ? `Send ${v.your} plan` : "Send my plan"));
  f.addEventListener("change", update);
  f.addEventListener("input", update);
  f.addEventListener("submit", (ev) => {
    ev.preventDefault();
    ctx.send(plan(), req);
  });
  update();
  return f;
}

// judgeTools: in the judge's mode, the script's commands; a builder of
// them from the roster; many lines at once; the script so far.
export function judgeTools(m, ctx) {
  if (m.mode !== "judge") return null;
  const script = h("ol", { class: "log small" });
  const refresh = async () => {
    const lines = await ctx.script();
    script.replaceChildren(...lines.map((l) => h("li", null, h("code", null, l))));
  };
  if (m.status !== "running") {
    // The game is over: the script, to read.
    refresh();
    return h("section", { class: "panel" }, h("h2", null, "The judge's script"), script);
  }
  // The seats as the script names them: a seat left unnamed ("person")
  // is P1, P2, ... by its number.
  const names = m.seats.map((s, i) => (s.player && s.player !== "person" ? s.player : `P${i + 1}`));
  const line = h("input", { type: "text", name: "command", list: "zombie-commands", autocomplete: "off", spellcheck: "false", "aria-describedby": "command-help" });
  const commands = ["GAME_START", "NEXT_TURN", ...names.flatMap((n) => [`HUMAN ${n}`, `ZOMBIE ${n}`, `CURE ${n}`, `END_TURN ${n}`]),
    ...names.flatMap((a) => names.filter((b) => b !== a).map((b) => `INTERACT ${a} ${b}`))];
  const many = h("textarea", { name: "script", rows: 6, spellcheck: "false", "aria-label": "several commands, one a line" });
  const one = h("form", { class: "row" }, h("label", { class: "block" }, "a command", line),
    h("datalist", { id: "zombie-commands" }, commands.map((c) => h("option", { value: c }))),
    h("button", { class: "primary", type: "submit" }, "Enter"));
  one.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const r = await ctx.judgeMove(line.value.trim());
    if (r.ok) { line.value = ""; refresh(); }
    line.focus();
  });
  const batch = h("form", null, h("label", { class: "block" }, "several commands, one a line (# starts a comment); they are entered in order, and the first refused one stops them", many),
    h("button", { type: "submit" }, "Enter them all"));
  batch.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const lines = many.value.split("\n");
    for (let k = 0; k < lines.length; k++) {
      const l = lines[k].replace(/#.*/, "").trim();
      if (!l) continue;
      const r = await ctx.judgeMove(l, false, `line ${k + 1}: `);
      if (!r.ok) { many.value = lines.slice(k).join("\n"); refresh(); return; }
    }
    many.value = "";
    refresh();
  });
  const quick = h("div", { class: "row" },
    m.view.status === "setup" ? [
      h("button", { type: "button", onclick: () => { many.value = names.map((n, i) => (i === 0 ? "ZOMBIE " : "HUMAN ") + n).join("\n") + "\nGAME_START"; many.focus(); } }, "Write a roster (the first a zombie)"),
    ] : [
      h("button", { type: "button", onclick: async () => { if ((await ctx.judgeMove("NEXT_TURN")).ok) refresh(); } }, "NEXT_TURN: end the turn"),
    ]);
  refresh();
  ctx.onUpdate(refresh);
  return h("section", { class: "panel" }, h("h2", null, "The judge's script"),
    h("p", { id: "command-help", class: "small muted" }, "HUMAN name, ZOMBIE name, GAME_START [max_turns], INTERACT a b (a/p: with precaution; z/v3: 3 viruses), CURE a, END_TURN a, NEXT_TURN. The rules' refusal, if any, shows below."),
    one, quick, batch, h("h3", null, "The script so far"), script);
}
