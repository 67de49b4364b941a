// Reaj on a page: the shared environment, the societies (resources, their
// six values), the dispositions between them; a turn's choice.
import { h, num, signed, table } from "../dom.js";

// tells is what the match's story tells as events: none in this game, whose
// story is its charts.
export const tells = null;

export const values = ["conquer", "exchange", "expand", "develop", "consent", "adapt"];
const about = {
  conquer: "take from the weaker; others like you less",
  exchange: "trade with those who like you",
  expand: "take land for 3 resources",
  develop: "take ecology for 3 resources",
  consent: "others like you more",
  adapt: "give back to the ecology",
};

function stateOf(view) {
  if (!view) return null;
  return view.public || view;
}

export function board(view, ctx) {
  const st = stateOf(view);
  if (!st || !st.societies) return h("p", null, "Nothing is known yet.");
  const you = typeof view.you === "number" ? view.you : -1;
  const env = st.environment;
  const rows = st.societies.map((s, i) => {
    const name = `${i + 1} · ${ctx.players[i] ?? ""}`;
    return {
      class: [i === you ? "you" : "", s.dead ? "dead" : ""].join(" ").trim() || null,
      cells: [i === you ? name + " (you)" : s.dead ? `${name} (dead, turn ${s.died})` : name, num(s.resources), ...values.map((v) => num(s.values[v]))],
    };
  });
  const n = st.relations.length;
  const rel = st.relations.map((row, i) => ({
    class: i === you ? "you" : null,
    cells: [`${i + 1} · ${ctx.players[i] ?? ""}`, ...row.map((v, j) => (i === j ? "·" : signed(v)))],
  }));
  return h("div", null,
    // A seat's view names the turn under way: one past the last once all are played.
    view.turn ? h("p", null, view.turn > view.turns ? `All ${view.turns} turns played` : `Turn ${view.turn} of ${view.turns}`)
      : ctx.clock?.() != null ? h("p", null, `Turns played: ${num(ctx.clock())}`) : null,
    h("h3", null, "The environment"),
    h("ul", { class: "legend" }, h("li", null, "land ", h("strong", null, num(env.land))), h("li", null, "ecology ", h("strong", null, num(env.ecology))), h("li", null, "resources ", h("strong", null, num(env.resources)))),
    h("h3", null, "The societies"),
    table(["society", "resources", ...values], rows, { "aria-label": "the societies" }),
    h("h3", null, "Dispositions"),
    h("p", { class: "small muted" }, "how each society (row) is disposed toward each other (column)"),
    table(["", ...Array.from({ length: n }, (_, j) => `${j + 1}`)], rel, { class: "matrix" }));
}

// moveWords words a move for people: the value chosen.
export function moveWords(move) {
  return typeof move === "string" ? move : JSON.stringify(move);
}

export function label(choice) {
  return choice;
}

export function describe(choice) {
  return about[choice] || "";
}
