// The interlude between a Swiss's (or round robin's) rounds: when a round ends, the server
// announces the next one and seats it a few seconds later (the tournament's `interlude`).
// Meanwhile a player's own part (`me.next`) holds their last result and their next game;
// this box says both, with a countdown, on the tournament page and at the board.

import { h } from "./dom.js";

const OUTCOMES = {
  W: "you won",
  D: "a draw",
  L: "you lost",
  B: "a bye",
  R: "a rest",
  "+": "won: your opponent withdrew",
  "-": "lost: you withdrew",
  A: "aborted, no result",
};

function pointsText(p) {
  const n = Number(p);
  const shown = Number.isInteger(n) ? String(n) : n.toFixed(1).replace(".5", "½");
  return `${shown} point${n === 1 ? "" : "s"}`;
}

/** "Round 1: you won · 1 point in all" (null: no round played yet). */
export function lastText(next) {
  const last = next && next.last;
  if (!last) return null;
  const what = OUTCOMES[last.outcome] || last.outcome;
  return `Round ${last.round}: ${what} · ${pointsText(next.points)} in all`;
}

/** "Next round in 4 s — you play Bob (round 2 of 3)", counted down to `now`. */
export function nextText(next, now) {
  const left = Math.max(0, Math.ceil(next.starts_at - now));
  const when = left > 0 ? `Next round in ${left} s` : "Next round starting…";
  const of = next.rounds ? ` of ${next.rounds}` : "";
  const whom = next.bye ? "you have a bye" : `you play ${(next.opponents || []).join(", ")}`;
  const first = !next.bye && next.seat === 0 ? ", you start" : "";
  return `${when} — ${whom} (round ${next.round}${of}${first})`;
}

/** The box: hidden while there is no interlude; `tick` counts down. */
export class NextRound {
  constructor(app, id) {
    this.app = app;
    this.next = null;
    this.last = h("p", { class: "t-next-last", id: `${id}-last` });
    this.line = h("p", { class: "t-next-line", id: `${id}-line` });
    this.el = h(
      "div",
      { class: "t-next", id, role: "status", "aria-live": "polite", hidden: true },
      this.last,
      this.line,
    );
  }

  /** Show `next` (a player's `me.next`; null or undefined: no interlude now). */
  show(next) {
    this.next = next || null;
    this.el.hidden = !this.next;
    if (!this.next) return;
    const last = lastText(this.next);
    this.last.textContent = last || "";
    this.last.hidden = !last;
    this.tick();
  }

  tick() {
    if (this.next) this.line.textContent = nextText(this.next, this.app.serverNow());
  }
}
