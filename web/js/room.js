// A room: who sits where (seats.js), whose turn it is, the board, and the actions (move;
// resign, take-back, draw, abort, rematch: actions.js; share), the game over box
// (gameover.js), the move list (replay.js) and the chat (chat.js). Everything is drawn from
// the latest `update` for our seat (or the spectator view when we hold none).

import { ActionsPanel } from "./actions.js";
import { AnalysisPanel } from "./analysis.js";
import { plainView } from "./app.js";
import {
  NARROW,
  ViewToggles,
  premovesApply,
  renderBoardClocks,
  tabTitle,
  watchNote,
} from "./atboard.js";
import { BoardFit } from "./boardfit.js";
import { OWN_MOVE_LIST, createBoard } from "./boards/index.js";
import { ChatPanel } from "./chat.js";
import { ClockView } from "./clock.js";
import { h, toast } from "./dom.js";
import { renderGameOver } from "./gameover.js";
import { howToPlay } from "./help.js";
import { ReplayPanel } from "./replay.js";
import { chipFor, seatItems } from "./seats.js";
import { soundFor, sounds } from "./sounds.js";
import { TournamentBar } from "./tournamentboard.js";
import { outcomeText, playerLabel, seatName } from "./text.js";

export class RoomView {
  constructor(app, host, id, { playerName }) {
    this.app = app;
    this.id = id;
    this.playerName = playerName;
    this.board = null;
    this.premoves = false; // whether the board may queue a premove now (see render)
    this.boardKey = null;
    this.clocks = new ClockView({
      serverNow: () => app.serverNow(),
      mine: () => app.heldSeats(id),
      onLow: () => sounds.play("low_time"),
    });
    this.replay = new ReplayPanel(app, id, { onChange: () => this.render() });
    this.chat = new ChatPanel(app, id);
    this.actions = new ActionsPanel(app, id, () => this.render());
    this.tournamentBar = new TournamentBar(app, id); // a tournament game: the way back, berserk
    this.heard = null; // the update the last sound was chosen against
    this.el = h("section", { class: "room-view", dataset: { room: id } });
    host.replaceChildren(this.el);
    this.build();
    this.onUpdate = (e) => {
      if (e.detail.room === this.id) this.render();
    };
    this.onReady = () => this.app.listen(this.id);
    this.onHeld = () => this.render();
    this.onRematch = (e) => {
      if (e.detail.room === this.id) this.render();
    };
    this.onGone = this.onRematch;
    this.onSound = () => this.renderSoundToggle();
    this.onMissing = (e) => {
      if (e.detail === this.id)
        this.status.textContent = "There is no such room (it may have ended long ago).";
    };
    app.addEventListener("update", this.onUpdate);
    app.addEventListener("ready", this.onReady);
    app.addEventListener("held", this.onHeld);
    app.addEventListener("missing", this.onMissing);
    app.addEventListener("rematch", this.onRematch);
    app.addEventListener("gone", this.onGone);
    sounds.addEventListener("change", this.onSound);
    if (app.ready) app.listen(id);
    this.render();
  }

  destroy() {
    this.fit.destroy();
    this.clocks.destroy();
    this.narrow.removeEventListener("change", this.onNarrow);
    document.title = "Kibitz";
    this.app.removeEventListener("update", this.onUpdate);
    this.app.removeEventListener("ready", this.onReady);
    this.app.removeEventListener("held", this.onHeld);
    this.app.removeEventListener("missing", this.onMissing);
    this.app.removeEventListener("rematch", this.onRematch);
    this.app.removeEventListener("gone", this.onGone);
    sounds.removeEventListener("change", this.onSound);
    this.replay.destroy();
    this.chat.destroy();
    this.tournamentBar.destroy();
    this.app.unwatch(this.id);
  }

  build() {
    const link = `${location.origin}${location.pathname}#room=${this.id}`;
    this.title = h("h1", {}, "Room");
    const linkInput = h("input", {
      id: "room-link",
      type: "text",
      readonly: true,
      value: link,
      "aria-label": "Room link to share",
    });
    linkInput.addEventListener("focus", () => linkInput.select());
    const copy = h(
      "button",
      {
        type: "button",
        class: "secondary small",
        id: "copy-link",
        onclick: async () => {
          try {
            await navigator.clipboard.writeText(link);
            toast("Link copied");
          } catch {
            linkInput.focus();
            linkInput.select();
            toast("Select the link and copy it");
          }
        },
      },
      "Copy link",
    );
    this.watchLink = h(
      "a",
      {
        class: "button secondary small",
        href: `#room=${this.id}&watch`,
        target: "_blank",
        rel: "noopener",
        id: "watch-tab",
      },
      "Watch in a new tab",
    );
    this.soundToggle = h("button", {
      type: "button",
      class: "secondary small",
      id: "sound-toggle",
      onclick: () => {
        sounds.muted = !sounds.muted;
      },
    });
    this.renderSoundToggle();
    this.status = h(
      "p",
      { class: "status", id: "status", role: "status", "aria-live": "polite" },
      "Loading the room…",
    );
    this.boardHost = h("div", { class: "board-host" });
    // at the board (issue 34): flip, coordinates, clocks above and below the board on a phone
    this.narrow = window.matchMedia(NARROW);
    this.onNarrow = () => this.render();
    this.narrow.addEventListener("change", this.onNarrow);
    this.toggles = new ViewToggles(this.el, () => this.render());
    this.clockTop = h("div", { class: "board-clock above", id: "board-clock-top" });
    this.clockBottom = h("div", { class: "board-clock below", id: "board-clock-bottom" });
    this.rulesHost = h("div", { class: "panel rules-host", id: "rules-host", hidden: true });
    this.gameOver = h("div", { class: "gameover", id: "gameover", hidden: true, tabindex: -1 });
    this.analysis = new AnalysisPanel(this.id, {
      go: (ply) => this.replay.show(ply),
      changed: () => this.render(),
    });
    this.watchNote = h("p", { class: "watch-note muted", id: "watch-note", hidden: true });
    this.seatsList = h("ul", { class: "seats", id: "seats" });
    this.infoHost = h("section", { class: "panel info-host" });
    this.legalCount = h("span", {}, "");
    this.legalMoves = h("div", { class: "moves", role: "group", "aria-label": "Legal moves" });
    this.legalList = h(
      "details",
      { class: "panel legal-list", id: "legal-list", hidden: true },
      h("summary", {}, "All legal moves ", this.legalCount),
      this.legalMoves,
    );
    this.logList = h("ul", { class: "log", id: "log", "aria-label": "Game log, newest first" });
    this.logEmpty = h("p", { class: "muted" }, "Nothing has happened yet.");
    this.el.append(
      (this.head = h(
        "div",
        { class: "room-head" },
        this.title,
        h("div", { class: "share" }, linkInput, copy, this.watchLink),
        this.soundToggle,
        h("a", { class: "button secondary small", href: "#", id: "to-lobby" }, "← Lobby"),
      )),
      h(
        "div",
        { class: "room" },
        // beside the board on a wide screen, above it on a phone (boardfit.js); the game's
        // end beside it, or under it on a phone (see render)
        (this.boardInfo = h(
          "div",
          { class: "board-info" },
          this.tournamentBar.el,
          this.status,
          this.clocks.notice,
          this.watchNote,
          this.gameOver,
          this.analysis.el,
        )),
        (this.boardArea = h(
          "div",
          { class: "board-area" },
          this.clockTop,
          this.boardHost,
          this.clockBottom,
          this.toggles.el,
        )),
        h(
          "aside",
          { class: "side", "aria-label": "Game details" },
          h(
            "section",
            { class: "panel", "aria-labelledby": "players-h" },
            h("h2", { id: "players-h" }, "Players"),
            (this.ratedLine = h("p", { class: "muted", id: "rated", hidden: true })),
            this.seatsList,
            this.clocks.summary,
            this.clocks.announcer,
          ),
          this.actions.el,
          this.infoHost,
          this.rulesHost,
          this.replay.el,
          this.legalList,
          h(
            "section",
            { class: "panel", "aria-labelledby": "log-h" },
            h("h2", { id: "log-h" }, "Game log"),
            this.logEmpty,
            this.logList,
          ),
          this.chat.el,
        ),
      ),
    );
    this.fit = new BoardFit(this.boardHost, {
      below: [this.clockBottom],
      watch: [this.head, this.boardInfo],
    });
  }

  onStatus() {
    this.render();
  }

  renderSoundToggle() {
    const off = sounds.muted;
    this.soundToggle.textContent = off ? "Sound off" : "Sound on";
    this.soundToggle.setAttribute("aria-pressed", off ? "false" : "true");
    this.soundToggle.dataset.muted = off ? "true" : "false";
  }

  /** A sound for what changed since the last update we heard (same seat or spectator). */
  playSound(u) {
    const prev = this.heard;
    this.heard = u;
    if (!prev || prev.you !== u.you) return;
    const name = soundFor(prev, u);
    if (name) sounds.play(name);
  }

  /** Send a move for the perspective seat; rejects (and tells why) when refused. */
  async send(text) {
    const u = this.app.latest(this.id);
    if (!u) throw new Error("no room");
    // the version the move was chosen at: refused if the position changed since (another
    // seat sealing its move in a simultaneous turn does not count as a change)
    const msg = { type: "move", room: this.id, move: text, seat: u.you, version: u.version };
    try {
      await this.app.request(msg);
    } catch (err) {
      if (err.code === "stale_version")
        toast("The position changed meanwhile — have another look.");
      else this.app.fail(err);
      if (this.board) this.board.release();
      throw err;
    }
  }

  render() {
    const u = this.app.latest(this.id);
    if (!u) return;
    const info = this.app.info(u.game);
    const you = u.you;
    this.title.textContent = info.title || u.game;
    document.title = tabTitle(u, info.title || u.game);
    this.watchLink.hidden = this.app.spectatorOnly;
    const key = `${u.game}/${info.board}/${you}/${this.toggles.flipped}/${this.toggles.pieceSet()}`;
    if (this.boardKey !== key) {
      this.boardHost.replaceChildren();
      this.infoHost.replaceChildren();
      this.infoHost.hidden = false; // a board may hide it when it has nothing to say
      this.board = createBoard(info, this.boardHost, this.infoHost, {
        info,
        you,
        room: this.id,
        send: (text) => this.send(text),
        request: (msg) => this.app.request(msg),
        latest: () => this.app.latest(this.id),
        flip: this.toggles.flipped,
        // a premove may be queued now (while the seat waits; not in a replay)
        premoves: () => this.premoves,
      });
      this.boardKey = key;
      this.toggles.show(info, you !== null);
      const rules = howToPlay(info, "how-to-play");
      this.rulesHost.replaceChildren(...(rules ? [rules] : []));
      this.rulesHost.hidden = !rules;
    }
    const legal = this.app.legalFor(u);
    this.replay.setJudgements(this.analysis.judgements());
    this.replay.update(u, info);
    const past = this.replay.historic(u);
    this.premoves =
      !past &&
      this.toggles.premoves &&
      premovesApply(info) &&
      u.status === "playing" &&
      you !== null;
    // a replayed ply the analysis judged (or the last, at a finished game's end): its
    // better move as an arrow
    const shown = past ? this.replay.cursor : u.status === "over" ? u.turn : null;
    const arrows = this.analysis.arrowsAt(shown);
    if (past) this.board.update(plainView(past.update), [], { arrows });
    else this.board.update(plainView(u), legal, { arrows });
    this.playSound(u);
    this.chat.update(u);
    this.flagged = u.status === "over" ? this.app.flaggedSeat(this.id) : null;
    this.clocks.update(u, info, this.flagged);
    this.renderStatus(u, info);
    this.renderSeats(u, info);
    renderBoardClocks(this.clockTop, this.clockBottom, u, {
      narrow: this.narrow.matches,
      flipped: this.toggles.flipped,
      clockEl: (seat) => this.clocks.el(seat),
      chip: (seat) => chipFor(u, info, seat),
      label: (seat) => u.seats[seat].name || `${seatName(info, seat)}: open`,
    });
    this.actions.update(u, info, this.replay.movedSeats(u), !!this.tournamentBar.tournamentOf(u));
    this.renderLegal(u, info, legal);
    this.renderLog();
    renderGameOver(this.gameOver, u, info, this.flagged);
    this.watchNote.hidden = !watchNote(this.watchNote, u, info);
    const endHost = this.narrow.matches ? this.boardArea : this.boardInfo;
    if (this.gameOver.parentElement !== endHost) endHost.append(this.gameOver);
    this.analysis.update(u, info, this.replay.cursor);
    if (this.analysis.el.parentElement !== endHost) endHost.append(this.analysis.el);
    this.tournamentBar.update(u, this.replay.movedSeats(u));
    this.fit.schedule();
  }

  renderStatus(u, info) {
    let text;
    let tone = "";
    const you = u.you;
    const others = (seats) => seats.filter((s) => s !== you).map((s) => playerLabel(info, u, s));
    if (u.status === "waiting") {
      const open = u.seats.filter((s) => s.kind === "empty").length;
      const players = `${open} more player${open === 1 ? "" : "s"}`;
      text = `Waiting for ${players} — share the link or pick a seat.`;
    } else if (u.status === "over") {
      text = `Game over: ${outcomeText(info, u, this.flagged)}`;
      tone = "over";
    } else if (you === null) {
      const acting = u.to_act.map((s) => playerLabel(info, u, s));
      if (info.simultaneous && u.to_act.length > 1) {
        const done = u.sealed.map((s) => playerLabel(info, u, s));
        const moved = done.length ? ` — ${done.join(", ")} ${have(done)} moved` : "";
        text = `Watching · ${acting.join(" and ")} choose at the same time${moved}`;
      } else {
        text = `Watching · ${acting.join(", ")} to move`;
      }
    } else if (u.your_move) {
      const waiting = u.to_act.filter((s) => s !== you && !u.sealed.includes(s));
      const whom = waiting.map((s) => playerLabel(info, u, s)).join(", ") || "the others";
      text =
        `You have moved (${u.your_move}). Waiting for ${whom} — ` +
        "you may still change your move.";
    } else if (u.to_act.includes(you)) {
      const sealedOthers = others(u.sealed);
      text = sealedOthers.length
        ? `${sealedOthers.join(", ")} ${have(sealedOthers)} moved — your move`
        : "Your move";
      if (info.simultaneous && u.to_act.length > 1 && !sealedOthers.length)
        text = "Your move — both sides move at the same time";
      tone = "you";
    } else {
      text = `Waiting for ${u.to_act.map((s) => playerLabel(info, u, s)).join(", ")}`;
    }
    if (!this.app.conn.online) text += " (reconnecting…)";
    this.status.textContent = text;
    this.status.dataset.tone = tone;
  }

  renderSeats(u, info) {
    const items = seatItems(u, info, {
      held: new Set(this.app.heldSeats(this.id)),
      flagged: this.flagged,
      spectatorOnly: this.app.spectatorOnly,
      clockEl: (seat) => (this.narrow.matches ? null : this.clocks.el(seat)), // else by the board
      take: (seat) => this.take(seat),
    });
    this.seatsList.replaceChildren(...items);
    const rated = u.rated;
    this.ratedLine.hidden = !rated;
    this.ratedLine.textContent = rated ? `Rated game · ${rated.category.split(":").pop()}` : "";
  }

  async take(seat) {
    const name = this.playerName();
    if (!name) return;
    try {
      await this.app.takeSeat(this.id, seat, this.playerName());
    } catch (err) {
      this.app.fail(err);
    }
  }

  renderLegal(u, info, legal) {
    const show = legal.length > 0 && !OWN_MOVE_LIST.has(info.board);
    this.legalList.hidden = !show;
    if (!show) {
      this.legalMoves.replaceChildren();
      return;
    }
    this.legalCount.textContent = `(${legal.length})`;
    this.legalMoves.replaceChildren(
      ...legal.map((t) =>
        h(
          "button",
          {
            type: "button",
            class: "secondary small",
            dataset: { legal: t },
            onclick: () => this.send(t).catch(() => {}),
          },
          t,
        ),
      ),
    );
  }

  renderLog() {
    const r = this.app.room(this.id);
    this.logList.replaceChildren(...r.log.slice(0, 40).map((e) => h("li", {}, e.text)));
    this.logEmpty.hidden = r.log.length > 0;
    const u = this.app.latest(this.id);
    // a player (a rematch or a pairing the other side opened) was there from the start
    this.logEmpty.textContent =
      !u || u.turn === 0
        ? "Nothing has happened yet."
        : u.you !== null && u.you !== undefined
          ? "The game began: the moves so far are in the move list."
          : "You came in during the game: the moves before are in the move list.";
  }
}

/** "has" or "have", for a list of players. */
function have(names) {
  return names.length === 1 ? "has" : "have";
}
