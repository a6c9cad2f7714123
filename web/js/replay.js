// The move list beside the board and the replay viewer: every move of the game as the
// viewer may see it (the `record`: for a game that hides nothing at any time, as late as a
// spectator delay allows; for a hidden-information game once it is over, with everything
// revealed), a click on a move or ←/→ to step through the positions, and the PGN of a chess
// game to download.
//
// A game that hides something has no record while it runs: then the list holds the turns
// this page saw itself (the views it was sent), and stepping shows those. The positions come
// from `history`: every view this page's seat (or spectator) was shown, so a page that
// arrived late steps through the whole game too.

import { h } from "./dom.js";
import { storage } from "./storage.js";
import { MARKS } from "./evalseries.js";
import { seatName } from "./text.js";

const CHESS = new Set(["chess", "dark_chess"]);
// the record's exports that write a game's moves as its players do, and their names
const NOTATIONS = { wxf: "WXF", shogi: "shogi notation" };

/** The SAN moves of a PGN's main line (headers, comments, variations, numbers dropped). */
export function pgnMoves(pgn) {
  const body = String(pgn || "")
    .replace(/^\[.*\]\s*$/gm, " ")
    .replace(/\{[^}]*\}/g, " ")
    .replace(/\([^()]*\)/g, " ");
  return body
    .split(/\s+/)
    .map((t) => t.replace(/^\d+\.+/, ""))
    .filter((t) => t && !/^(1-0|0-1|1\/2-1\/2|\*|\$\d+)$/.test(t));
}

export class ReplayPanel {
  /**
   * @param {App} app
   * @param {string} id                     the room
   * @param {object} opts
   * @param {() => void} opts.onChange      the shown position changed (or the record came)
   */
  constructor(app, id, { onChange }) {
    this.app = app;
    this.id = id;
    this.onChange = onChange;
    this.record = null;
    this.fetchedAt = null; // the version we last asked for the record at
    this.pending = false;
    this.historyAt = null; // the version we last asked for the history at
    this.cursor = null; // the ply shown (0 = the start), or null: the game as it is now
    this.entries = []; // [{ply, label}]
    this.judged = new Map(); // ply -> an analysis's judgement of its move (?!, ?, ??)
    this.u = null;
    this.build();
    this.onKey = (e) => this.key(e);
    document.addEventListener("keydown", this.onKey);
  }

  destroy() {
    document.removeEventListener("keydown", this.onKey);
  }

  build() {
    this.note = h("p", { class: "muted", id: "replay-note", hidden: true });
    this.list = h("ol", { class: "move-list", id: "move-list", "aria-label": "Moves" });
    const nav = (id, label, text, onclick) =>
      h(
        "button",
        { type: "button", class: "secondary small", id, "aria-label": label, onclick },
        text,
      );
    this.live = nav("replay-live", "Back to the game now", "Now", () => this.show(null));
    this.pgn = h(
      "a",
      {
        class: "button secondary small",
        id: "download-pgn",
        href: `api/rooms/${this.id}/pgn`,
        download: `kibitz-${this.id}.pgn`,
        hidden: true,
      },
      "Download PGN",
    );
    // every other game: its record (JSON: options, seed, every move and event) once over
    this.recordLink = h(
      "a",
      {
        class: "button secondary small",
        id: "download-record",
        href: `api/rooms/${this.id}/record`,
        download: `kibitz-${this.id}.json`,
        hidden: true,
      },
      "Download record",
    );
    this.showing = h("p", {
      class: "muted small",
      id: "replay-showing",
      role: "status",
      "aria-live": "polite",
    });
    // a game players write in their own notation (XiangQi's WXF: the record's exports.wxf),
    // or in squares, as chosen (kept per game)
    this.notation = h("button", {
      type: "button",
      class: "secondary small",
      id: "notation-toggle",
      hidden: true,
      onclick: () => this.toggleNotation(),
    });
    this.el = h(
      "section",
      { class: "panel replay", id: "replay", "aria-labelledby": "moves-h" },
      h("h2", { id: "moves-h" }, "Moves"),
      this.note,
      this.list,
      h(
        "div",
        { class: "row replay-nav" },
        nav("replay-first", "Starting position", "«", () => this.show(0)),
        nav("replay-prev", "Previous move (←)", "◀", () => this.step(-1)),
        nav("replay-next", "Next move (→)", "▶", () => this.step(1)),
        this.live,
        this.pgn,
        this.recordLink,
        this.notation,
      ),
      this.showing,
    );
  }

  // -- the record ---------------------------------------------------------------------------

  /** Called on every render of the room with its latest update. */
  update(u, info) {
    this.u = u;
    this.info = info;
    // a game whose hidden part is a chance draw (BanQi, Hase und Igel) shows its moves
    const open =
      u.status !== "waiting" &&
      (!info.hidden_information || info.public_moves || u.status === "over");
    const rec = this.record;
    const stale = !rec || rec.moves.length !== u.turn || (u.status === "over") !== !!rec.outcome;
    if (open && stale && !this.pending && this.fetchedAt !== u.version) this.fetch(u.version);
    if (u.status !== "waiting" && this.historyAt !== u.version && this.missingTurns(u)) {
      this.loadHistory(u);
    }
    this.entries = this.buildEntries(u, info);
    this.render(u, info);
  }

  async fetch(version) {
    this.pending = true;
    this.fetchedAt = version;
    try {
      const reply = await this.app.request({ type: "record", room: this.id });
      this.setRecord(reply.record);
    } catch (err) {
      if (err.code !== "not_finished" && err.code !== "offline" && err.code !== "disconnected")
        this.app.fail(err);
    } finally {
      this.pending = false;
    }
    this.onChange();
  }

  /** Turns up to `u.turn` this page has no view of (it came late, or reloaded). */
  missingTurns(u) {
    const views = this.app.room(this.id).views;
    for (let t = 1; t <= u.turn; t++) if (!views.has(t)) return true;
    return false;
  }

  /** Fill the views this page missed from the room's history (what this seat or
   *  spectator was shown after every turn), so stepping can show every position. */
  async loadHistory(u) {
    this.historyAt = u.version;
    try {
      const reply = await this.app.request({ type: "history", room: this.id });
      const views = this.app.room(this.id).views;
      for (const t of reply.turns) {
        if (t.turn > u.turn || views.has(t.turn)) continue;
        views.set(t.turn, {
          ...u,
          turn: t.turn,
          view: t.view,
          events: null,
          legal: undefined,
          your_move: undefined,
          status: "playing",
          outcome: null,
        });
      }
    } catch (err) {
      // rate_limited: the next update asks again
      if (!["offline", "disconnected", "rate_limited"].includes(err.code)) this.app.fail(err);
    }
    this.onChange();
  }

  /** The analysis's judgements to mark in the list (ply -> "inaccuracy" | ...). */
  setJudgements(judged) {
    this.judged = judged;
  }

  setRecord(rec) {
    this.record = rec;
  }

  /** Seats that have made a move, from a record as new as `u` (else null: unknown). */
  movedSeats(u) {
    const rec = this.record;
    if (!rec || rec.moves.length !== u.turn || rec.delayed) return null;
    return new Set(rec.moves.flatMap((t) => Object.keys(t.moves).map(Number)));
  }

  buildEntries(u, info) {
    const rec = this.record;
    if (rec && rec.game === u.game) {
      const names = (seat) => (rec.seats[seat] && rec.seats[seat].name) || seatName(info, seat);
      if (CHESS.has(rec.game)) {
        const ucis = rec.moves.map((t) => Object.values(t.moves)[0]);
        let sans = pgnMoves(rec.exports && rec.exports.pgn);
        if (sans.length !== ucis.length) sans = ucis;
        const fenParts = rec.options.fen.split(" ");
        const blackFirst = fenParts[1] === "b";
        const first = Number(fenParts[5]) || 1;
        return ucis.map((uci, i) => {
          const black = (i % 2 === 1) !== blackFirst;
          const n = first + Math.floor((i + (blackFirst ? 1 : 0)) / 2);
          return { ply: i + 1, label: black ? `${n}… ${sans[i]}` : `${n}. ${sans[i]}` };
        });
      }
      const named = rec.n_seats > 2 || info.simultaneous;
      const written = this.written(rec);
      // a turn of one mover has one written move (a game with a notation of its own)
      const said = (t, i) =>
        Object.entries(t.moves).map(([seat, m]) => [seat, written ? written[i] : m]);
      return rec.moves.map((t, i) => ({
        ply: t.turn,
        label: `${t.turn}. ${said(t, i)
          .map(([seat, m]) => (named ? `${names(Number(seat))}: ${m}` : m))
          .join(" · ")}`,
      }));
    }
    // no record (a hidden-information game that runs): the turns this page saw
    const views = this.app.room(this.id).views;
    return [...views.keys()]
      .filter((t) => t > 0 && t <= u.turn)
      .sort((a, b) => a - b)
      .map((t) => ({ ply: t, label: `Turn ${t}` }));
  }

  /** The record's moves in the players' notation when it has one and it is chosen, else null. */
  written(rec) {
    const key = Object.keys(NOTATIONS).find(
      (k) => rec.exports && typeof rec.exports[k] === "string",
    );
    const moves = key ? rec.exports[key].split(" ").filter(Boolean) : [];
    const usable = moves.length === rec.moves.length;
    const own = storage.pref(`notation.${rec.game}`, "own") !== "squares";
    this.notation.hidden = !usable;
    this.notation.textContent = own ? "Show squares" : `Show ${NOTATIONS[key] || ""}`;
    return usable && own ? moves : null;
  }

  toggleNotation() {
    const game = this.record && this.record.game;
    if (!game) return;
    const own = storage.pref(`notation.${game}`, "own") !== "squares";
    storage.setPref(`notation.${game}`, own ? "squares" : "own");
    if (this.u) this.update(this.u, this.app.info(game));
  }

  // -- stepping -----------------------------------------------------------------------------

  key(e) {
    if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || !this.entries.length) return;
    const t = e.target;
    if (t && t.closest && t.closest("input, textarea, select, svg, [contenteditable], .promo"))
      return;
    if (e.key === "ArrowLeft") this.step(-1);
    else if (e.key === "ArrowRight") this.step(1);
    else return;
    e.preventDefault();
  }

  step(delta) {
    const last = this.lastPly();
    if (last === null) return;
    const at = this.cursor === null ? last : this.cursor;
    const next = Math.max(0, at + delta);
    this.show(next >= last && delta > 0 ? null : next);
  }

  lastPly() {
    if (!this.entries.length) return null;
    return this.entries[this.entries.length - 1].ply;
  }

  show(ply) {
    this.cursor = ply;
    this.onChange();
  }

  /**
   * What the board shows instead of the game now: null (the game now), or {update} — the
   * update to draw (a view this page was sent, or the room's history filled in).
   */
  historic(u) {
    if (this.cursor === null) return null;
    const seen = this.app.room(this.id).views.get(this.cursor);
    return seen ? { update: seen } : null;
  }

  judgedMark(ply) {
    const j = this.judged.get(ply);
    return j ? h("span", { class: `judgement ${j}`, title: j }, MARKS[j]) : null;
  }

  render(u, info) {
    const rec = this.record;
    const items = this.entries.map((e) =>
      h(
        "li",
        { class: e.ply === this.cursor ? "current" : "" },
        h(
          "button",
          {
            type: "button",
            class: "link",
            dataset: { ply: e.ply },
            "aria-current": e.ply === this.cursor ? "step" : null,
            onclick: () => this.show(e.ply),
          },
          e.label,
          this.judgedMark(e.ply),
        ),
      ),
    );
    this.list.replaceChildren(...items);
    // a game of more than two seats (or simultaneous moves) names the seat on each line:
    // one line a turn, not the columns of a two-player list
    this.list.classList.toggle("per-turn", !!rec && (rec.n_seats > 2 || !!info.simultaneous));
    let note = "";
    if (!rec && info.hidden_information && !info.public_moves && u.status === "playing") {
      note =
        "This game hides information: the whole move list opens when it ends. " +
        "Until then, the turns this page has seen.";
    } else if (rec && rec.delayed && u.status === "playing") {
      note = `Spectators see this game ${rec.delayed} turn${rec.delayed === 1 ? "" : "s"} late.`;
    }
    this.note.textContent = note;
    this.note.hidden = !note;
    this.el.hidden = !items.length && !note;
    this.pgn.hidden =
      !(u.game === "chess" || (u.game === "dark_chess" && u.status === "over")) || !items.length;
    this.recordLink.hidden = CHESS.has(u.game) || u.status !== "over" || !rec;
    this.live.disabled = this.cursor === null;
    const current = this.list.querySelector("li.current");
    if (current) current.scrollIntoView({ block: "nearest" });
    if (this.cursor === null) this.showing.textContent = "";
    else if (this.historic(u))
      this.showing.textContent =
        this.cursor === 0
          ? "Showing the starting position"
          : `Showing the position after move ${this.cursor} of ${this.lastPly()}`;
    else
      this.showing.textContent = `The position after move ${this.cursor} is not known to this page`;
  }
}
