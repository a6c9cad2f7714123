// The lobby: create a room (createroom.js: game, options from its schema, who sits where),
// the open rooms one can join and the games in progress somebody plays in (both polled every
// few seconds), and the rooms this browser plays in.

import { PlayPanel } from "./account.js"; // accounts (issue 13)
import { ComputerPanel } from "./computer.js";
import { CreateRoomForm } from "./createroom.js";
import { h } from "./dom.js";
import { storage } from "./storage.js";
import { seatName } from "./text.js";

const POLL_MS = 3000;

export class LobbyView {
  constructor(app, host, { playerName }) {
    this.app = app;
    this.host = host;
    this.playerName = playerName;
    this.openRooms = [];
    this.liveRooms = [];
    this.timer = null;
    this.el = h("div", { class: "lobby-view" });
    host.replaceChildren(this.el);
    this.form = null;
    this.onReady = () => this.refresh(true);
    this.onHeld = () => this.renderRooms();
    this.onUpdate = () => this.renderRooms();
    app.addEventListener("ready", this.onReady);
    app.addEventListener("held", this.onHeld);
    app.addEventListener("update", this.onUpdate);
    this.build();
    if (app.ready) this.refresh(true);
    this.timer = setInterval(() => this.refresh(false), POLL_MS);
  }

  destroy() {
    if (this.play) this.play.destroy(); // accounts (issue 13)
    if (this.computer) this.computer.destroy();
    clearInterval(this.timer);
    this.app.removeEventListener("ready", this.onReady);
    this.app.removeEventListener("held", this.onHeld);
    this.app.removeEventListener("update", this.onUpdate);
  }

  async refresh(rebuildForm) {
    if (!this.app.ready) return;
    if (rebuildForm && !this.form) this.renderForm();
    try {
      // rooms one can join; games in progress a player is connected to (not abandoned ones)
      // both lists from one read on the server: a room is never in both
      const lobby = await this.app.request({ type: "lobby" });
      this.openRooms = lobby.open;
      this.liveRooms = lobby.playing;
    } catch {
      return;
    }
    this.renderRooms();
  }

  build() {
    this.formBox = h(
      "section",
      { class: "panel create", "aria-labelledby": "create-h" },
      h("h2", { id: "create-h" }, "New game"),
      h("p", { class: "muted" }, "Connecting to the server…"),
    );
    this.openList = h("ul", { class: "rooms open-rooms", "aria-label": "Open rooms" });
    this.liveList = h("ul", { class: "rooms live-rooms", "aria-label": "Games in progress" });
    this.mineList = h("ul", { class: "rooms my-rooms", "aria-label": "Your games" });
    this.el.append(
      h(
        "div",
        { class: "page-head" },
        h("h1", {}, "Lobby"),
        h(
          "a",
          { class: "button secondary", href: "#/tournaments", id: "to-tournaments" },
          "Tournaments",
        ),
      ), // issue 38
      h(
        "div",
        { class: "lobby" },
        this.formBox,
        h(
          "section",
          { class: "panel", "aria-labelledby": "rooms-h" },
          h("h2", { id: "rooms-h" }, "Open rooms"),
          this.openList,
          h("h2", { id: "live-h", class: "live-h" }, "Games in progress"),
          this.liveList,
          h("h2", { id: "mine-h", class: "mine-h" }, "Your games"),
          this.mineList,
        ),
      ),
    );
    // -- accounts (issue 13): quick pairing, seeks, create a seek ---------------------------
    this.play = new PlayPanel(this.app, this.playerName);
    this.el.querySelector(".lobby").prepend(this.play.el);
    // -- end accounts
    this.computer = new ComputerPanel(this.app, this.playerName); // first: one click away
    this.el.querySelector(".lobby").prepend(this.computer.el);
    if (this.app.ready) this.renderForm();
  }

  // -- create ---------------------------------------------------------------------------

  renderForm() {
    if (!this.app.games.length) return;
    this.form = new CreateRoomForm(this.app, this.playerName);
    this.formBox.replaceChildren(this.formBox.firstChild, this.form.el);
  }

  // -- rooms ----------------------------------------------------------------------------

  renderRooms() {
    const heldIds = new Set(this.app.held.keys());
    const open = this.openRooms.filter((r) => !heldIds.has(r.room)).slice(0, 40);
    this.openList.replaceChildren(
      ...(open.length
        ? open.map((r) => this.roomCard(r, false))
        : [h("li", { class: "empty-note" }, "No open rooms right now — create one.")]),
    );
    const live = this.liveRooms.filter((r) => !heldIds.has(r.room));
    this.liveList.replaceChildren(
      ...(live.length
        ? live.map((r) => this.roomCard(r, false))
        : [h("li", { class: "empty-note" }, "No games being played right now.")]),
    );
    // newest first (by this browser's last word of each room), the rooms held now and
    // the unfinished ones remembered
    const ids = new Set(heldIds);
    for (const r of storage.rooms()) if (r.tokens && r.status !== "over") ids.add(r.id);
    const when = (id) => storage.room(id).t || 0;
    const mine = [...ids].sort((a, b) => when(b) - when(a)).map((id) => this.myCard(id));
    this.mineList.replaceChildren(
      ...(mine.length
        ? mine.slice(0, 12)
        : [h("li", { class: "empty-note" }, "You are not playing anywhere yet.")]),
    );
  }

  roomCard(r, mine) {
    const info = this.app.info(r.game);
    const seats = r.seats.map((s, i) =>
      s.kind === "empty"
        ? `${seatName(info, i)}: open`
        : `${seatName(info, i)}: ${s.name}${s.kind === "bot" ? " (bot)" : ""}`,
    );
    const actions = [];
    for (const seat of r.open_seats) {
      actions.push(
        h(
          "button",
          {
            type: "button",
            class: "small",
            dataset: { takeSeat: seat, room: r.room },
            onclick: () => this.take(r.room, seat),
          },
          `Sit as ${seatName(info, seat)}`,
        ),
      );
    }
    actions.push(
      h(
        "a",
        { class: "button secondary small", href: `#room=${r.room}`, dataset: { watch: r.room } },
        r.status === "waiting" ? "View" : "Watch",
      ),
    );
    return h(
      "li",
      { class: `room-card${mine ? " mine" : ""}`, dataset: { room: r.room, game: r.game } },
      h(
        "div",
        { class: "head" },
        h("span", { class: "title" }, r.title),
        h(
          "span",
          { class: "badge" },
          r.status === "waiting" ? "waiting for players" : `playing · turn ${r.turn}`,
        ),
        h("span", { class: "muted" }, r.room),
      ),
      h("div", {}, seats.join(" · ")),
      h("div", { class: "actions" }, actions),
    );
  }

  myCard(id) {
    const u = this.app.latest(id);
    const stored = storage.room(id);
    const info = this.app.info(u ? u.game : stored.game);
    let badge = "";
    let cls = "badge";
    if (u) {
      const p = this.app.perspective(id);
      if (u.status === "over") {
        badge = resultWord(u, p);
        cls += " over";
      } else if (u.status === "waiting") badge = "waiting for players";
      else if (p !== null && u.to_act.includes(p) && !u.your_move) {
        badge = "your move";
        cls += " turn";
      } else badge = "playing";
    }
    return h(
      "li",
      { class: "room-card mine", dataset: { room: id } },
      h(
        "div",
        { class: "head" },
        h("span", { class: "title" }, info.title || stored.game || "Room"),
        badge ? h("span", { class: cls }, badge) : null,
        stored.t
          ? h(
              "time",
              { class: "muted", datetime: new Date(stored.t).toISOString() },
              dateText(stored.t),
            )
          : null,
        h("span", { class: "muted" }, id),
      ),
      u
        ? h(
            "div",
            {},
            u.seats.map((s, i) => `${seatName(info, i)}: ${s.name || "open"}`).join(" · "),
          )
        : null,
      h(
        "div",
        { class: "actions" },
        h("a", { class: "button small", href: `#room=${id}` }, "Go to game"),
      ),
    );
  }

  async take(id, seat) {
    const name = this.playerName();
    if (!name) return;
    try {
      await this.app.takeSeat(id, seat, name);
      location.hash = `#room=${id}`;
    } catch (err) {
      this.app.fail(err);
      this.refresh(false);
    }
  }
}

/** A finished game's result for the seat `p` plays (null: a spectator): won, lost, a draw,
 *  or the place in a game of more than two. */
export function resultWord(u, p) {
  const ranks = (u.outcome && u.outcome.ranks) || [];
  if (p === null || p === undefined || ranks[p] === undefined) return "game over";
  const mine = ranks[p];
  const shared = ranks.filter((r) => r === mine).length > 1;
  if (ranks.every((r) => r === mine)) return "draw";
  if (ranks.length === 2) return mine === 1 ? "won" : "lost";
  if (mine === 1 && !shared) return "won";
  return `${shared ? "shared " : ""}${ORDINALS[mine] || `${mine}th`} of ${ranks.length}`;
}

const ORDINALS = { 1: "1st", 2: "2nd", 3: "3rd", 4: "4th" };

/** When: the time today, else the day. */
function dateText(t) {
  const d = new Date(t);
  const today = new Date().toDateString() === d.toDateString();
  return today
    ? d.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })
    : d.toLocaleDateString([], { day: "numeric", month: "short", year: "numeric" });
}
