// The lobby: create a room (game, options from its schema, who sits where), the open rooms
// one can join and the games in progress somebody plays in (both polled every few seconds),
// and the rooms this browser plays in.

import { PlayPanel } from "./account.js"; // accounts (issue 13)
import { ComputerPanel, levelLabel } from "./computer.js";
import { h, toast } from "./dom.js";
import { howToPlay } from "./help.js";
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
    this.formBox = h("section", { class: "panel create", "aria-labelledby": "create-h" },
      h("h2", { id: "create-h" }, "New game"),
      h("p", { class: "muted" }, "Connecting to the server…"));
    this.openList = h("ul", { class: "rooms open-rooms", "aria-label": "Open rooms" });
    this.liveList = h("ul", { class: "rooms live-rooms", "aria-label": "Games in progress" });
    this.mineList = h("ul", { class: "rooms my-rooms", "aria-label": "Your games" });
    this.el.append(
      h("div", { class: "page-head" }, h("h1", {}, "Lobby"),
        h("a", { class: "button secondary", href: "#/tournaments", id: "to-tournaments" }, "Tournaments")), // issue 38
      h("div", { class: "lobby" },
        this.formBox,
        h("section", { class: "panel", "aria-labelledby": "rooms-h" },
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
    const games = this.app.games;
    if (!games.length) return;
    const select = h("select", { id: "game", name: "game" },
      games.map((g) => h("option", { value: g.name }, g.title)));
    const desc = h("p", { class: "game-desc", id: "game-desc" });
    const rules = h("div", { class: "game-rules" });
    const optionsBox = h("div", { class: "options" });
    const seatsBox = h("div", { class: "seats-box" });
    const undoBox = h("div", {});
    const clockBox = this.clockFields();
    const spectatorBox = this.spectatorFields();
    const form = h("form", { "aria-labelledby": "create-h", novalidate: true },
      h("label", { class: "field", for: "game" }, h("span", {}, "Game"), select),
      desc, rules, optionsBox, seatsBox, clockBox, undoBox, spectatorBox,
      h("div", {}, h("button", { type: "submit", id: "create-room" }, "Create room")),
    );
    const build = () => {
      const info = this.app.info(select.value);
      desc.textContent = info.description || "";
      rules.replaceChildren(...[howToPlay(info, "game-rules")].filter(Boolean));
      optionsBox.replaceChildren(...this.optionFields(info));
      this.renderSeatChoices(seatsBox, info, info.min_seats);
      undoBox.replaceChildren(h("label", { class: "field check" },
        h("input", { type: "checkbox", name: "undo", id: "opt-undo", checked: !info.hidden_information }),
        h("span", {}, "Allow take-backs", info.hidden_information ? h("small", {}, " (off by default: a take-back would replay with knowledge gained)") : null)));
      this.showClockFields(info);
      this.seeAllField.hidden = !info.hidden_information;
      if (!info.hidden_information) this.seeAllInput.checked = false;
    };
    select.addEventListener("change", build);
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      this.create(form, select.value);
    });
    build();
    this.form = form;
    this.formBox.replaceChildren(this.formBox.firstChild, form);
  }

  // -- spectators -----------------------------------------------------------------------

  spectatorFields() {
    this.delayInput = h("input", { id: "opt-spectator-delay", name: "spectator_delay", type: "number", inputmode: "numeric", min: 0, max: 50, step: 1, value: 0 });
    this.seeAllInput = h("input", { id: "opt-see-all", name: "spectators_see_all", type: "checkbox" });
    this.seeAllField = h("label", { class: "field check", for: "opt-see-all" }, this.seeAllInput,
      h("span", {}, "Spectators see everything",
        h("small", {}, " (every seat's view, hidden pieces too; needs a delay of at least 2 turns — anybody could watch, a player too, from a second tab)")));
    return h("fieldset", { class: "spectator-choice", id: "spectator-choice" },
      h("legend", {}, "Spectators"),
      h("label", { class: "field", for: "opt-spectator-delay" }, h("span", {}, "Spectator delay (turns)"), this.delayInput,
        h("small", {}, "0: spectators watch live; 1–50: they see the game that many turns late, and players may not watch their own game")),
      this.seeAllField);
  }

  /** The spectator settings of the form, or null after telling what is wrong. */
  spectatorSettings() {
    const raw = this.delayInput.value.trim();
    const delay = raw === "" ? 0 : Number(raw);
    if (!Number.isInteger(delay) || delay < 0 || delay > 50) {
      toast("The spectator delay must be a whole number from 0 to 50");
      this.delayInput.focus();
      return null;
    }
    const seeAll = this.seeAllInput.checked && !this.seeAllField.hidden;
    if (seeAll && delay < 2) {
      toast("Spectators may see everything only with a delay of at least 2 turns");
      this.delayInput.focus();
      return null;
    }
    const out = {};
    if (delay) out.spectator_delay = delay;
    if (seeAll) out.spectators_see_all = true;
    return out;
  }

  // -- the clock ------------------------------------------------------------------------

  clockFields() {
    const type = h("select", { id: "clock-type", name: "clock-type" },
      h("option", { value: "none" }, "No clock"),
      h("option", { value: "fischer" }, "Fischer: time + increment"),
      h("option", { value: "per_move" }, "Per move"));
    const num = (id, value, attrs) => h("input", { id, name: id, type: "number", inputmode: "decimal", value, ...attrs });
    this.clockInputs = {
      type,
      base: num("clock-base", 5, { min: 0.5, max: 1440, step: "any" }),
      increment: num("clock-increment", 2, { min: 0, max: 3600, step: 1 }),
      seconds: num("clock-seconds", 30, { min: 1, max: 86400, step: 1 }),
      onTimeout: h("select", { id: "clock-on-timeout", name: "on-timeout" },
        h("option", { value: "forfeit" }, "Forfeit — the seat that has not moved loses"),
        h("option", { value: "random" }, "Random move — one is played for it")),
    };
    const c = this.clockInputs;
    this.clockParts = {
      fischer: h("div", { class: "clock-fields" },
        h("label", { class: "field", for: "clock-base" }, h("span", {}, "Minutes per player"), c.base),
        h("label", { class: "field", for: "clock-increment" }, h("span", {}, "Increment (seconds per move)"), c.increment)),
      per_move: h("div", { class: "clock-fields" },
        h("label", { class: "field", for: "clock-seconds" }, h("span", {}, "Seconds per move"), c.seconds)),
      onTimeout: h("label", { class: "field", for: "clock-on-timeout" },
        h("span", {}, "On timeout"), c.onTimeout,
        h("small", {}, "When a clock runs out while both sides choose their move at the same time")),
    };
    type.addEventListener("change", () => this.showClockFields(this.clockInfo));
    return h("fieldset", { class: "clock-choice", id: "clock-choice" },
      h("legend", {}, "Clock"),
      h("label", { class: "field", for: "clock-type" }, h("span", {}, "Time control"), type),
      this.clockParts.fischer, this.clockParts.per_move, this.clockParts.onTimeout);
  }

  showClockFields(info) {
    this.clockInfo = info;
    const kind = this.clockInputs.type.value;
    this.clockParts.fischer.hidden = kind !== "fischer";
    this.clockParts.per_move.hidden = kind !== "per_move";
    this.clockParts.onTimeout.hidden = kind === "none" || !(info && info.simultaneous);
  }

  /** The clock settings of the form: [settings fields] or null after telling what is wrong. */
  clockSettings(info) {
    const c = this.clockInputs;
    const kind = c.type.value;
    if (kind === "none") return {};
    const read = (input, lo, hi, what) => {
      const v = Number(input.value);
      if (input.value.trim() === "" || !Number.isFinite(v) || v < lo || v > hi) {
        toast(`${what} must be a number from ${lo} to ${hi}`);
        input.focus();
        return null;
      }
      return v;
    };
    let clock;
    if (kind === "fischer") {
      const minutes = read(c.base, 0.5, 1440, "Minutes per player");
      if (minutes === null) return null;
      const increment = read(c.increment, 0, 3600, "The increment");
      if (increment === null) return null;
      clock = { type: "fischer", base: Math.round(minutes * 60 * 10) / 10, increment };
    } else {
      const seconds = read(c.seconds, 1, 86400, "Seconds per move");
      if (seconds === null) return null;
      clock = { type: "per_move", seconds };
    }
    const out = { clock };
    if (info.simultaneous) out.on_timeout = c.onTimeout.value;
    return out;
  }

  optionFields(info) {
    const plain = [];
    const advanced = [];
    for (const [name, opt] of Object.entries(info.options || {})) {
      const id = `opt-${name}`;
      let input;
      if (opt.choices) {
        input = h("select", { id, name, dataset: { option: name, kind: opt.type } },
          opt.choices.map((c) => h("option", { value: String(c), selected: c === opt.default }, String(c))));
      } else if (opt.type === "bool") {
        input = h("input", { id, name, type: "checkbox", checked: !!opt.default, dataset: { option: name, kind: opt.type } });
      } else if (opt.type === "int") {
        input = h("input", { id, name, type: "number", value: opt.default, min: opt.minimum, max: opt.maximum, step: 1, dataset: { option: name, kind: opt.type } });
      } else {
        input = h("input", { id, name, type: "text", value: opt.default, spellcheck: "false", dataset: { option: name, kind: opt.type } });
      }
      const field = h("label", { class: opt.type === "bool" ? "field check" : "field", for: id },
        h("span", {}, name.replaceAll("_", " ")), input, h("small", {}, opt.description || ""));
      (opt.type === "str" && !opt.choices ? advanced : plain).push(field);
    }
    if (advanced.length) {
      plain.push(h("details", { class: "advanced" }, h("summary", {}, "More options"), h("div", { class: "options" }, advanced)));
    }
    return plain;
  }

  renderSeatChoices(box, info, count) {
    const children = [];
    if (info.max_seats > info.min_seats) {
      const n = h("input", { type: "number", id: "seat-count", name: "seats", min: info.min_seats, max: info.max_seats, value: count });
      n.addEventListener("change", () => {
        const v = Math.max(info.min_seats, Math.min(info.max_seats, Number(n.value) || info.min_seats));
        this.renderSeatChoices(box, info, v);
        box.querySelector("#seat-count").focus();
      });
      children.push(h("label", { class: "field", for: "seat-count" }, h("span", {}, "Players"), n));
    }
    const bots = Array.isArray(info.bots) ? info.bots : [];
    const levels = new Map((Array.isArray(info.levels) ? info.levels : []).map((l) => [l.strength, levelLabel(l)]));
    const botLabel = (name) => levels.get(name) || name;
    const rows = [];
    for (let seat = 0; seat < count; seat++) {
      const id = `seat-${seat}`;
      rows.push(h("div", { class: "seat-choice" },
        h("label", { for: id }, seatName(info, seat)),
        h("select", { id, name: id, dataset: { seat } },
          h("option", { value: "open" }, "Open — for anyone"),
          h("option", { value: "me", selected: seat === 0 }, "Me"),
          bots.map((b) => {
            const name = typeof b === "string" ? b : b.name;
            const title = typeof b === "string" ? botLabel(b) : b.title || b.name;
            return h("option", { value: `bot:${name}` }, `Bot: ${title}`);
          }),
        )));
    }
    children.push(h("fieldset", { class: "seat-choices" }, h("legend", {}, "Who sits where"), rows));
    box.replaceChildren(...children);
  }

  async create(form, game) {
    const info = this.app.info(game);
    const name = this.playerName();
    if (!name) return;
    const options = {};
    for (const input of form.querySelectorAll("[data-option]")) {
      const opt = info.options[input.dataset.option];
      let value;
      if (opt.type === "bool") value = input.checked;
      else if (opt.type === "int") value = Number(input.value);
      else value = input.value;
      if (opt.type === "int" && !Number.isInteger(value)) {
        toast(`${input.dataset.option} must be a whole number`);
        input.focus();
        return;
      }
      if (value !== opt.default) options[input.dataset.option] = value;
    }
    const seatSelects = [...form.querySelectorAll("select[data-seat]")];
    const undo = form.querySelector("#opt-undo").checked;
    const clock = this.clockSettings(info);
    if (clock === null) return;
    const spectators = this.spectatorSettings();
    if (spectators === null) return;
    const button = form.querySelector("#create-room");
    button.disabled = true;
    try {
      // the creator's first seat and every bot are taken in the room's first append: the
      // lobby never offers those seats to somebody else
      const mine = seatSelects.filter((sel) => sel.value === "me").map((sel) => Number(sel.dataset.seat));
      const bots = seatSelects.filter((sel) => sel.value.startsWith("bot:"))
        .map((sel) => ({ seat: Number(sel.dataset.seat), strength: sel.value.slice(4) }));
      const request = {
        type: "create_room", game, options, seats: seatSelects.length, settings: { undo, ...clock, ...spectators }, bots,
      };
      if (mine.length) Object.assign(request, { sit: mine[0], name });
      const reply = await this.app.request(request);
      const id = reply.room;
      storage.updateRoom(id, (d) => { d.game = game; d.status = "waiting"; });
      if (mine.length) this.app.heldSeat(id, reply);
      for (const seat of mine.slice(1)) await this.app.takeSeat(id, seat, name);
      location.hash = `#room=${id}`;
    } catch (err) {
      this.app.fail(err);
    } finally {
      button.disabled = false;
    }
  }

  // -- rooms ----------------------------------------------------------------------------

  renderRooms() {
    const heldIds = new Set(this.app.held.keys());
    const open = this.openRooms.filter((r) => !heldIds.has(r.room)).slice(0, 40);
    this.openList.replaceChildren(...(open.length ? open.map((r) => this.roomCard(r, false))
      : [h("li", { class: "empty-note" }, "No open rooms right now — create one.")]));
    const live = this.liveRooms.filter((r) => !heldIds.has(r.room));
    this.liveList.replaceChildren(...(live.length ? live.map((r) => this.roomCard(r, false))
      : [h("li", { class: "empty-note" }, "No games being played right now.")]));
    const mine = [];
    const seen = new Set();
    for (const id of heldIds) {
      seen.add(id);
      mine.push(this.myCard(id));
    }
    for (const r of storage.rooms()) {
      if (seen.has(r.id) || !r.tokens || r.status === "over") continue;
      seen.add(r.id);
      mine.push(this.myCard(r.id));
    }
    this.mineList.replaceChildren(...(mine.length ? mine.slice(0, 12) : [h("li", { class: "empty-note" }, "You are not playing anywhere yet.")]));
  }

  roomCard(r, mine) {
    const info = this.app.info(r.game);
    const seats = r.seats.map((s, i) => (s.kind === "empty" ? `${seatName(info, i)}: open` : `${seatName(info, i)}: ${s.name}${s.kind === "bot" ? " (bot)" : ""}`));
    const actions = [];
    for (const seat of r.open_seats) {
      actions.push(h("button", {
        type: "button",
        class: "small",
        dataset: { takeSeat: seat, room: r.room },
        onclick: () => this.take(r.room, seat),
      }, `Sit as ${seatName(info, seat)}`));
    }
    actions.push(h("a", { class: "button secondary small", href: `#room=${r.room}`, dataset: { watch: r.room } }, r.status === "waiting" ? "View" : "Watch"));
    return h("li", { class: `room-card${mine ? " mine" : ""}`, dataset: { room: r.room, game: r.game } },
      h("div", { class: "head" },
        h("span", { class: "title" }, r.title),
        h("span", { class: "badge" }, r.status === "waiting" ? "waiting for players" : `playing · turn ${r.turn}`),
        h("span", { class: "muted" }, r.room)),
      h("div", {}, seats.join(" · ")),
      h("div", { class: "actions" }, actions));
  }

  myCard(id) {
    const u = this.app.latest(id);
    const stored = storage.room(id);
    const info = this.app.info(u ? u.game : stored.game);
    let badge = "";
    let cls = "badge";
    if (u) {
      const p = this.app.perspective(id);
      if (u.status === "over") { badge = "game over"; cls += " over"; }
      else if (u.status === "waiting") badge = "waiting for players";
      else if (p !== null && u.to_act.includes(p) && !u.your_move) { badge = "your move"; cls += " turn"; }
      else badge = "playing";
    }
    return h("li", { class: "room-card mine", dataset: { room: id } },
      h("div", { class: "head" },
        h("span", { class: "title" }, info.title || stored.game || "Room"),
        badge ? h("span", { class: cls }, badge) : null,
        h("span", { class: "muted" }, id)),
      u ? h("div", {}, u.seats.map((s, i) => `${seatName(info, i)}: ${s.name || "open"}`).join(" · ")) : null,
      h("div", { class: "actions" }, h("a", { class: "button small", href: `#room=${id}` }, "Go to game")));
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
