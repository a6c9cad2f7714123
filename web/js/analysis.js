// A finished game's analysis (docs/ANALYSIS.md), under the game over box: a "Request
// analysis" button, then, once done, the evaluation graph (evalgraph.js: a click on a point
// goes to that ply of the replay), each player's summary as a small table, and for a
// hidden-information game the switch between what each player saw and what was there. The
// room asks it for the judged moves (the move list's ?!, ?, ??) and for the better move at
// a ply (an arrow on the replayed board).

import { h } from "./dom.js";
import { parseGesture } from "./boards/gestures.js";
import { EvalGraph } from "./evalgraph.js";
import { MARKS, countsIn, series, viewsOf } from "./evalseries.js";
import { playerLabel } from "./text.js";

// a request in progress is read back this often, this many times at most
const POLL_MS = 1000;
const POLLS = 180;

const VIEW_NAMES = { seen: "What you saw", true: "What was there" };
const ROWS = [
  ["inaccuracy", "Inaccuracies"],
  ["mistake", "Mistakes"],
  ["blunder", "Blunders"],
];

export class AnalysisPanel {
  /**
   * @param {string} roomId
   * @param {object} opts
   * @param {(ply: number) => void} opts.go     show that ply in the replay
   * @param {() => void} opts.changed           the analysis (or its view) changed
   */
  constructor(roomId, { go, changed } = {}) {
    this.id = roomId;
    this.go = go || (() => {});
    this.changed = changed || (() => {});
    this.looked = false;
    this.u = null;
    this.info = null;
    this.data = null; // the analysis, once done
    this.view = "true";
    this.cursor = null;
    this.graph = null;
    this.button = h(
      "button",
      {
        type: "button",
        class: "secondary small",
        id: "request-analysis",
        onclick: () => this.request(),
      },
      "Request analysis",
    );
    this.note = h("p", { class: "muted small", id: "analysis-note", role: "status" });
    this.switch = h("div", {
      class: "analysis-views",
      id: "analysis-views",
      role: "group",
      "aria-label": "Which evaluation to show",
      hidden: true,
    });
    this.graphHost = h("div", { class: "eval-graph-host", id: "eval-graph-host", hidden: true });
    this.summary = h("div", { class: "analysis-summary", id: "analysis-summary", hidden: true });
    this.el = h(
      "section",
      { class: "analysis", id: "analysis", hidden: true },
      this.button,
      this.note,
      this.switch,
      this.graphHost,
      this.summary,
    );
  }

  /** Show the panel once the game is over (and what is known of its analysis); `cursor`:
   *  the ply the replay shows (null: the game's end). */
  update(u, info, cursor = null) {
    this.u = u;
    this.info = info;
    this.cursor = cursor;
    this.el.hidden = u.status !== "over";
    if (!this.el.hidden && !this.looked) {
      this.looked = true;
      this.read(false);
    }
    if (this.graph) this.graph.mark(cursor);
  }

  // -- what the room asks ---------------------------------------------------------------------

  /** Map ply -> judgement ("inaccuracy" | "mistake" | "blunder") in the chosen view. */
  judgements() {
    const out = new Map();
    if (!this.data) return out;
    for (const [ply, m] of series(this.data, this.view).marks)
      if (m.judgement) out.set(ply, m.judgement);
    return out;
  }

  /** The better moves at a judged ply, as {from, to} squares (none: nothing to draw). */
  arrowsAt(ply) {
    if (!this.data || ply === null || ply === undefined) return [];
    const mark = series(this.data, this.view).marks.get(ply);
    if (!mark || !mark.judgement) return [];
    return mark.best.map(parseGesture).filter((m) => m.from && m.to);
  }

  // -- asking ---------------------------------------------------------------------------------

  async request() {
    this.button.disabled = true;
    this.note.textContent = "Asking for an analysis…";
    const res = await fetch(`api/rooms/${this.id}/analysis`, {
      method: "POST",
      credentials: "same-origin",
    });
    const data = await res.json().catch(() => ({}));
    if (res.status === 200 || res.status === 202) {
      this.show(data);
      if (data.status !== "done") this.poll(0);
      return;
    }
    this.button.disabled = false;
    this.note.textContent = data.message || `The analysis was refused (${res.status}).`;
  }

  /** Read the analysis once (``keepOn``: poll until it is done). */
  async read(keepOn) {
    const res = await fetch(`api/rooms/${this.id}/analysis`, { credentials: "same-origin" });
    const data = await res.json().catch(() => ({}));
    if (res.status !== 200) return false;
    this.show(data);
    if (keepOn && data.status !== "done") return false;
    return data.status === "done";
  }

  poll(n) {
    if (n >= POLLS) {
      this.note.textContent = "The analysis is taking long: look again later.";
      this.button.disabled = false;
      return;
    }
    setTimeout(async () => {
      if (!(await this.read(true))) this.poll(n + 1);
    }, POLL_MS);
  }

  show(data) {
    if (data.status === "unavailable") {
      this.button.hidden = true; // a game the server does not analyse
      this.note.textContent = "";
      return;
    }
    if (data.status === "queued") {
      this.button.disabled = true;
      this.note.textContent = `Waiting for an analysis: number ${data.position} in line.`;
      return;
    }
    if (data.status === "running") {
      this.button.disabled = true;
      this.note.textContent = "Analysing…";
      return;
    }
    if (data.status !== "done" || this.data) return;
    this.data = data.analysis;
    this.button.hidden = true;
    this.note.textContent = `Analysis by ${this.data.engine}.`;
    this.renderSwitch();
    this.render();
  }

  // -- drawing --------------------------------------------------------------------------------

  renderSwitch() {
    const views = viewsOf(this.data);
    this.switch.hidden = views.length < 2;
    this.switch.replaceChildren(
      ...views.map((v) =>
        h(
          "button",
          {
            type: "button",
            class: "secondary small",
            id: `analysis-view-${v}`,
            "aria-pressed": v === this.view ? "true" : "false",
            dataset: { view: v },
            onclick: () => this.choose(v),
          },
          VIEW_NAMES[v],
        ),
      ),
    );
  }

  choose(view) {
    if (view === this.view) return;
    this.view = view;
    for (const b of this.switch.querySelectorAll("button"))
      b.setAttribute("aria-pressed", b.dataset.view === view ? "true" : "false");
    this.render();
  }

  /** The graph and the summary of the chosen view; the room redraws its move list and board. */
  render() {
    const a = this.data;
    const data = series(a, this.view);
    const names = new Map((a.plies || []).map((p) => [p.ply, p.san || p.move]));
    const label = (ply) => {
      const j = (data.marks.get(ply) || {}).judgement;
      return `Move ${ply}: ${names.get(ply) || ""}${j ? `${MARKS[j]}, ${j}` : ""}`;
    };
    const what = data.seats > 1 ? "each seat's value" : "the evaluation";
    const title = `Analysis graph (${VIEW_NAMES[this.view].toLowerCase()}): ${what} per move`;
    this.graph = new EvalGraph(data, { go: (ply) => this.go(ply), label, title });
    this.graph.el.dataset.view = this.view;
    this.graph.mark(this.cursor);
    this.graphHost.replaceChildren(this.graph.el);
    this.graphHost.hidden = data.last < 1;
    this.summary.replaceChildren(...a.players.map((p, seat) => this.table(p, seat)));
    this.summary.hidden = false;
    this.changed();
  }

  /** One player's summary, as lichess lays it out: their name over a small table. */
  table(p, seat) {
    const counts = countsIn(p, this.view);
    const who = this.u && this.info ? playerLabel(this.info, this.u, seat) : `Seat ${seat}`;
    const row = (key, n, name) =>
      h("tr", { class: key, dataset: { count: key } }, h("td", {}, String(n)), h("th", {}, name));
    const rows = ROWS.map(([key, name]) => row(key, counts[key] || 0, name));
    if (this.view === "true" && p.acpl !== null && p.acpl !== undefined)
      rows.push(row("acpl", p.acpl, "Average centipawn loss"));
    if (this.view === "true" && p.accuracy !== null && p.accuracy !== undefined)
      rows.push(row("accuracy", `${Math.round(p.accuracy)}%`, "Accuracy"));
    return h(
      "table",
      { class: "analysis-player", dataset: { seat } },
      h("caption", {}, who),
      h("tbody", {}, ...rows),
    );
  }
}
