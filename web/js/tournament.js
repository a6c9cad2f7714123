// One tournament's page (#/tournament/ID): what it is, the countdown to its start, its end or
// its next round, join / withdraw (a pause in an arena) / come back, the creator's cancel
// (before the start) and "add a bot", the live standings and the games (tournamentstandings.js).
//
// It watches the tournament (`tournament_watch`): the server pushes the whole view again on
// every change. "Your next game" needs nothing here: a `paired` message (with this
// tournament's id) lands the player at the board by the same path as a seek's pairing
// (account.js, landInRoom), and the board's tournament bar leads back here.

import { account, landInRoom } from "./account.js";
import { h, toast } from "./dom.js";
import { storage } from "./storage.js";
import { createdHere } from "./tournamentform.js";
import { NextRound } from "./tournamentnext.js";
import { gamesList, standingsTable } from "./tournamentstandings.js";
import { SYSTEMS, describe, specOf, timeText, timesOf } from "./tournamentwords.js";

export class TournamentView {
  constructor(app, host, id, { playerName }) {
    this.app = app;
    this.id = id;
    this.playerName = playerName;
    this.view = null;
    this.me = null;
    this.mineOnly = false;
    this.confirming = false;
    this.botLevel = null;
    this.title = h("h1", { id: "t-title" }, "Tournament");
    this.what = h("p", { class: "t-what muted", id: "t-what" });
    this.clock = h("p", { class: "t-clock", id: "t-clock", role: "timer", "aria-live": "off" });
    this.status = h(
      "p",
      { class: "t-status", id: "t-status", role: "status", "aria-live": "polite" },
      "Loading the tournament…",
    );
    this.actions = h("div", { class: "t-actions", id: "t-actions" });
    this.next = new NextRound(app, "t-next"); // a round's interlude: your result, your next game
    this.standings = h("section", {
      class: "panel t-standings-panel",
      "aria-labelledby": "t-standings-h",
    });
    this.games = h("section", { class: "panel t-games-panel", "aria-labelledby": "t-games-h" });
    this.rules = h("section", { class: "panel t-rules", "aria-labelledby": "t-rules-h" });
    this.el = h(
      "div",
      { class: "tourney-view", dataset: { tournament: id } },
      h(
        "div",
        { class: "page-head" },
        this.title,
        h(
          "a",
          { class: "button secondary small", href: "#/tournaments", id: "to-tournaments" },
          "← Tournaments",
        ),
      ),
      this.what,
      this.clock,
      this.status,
      this.next.el,
      this.actions,
      h(
        "div",
        { class: "tourney" },
        this.standings,
        h("div", { class: "t-side" }, this.games, this.rules),
      ),
    );
    host.replaceChildren(this.el);
    this.onReady = () => this.watch();
    this.onPush = (e) => {
      const m = e.detail;
      if (m.type === "tournament" && m.tournament === this.id) this.show(m);
    };
    this.onAccount = () => this.render();
    app.addEventListener("ready", this.onReady);
    app.addEventListener("account", this.onAccount);
    app.conn.addEventListener("push", this.onPush);
    this.timer = setInterval(() => this.tick(), 1000);
    if (app.ready) this.watch();
  }

  destroy() {
    clearInterval(this.timer);
    this.app.removeEventListener("ready", this.onReady);
    this.app.removeEventListener("account", this.onAccount);
    this.app.conn.removeEventListener("push", this.onPush);
    if (this.app.conn.online)
      this.app.request({ type: "tournament_unwatch", tournament: this.id }).catch(() => {});
  }

  async watch() {
    try {
      this.show(await this.app.request({ type: "tournament_watch", tournament: this.id }));
    } catch (err) {
      if (err.code === "offline" || err.code === "disconnected") return;
      this.title.textContent = "Tournament";
      this.status.textContent =
        err.code === "no_such_tournament" || err.code === "not_found"
          ? "There is no such tournament."
          : err.message || String(err);
    }
  }

  show(msg) {
    this.view = msg.view || {};
    this.me = msg.me || { joined: false, paused: false, game: null };
    this.render();
  }

  /** Who we are in the standings: an account by its key, a guest by name. */
  who() {
    return {
      key: account.user ? `u:${account.user}` : null,
      name: account.user || storage.name || null,
    };
  }

  /** The creator: an account is named in the view; a guest's tournaments are remembered here. */
  isCreator(v) {
    if (account.user && v.creator === account.user) return true;
    return !v.creator && createdHere().includes(this.id);
  }

  render() {
    const v = this.view;
    if (!v) return;
    const spec = specOf(v);
    this.spec = spec;
    this.title.textContent = spec.name || "Tournament";
    document.title = `${spec.name || "Tournament"} · Kibitz`;
    this.what.textContent = describe(this.app, v);
    this.status.textContent = this.statusText(v);
    this.next.show(v.status === "running" ? this.me.next : null);
    this.el.dataset.status = v.status || "";
    this.renderActions(v, spec);
    this.standings.replaceChildren(
      h("h2", { id: "t-standings-h" }, "Standings"),
      standingsTable(v, spec, this.who()),
    );
    this.renderGames(v);
    this.renderRules(spec);
    this.tick();
  }

  statusText(v) {
    const me = this.me;
    const n =
      typeof v.players === "number"
        ? v.players
        : Array.isArray(v.standings)
          ? v.standings.length
          : 0;
    const field = `${n} player${n === 1 ? "" : "s"}`;
    if (v.status === "cancelled") return "This tournament was cancelled.";
    if (v.status === "finished") {
      const first = (v.standings || [])[0];
      return first ? `Finished · ${field} · winner: ${first.name}` : "Finished.";
    }
    const system = this.spec.system;
    const away =
      system === "arena"
        ? "You are paused: come back to be paired again."
        : system === "swiss"
          ? "You withdrew: come back to play the next rounds."
          : "You withdrew: a round robin takes nobody back.";
    const mine = me.joined ? (me.paused ? away : "You are in.") : "You have not joined.";
    const most = this.spec.max_players ? ` (at most ${this.spec.max_players})` : "";
    return `${v.status === "running" ? "Running" : "Upcoming"} · ${field}${most} · ${mine}`;
  }

  renderActions(v, spec) {
    const me = this.me;
    const open = v.status === "upcoming" || v.status === "running";
    const arena = spec.system === "arena";
    const full = typeof v.players === "number" && v.players >= spec.max_players;
    const items = [];
    if (me.game && me.game.room) {
      items.push(
        h(
          "p",
          { class: "your-game", id: "t-your-game" },
          "Your game is on. ",
          h(
            "a",
            {
              class: "button",
              href: `#room=${me.game.room}`,
              id: "t-go-board",
              onclick: (e) => this.goToBoard(e, spec),
            },
            "Go to the board",
          ),
        ),
      );
    }
    if (open) {
      if (!me.joined && full)
        items.push(h("span", { class: "muted", id: "t-full" }, "The tournament is full."));
      else if (!me.joined)
        items.push(this.button("t-join", "Join", () => this.act("tournament_join")));
      else if (me.paused && spec.system !== "round_robin")
        items.push(this.button("t-return", "Come back", () => this.act("tournament_join")));
      else if (!me.paused) {
        const label = arena && v.status === "running" ? "Pause" : "Withdraw";
        items.push(
          this.button("t-withdraw", label, () => this.act("tournament_withdraw"), "secondary"),
        );
      }
    }
    const creator = this.isCreator(v);
    if (creator && !full && (v.status === "upcoming" || (arena && v.status === "running")))
      items.push(this.botPicker(spec));
    if (creator && v.status === "upcoming") {
      if (this.confirming) {
        items.push(
          h(
            "span",
            { class: "confirm", role: "group", "aria-label": "Confirm cancelling" },
            h("span", {}, "Cancel this tournament?"),
            this.button(
              "t-cancel-yes",
              "Yes, cancel it",
              () => {
                this.confirming = false;
                this.act("tournament_cancel");
              },
              "danger",
            ),
            this.button(
              "t-cancel-no",
              "Keep it",
              () => {
                this.confirming = false;
                this.render();
              },
              "secondary",
            ),
          ),
        );
      } else {
        items.push(
          this.button(
            "t-cancel",
            "Cancel tournament",
            () => {
              this.confirming = true;
              this.render();
              this.el.querySelector("#t-cancel-yes").focus();
            },
            "secondary",
          ),
        );
      }
    }
    this.actions.replaceChildren(...items);
    this.actions.hidden = !items.length;
  }

  /** To our game's board, its seat token kept first (the path of a `paired` message). */
  goToBoard(e, spec) {
    const game = this.me.game;
    if (!game || typeof game.token !== "string") return; // the link alone: the room knows our seat
    e.preventDefault();
    landInRoom(this.app, {
      room: game.room,
      seat: game.seat,
      token: game.token,
      game: spec.game,
      tournament: this.id,
    });
  }

  button(id, label, onclick, cls = "") {
    return h("button", { type: "button", id, class: cls || null, onclick }, label);
  }

  /** "Add a bot" with its level, for the creator. */
  botPicker(spec) {
    const info = this.app.info(spec.game);
    const levels = (Array.isArray(info.bots) ? info.bots : []).map((b) =>
      typeof b === "string" ? b : b.name,
    );
    if (!levels.length) return null;
    if (!levels.includes(this.botLevel))
      this.botLevel = levels.includes("easy") ? "easy" : levels[0];
    const select = h(
      "select",
      {
        id: "t-bot-level",
        name: "t-bot-level",
        onchange: () => {
          this.botLevel = select.value;
        },
      },
      levels.map((l) => h("option", { value: l, selected: l === this.botLevel }, l)),
    );
    return h(
      "span",
      { class: "add-bot" },
      h("label", { for: "t-bot-level" }, "Bot level"),
      select,
      this.button(
        "t-add-bot",
        "Add a bot",
        () => this.act("tournament_add_bot", { level: select.value }),
        "secondary",
      ),
    );
  }

  async act(type, extra = {}) {
    const msg = { type, tournament: this.id, ...extra };
    if (type === "tournament_join" && !account.user) {
      const name = this.playerName(); // a guest plays under the name in the header
      if (!name) return;
      msg.name = name;
    }
    try {
      await this.app.request(msg);
      if (type === "tournament_cancel") toast("The tournament is cancelled.");
    } catch (err) {
      this.app.fail(err);
    }
  }

  renderGames(v) {
    const toggle = h(
      "button",
      {
        type: "button",
        class: "small secondary",
        id: "t-mine",
        "aria-pressed": this.mineOnly ? "true" : "false",
        onclick: () => {
          this.mineOnly = !this.mineOnly;
          this.render();
        },
      },
      "Only my games",
    );
    this.games.replaceChildren(
      h("div", { class: "t-games-head" }, h("h2", { id: "t-games-h" }, "Games"), toggle),
      ...gamesList(v, this.who().name, this.mineOnly),
    );
  }

  renderRules(spec) {
    const lines = [];
    if (spec.system === "arena") {
      if (spec.seats > 2) {
        const places = Array.from({ length: spec.seats }, (_, i) => 2 * (spec.seats - 1 - i)).join(
          ", ",
        );
        lines.push(
          `Tables of ${spec.seats}: 2 points for each player you finish ahead of, ` +
            `1 for each you tie with (the places are worth ${places}); first place alone is a win.`,
        );
      } else {
        lines.push("A win is worth 2 points, a draw 1, a loss 0.");
      }
      lines.push("You are paired again as soon as your game ends, with a player of a close score.");
      lines.push(
        "After two wins in a row you are on fire (the flame): " +
          "every game is worth double until one is not won.",
      );
      if (spec.berserk && !(spec.seats > 2))
        lines.push(
          "Berserk: before your first move, halve your clock for one more point if you win.",
        );
      lines.push("Pause to stop being paired; come back to go on.");
    } else {
      lines.push(
        spec.system === "swiss"
          ? "Each round pairs players of equal score who have not met, with colours balanced; " +
              "an odd player out gets a bye."
          : "Everyone plays everyone once (Berger tables); an odd field gives a bye each round.",
      );
      lines.push("A win is worth 1 point, a draw ½, a loss 0, a bye 1.");
      if (spec.interlude > 0)
        lines.push(
          `Between rounds, ${spec.interlude} s to see your result and your next opponent.`,
        );
      lines.push(
        "Ties are broken by Buchholz (BH: the sum of the opponents' scores), then " +
          "Sonneborn–Berger (SB: the scores of the opponents beaten plus half of those drawn).",
      );
    }
    this.rules.replaceChildren(
      h("h2", { id: "t-rules-h" }, `How ${SYSTEMS[spec.system] || "it"} works`),
      h(
        "ul",
        {},
        lines.map((l) => h("li", {}, l)),
      ),
    );
  }

  /** The countdown, once a second. */
  tick() {
    if (!this.view) return;
    const now = this.app.serverNow();
    const t = timesOf(this.view);
    let text = timeText(t, now);
    if (t.status === "upcoming" && t.starts_at && t.starts_at <= now) text = "Starting…";
    if (t.status === "running" && t.ends_at && t.ends_at <= now)
      text = "Time is up: the last games are being played";
    this.clock.textContent = text;
    this.next.tick();
    // the status line says so
    this.clock.hidden = t.status === "finished" || t.status === "cancelled";
  }
}
