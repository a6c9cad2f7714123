// A finished game's analysis (docs/ANALYSIS.md): a "Request analysis" button under the game
// over box, then each player's summary (inaccuracies, mistakes, blunders, accuracy; for
// Dark Chess, also as the player saw the board). The graph, the arrows and the switch
// between what each player saw and what was there are not built yet.

import { h } from "./dom.js";
import { playerLabel } from "./text.js";

// a request in progress is read back this often, this many times at most
const POLL_MS = 1000;
const POLLS = 180;

const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;

/** The counts of one player's judgements, as words. */
function counts(c) {
  return [
    plural(c.inaccuracy || 0, "inaccuracy", "inaccuracies"),
    plural(c.mistake || 0, "mistake", "mistakes"),
    plural(c.blunder || 0, "blunder", "blunders"),
  ].join(", ");
}

export class AnalysisPanel {
  /** @param {string} roomId */
  constructor(roomId) {
    this.id = roomId;
    this.asked = false;
    this.looked = false;
    this.u = null;
    this.info = null;
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
    this.summary = h("ul", { class: "analysis-summary", id: "analysis-summary", hidden: true });
    this.el = h(
      "section",
      { class: "analysis", id: "analysis", hidden: true },
      this.button,
      this.note,
      this.summary,
    );
  }

  /** Show the panel once the game is over (and what is known of its analysis). */
  update(u, info) {
    this.u = u;
    this.info = info;
    this.el.hidden = u.status !== "over";
    if (!this.el.hidden && !this.looked) {
      this.looked = true;
      this.read(false);
    }
  }

  async request() {
    this.asked = true;
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
    if (data.status !== "done") return;
    const a = data.analysis;
    this.button.hidden = true;
    this.note.textContent = `Analysis by ${a.engine}.`;
    this.summary.replaceChildren(
      ...a.players.map((p, seat) => {
        const accuracy = p.accuracy == null ? "" : ` · accuracy ${Math.round(p.accuracy)}%`;
        const seen = p.seen ? ` (as they saw the board: ${counts(p.seen)})` : "";
        const who = this.u && this.info ? playerLabel(this.info, this.u, seat) : `Seat ${seat}`;
        return h("li", { dataset: { seat } }, `${who}: ${counts(p)}${accuracy}${seen}`);
      }),
    );
    this.summary.hidden = false;
  }
}
