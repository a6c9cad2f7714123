// The panel beside a described board: the facts its description lists (grid.facts: a label
// and a text, or a sentence when there is no label), the seat the viewer plays when the
// board names it otherwise than the game does (a colour decided in play), and the viewer's
// sealed move in a game of simultaneous moves (the update's your_move: nobody else has it).

import { h } from "../dom.js";

/** The panel of `grid` for update `u`, into `host` (hidden when there is nothing to say). */
export function renderFacts(host, grid, u, info) {
  const facts = grid.facts || [];
  if (!facts.length && !u.your_move) {
    host.hidden = true;
    return;
  }
  host.hidden = false;
  const you = u.you === null || u.you === undefined ? null : u.you;
  const mine = you === null ? null : grid.seats[you];
  const named = info.seat_names && info.seat_names[you];
  const rows = [];
  const sentences = [];
  for (const f of facts) {
    const cls = f.name || null;
    if (f.label) rows.push(h("dt", {}, f.label), h("dd", { class: cls }, f.text));
    else sentences.push(h("p", { class: cls ? `muted ${cls}` : "muted" }, f.text));
  }
  if (u.your_move)
    rows.push(h("dt", {}, "Your sealed move"), h("dd", { class: "your-move" }, u.your_move));
  const game = String(info.name || "game").replace(/_/g, "-");
  const panel = h(
    "div",
    { class: `facts ${game}-info` },
    h("h2", {}, info.title || "Position"),
    mine && named && mine.name !== named
      ? h("p", { class: "you-play" }, `You play ${mine.name.toLowerCase()}.`)
      : null,
    h("dl", { class: "info-grid" }, rows),
    ...sentences,
  );
  host.replaceChildren(panel);
}
