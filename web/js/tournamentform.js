// The form that creates a tournament (docs/PROTOCOL.md, `tournament_create`): the game, the
// system (arena, Swiss, round robin), the clock, the duration or the rounds, the table size of
// a many-seat game, rated (accounts only), when it starts (in some minutes, at a time, or
// when full) and berserk. The server decides what is valid: a refusal is shown in the form,
// word for word, and nothing is created.

import { account } from "./account.js";
import { h } from "./dom.js";
import { storage } from "./storage.js";
import { SYSTEMS, clockText, tournamentHref } from "./tournamentwords.js";

const CREATED = "createdTournaments"; // the ids this browser created (a guest's key is never shown)
const CREATED_LIMIT = 20;

/** Tournaments this browser created (newest first). */
export function createdHere() {
  const ids = storage.pref(CREATED, []);
  return Array.isArray(ids) ? ids : [];
}

export class TournamentForm {
  constructor(app, { playerName }) {
    this.app = app;
    this.playerName = playerName;
    this.named = false; // the creator typed a name: stop suggesting one
    this.el = h(
      "section",
      { class: "panel tourney-create", "aria-labelledby": "t-create-h" },
      h("h2", { id: "t-create-h" }, "New tournament"),
      h("p", { class: "muted" }, "Connecting to the server…"),
    );
    this.onReady = () => {
      if (!this.form) this.build();
    };
    this.onAccount = () => this.renderRated();
    app.addEventListener("ready", this.onReady);
    app.addEventListener("account", this.onAccount);
    if (app.ready) this.build();
  }

  destroy() {
    this.app.removeEventListener("ready", this.onReady);
    this.app.removeEventListener("account", this.onAccount);
  }

  build() {
    const games = this.app.games.filter((g) => g.max_seats >= 2);
    if (!games.length) return;
    const num = (id, value, attrs = {}) =>
      h("input", {
        id,
        name: id,
        type: "number",
        inputmode: "decimal",
        value,
        step: "any",
        ...attrs,
      });
    const preferred = storage.pref("quickGame", "chess");
    const f = (this.fields = {
      name: h("input", {
        id: "t-name",
        name: "t-name",
        type: "text",
        autocomplete: "off",
        spellcheck: "false",
      }),
      game: h(
        "select",
        { id: "t-game", name: "t-game" },
        games.map((g) => h("option", { value: g.name, selected: g.name === preferred }, g.title)),
      ),
      system: h(
        "select",
        { id: "t-system", name: "t-system" },
        Object.entries(SYSTEMS).map(([value, title]) => h("option", { value }, title)),
      ),
      base: num("t-base", 3, { min: 0.25, max: 180 }),
      increment: num("t-increment", 2, { min: 0, max: 180, step: 1, inputmode: "numeric" }),
      minutes: num("t-minutes", 30, { min: 1, max: 720, step: 1, inputmode: "numeric" }),
      rounds: num("t-rounds", 5, { min: 1, max: 20, step: 1, inputmode: "numeric" }),
      interlude: num("t-interlude", 5, { min: 0, max: 60, step: 1, inputmode: "numeric" }),
      seats: h("select", { id: "t-seats", name: "t-seats" }),
      rated: h("input", { id: "t-rated", name: "t-rated", type: "checkbox" }),
      start: h(
        "select",
        { id: "t-start", name: "t-start" },
        h("option", { value: "in" }, "In some minutes"),
        h("option", { value: "at" }, "At a date and time"),
        h("option", { value: "full" }, "When full"),
      ),
      startIn: num("t-start-in", 5, { min: 0, max: 10080, step: 1, inputmode: "numeric" }),
      startAt: h("input", { id: "t-start-at", name: "t-start-at", type: "datetime-local" }),
      maxPlayers: num("t-max-players", "", {
        min: 2,
        max: 500,
        step: 1,
        inputmode: "numeric",
        placeholder: "100 (Swiss 32, round robin 8)",
      }),
      berserk: h("input", { id: "t-berserk", name: "t-berserk", type: "checkbox", checked: true }),
    });
    const field = (input, label, note) =>
      h(
        "label",
        { class: "field", for: input.id },
        h("span", {}, label),
        input,
        note ? h("small", {}, note) : null,
      );
    const check = (input, label, note) =>
      h(
        "label",
        { class: "field check", for: input.id },
        input,
        h("span", {}, label, note ? h("small", {}, ` ${note}`) : null),
      );
    this.parts = {
      minutes: field(
        f.minutes,
        "Duration (minutes)",
        "Players are paired again as soon as their game ends, until the time is up",
      ),
      rounds: field(f.rounds, "Rounds"),
      interlude: field(
        f.interlude,
        "Between rounds (seconds)",
        "Each player sees their result and their next opponent before the next round",
      ),
      robin: h(
        "p",
        { class: "muted field-note" },
        "Everyone plays everyone once: as many rounds as the field needs.",
      ),
      seats: field(f.seats, "Table size"),
      startIn: field(f.startIn, "Starts in (minutes)"),
      startAt: field(f.startAt, "Starts at (your time)"),
      berserk: check(
        f.berserk,
        "Berserk allowed",
        "(halve your clock before your first move for one more point on a win)",
      ),
      ratedNote: h("small", { class: "muted", id: "t-rated-note" }),
    };
    this.error = h("p", { class: "form-error", id: "t-error", role: "alert" });
    this.button = h("button", { type: "submit", id: "t-create" }, "Create tournament");
    const form = h(
      "form",
      { "aria-labelledby": "t-create-h", novalidate: true, class: "tourney-form" },
      field(f.name, "Name", "At most 40 characters"),
      h("div", { class: "pair" }, field(f.game, "Game"), field(f.system, "System")),
      h(
        "fieldset",
        { class: "clock-choice" },
        h("legend", {}, "Clock of every game"),
        h(
          "div",
          { class: "clock-fields" },
          field(f.base, "Minutes per player"),
          field(f.increment, "Increment (seconds)"),
        ),
      ),
      this.parts.minutes,
      this.parts.rounds,
      this.parts.robin,
      this.parts.interlude,
      this.parts.seats,
      h(
        "fieldset",
        { class: "clock-choice" },
        h("legend", {}, "Start"),
        field(f.start, "Starts"),
        this.parts.startIn,
        this.parts.startAt,
        field(
          f.maxPlayers,
          "Most players",
          "Empty: the server's default. When full: it starts once this many have joined",
        ),
      ),
      h(
        "label",
        { class: "field check", for: "t-rated" },
        f.rated,
        h("span", {}, "Rated ", this.parts.ratedNote),
      ),
      this.parts.berserk,
      this.error,
      h("div", {}, this.button),
    );
    const soon = new Date(Date.now() + 60 * 60 * 1000);
    soon.setMinutes(0, 0, 0);
    f.startAt.value = localInput(soon);
    f.name.addEventListener("input", () => {
      this.named = f.name.value.trim() !== "";
    });
    for (const input of [f.game, f.system, f.base, f.increment, f.start, f.seats])
      input.addEventListener("change", () => this.show());
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      this.create();
    });
    this.form = form;
    this.el.replaceChildren(this.el.firstChild, form);
    this.show();
    this.renderRated();
  }

  /** Show the fields the choices call for; suggest a name until one is typed. */
  show() {
    const f = this.fields;
    const info = this.app.info(f.game.value);
    const system = f.system.value;
    this.parts.minutes.hidden = system !== "arena";
    this.parts.rounds.hidden = system !== "swiss";
    this.parts.robin.hidden = system !== "round_robin";
    this.parts.interlude.hidden = system === "arena";
    const sizes = [];
    for (let n = Math.max(2, info.min_seats || 2); n <= (info.max_seats || 2); n++) sizes.push(n);
    const keep = Number(f.seats.value) || sizes[0];
    f.seats.replaceChildren(
      ...sizes.map((n) =>
        h("option", { value: n, selected: n === keep }, n === 2 ? "2 players" : `${n} players`),
      ),
    );
    // tables: arenas only
    this.parts.seats.hidden = system !== "arena" || (sizes.length < 2 && sizes[0] === 2);
    f.seats.disabled = sizes.length < 2;
    // berserk: two-seat arenas
    this.parts.berserk.hidden = system !== "arena" || Number(f.seats.value) > 2;
    this.parts.startIn.hidden = f.start.value !== "in";
    this.parts.startAt.hidden = f.start.value !== "at";
    if (!this.named) {
      const base = Number(f.base.value);
      const clock =
        Number.isFinite(base) && base > 0
          ? ` ${clockText({ base: base * 60, increment: Number(f.increment.value) || 0 })}`
          : "";
      f.name.value = `${info.title || f.game.value}${clock} ${SYSTEMS[system] || ""}`.slice(0, 40);
    }
  }

  renderRated() {
    if (!this.fields) return;
    const guest = !account.user;
    this.fields.rated.disabled = guest;
    if (guest) this.fields.rated.checked = false;
    this.parts.ratedNote.textContent = guest
      ? "(accounts only: log in to create a rated one)"
      : "(the games change the players' ratings)";
  }

  /** The `tournament_create` message the form stands for (the server checks every field). */
  message() {
    const f = this.fields;
    const num = (input) => (input.value.trim() === "" ? null : Number(input.value));
    const system = f.system.value;
    const base = num(f.base);
    const msg = {
      type: "tournament_create",
      name: f.name.value.trim(),
      game: f.game.value,
      system,
      // seconds
      clock: { base: base === null ? null : Math.round(base * 60), increment: num(f.increment) },
      rated: f.rated.checked && !f.rated.disabled,
    };
    if (system === "arena") msg.minutes = num(f.minutes);
    if (!this.parts.berserk.hidden) msg.berserk = f.berserk.checked;
    if (system === "swiss") msg.rounds = num(f.rounds);
    const pause = num(f.interlude); // empty: the server's default
    if (system !== "arena" && pause !== null) msg.interlude = pause;
    if (!this.parts.seats.hidden) msg.seats = Number(f.seats.value);
    const most = num(f.maxPlayers);
    if (most !== null) msg.max_players = most;
    if (f.start.value === "in") {
      const minutes = num(f.startIn);
      // "in 0 minutes": a few seconds ahead, so that it is not in the past when it arrives
      msg.starts_at =
        minutes === null ? null : Math.round(this.app.serverNow() + Math.max(minutes * 60, 5));
    } else if (f.start.value === "at") {
      const at = Date.parse(f.startAt.value); // the browser's local time
      msg.starts_at = Number.isFinite(at) ? Math.round(at / 1000) : null;
    }
    return msg;
  }

  async create() {
    this.error.textContent = "";
    const msg = this.message();
    if (msg.starts_at === null) {
      this.error.textContent = "Say when the tournament starts.";
      return;
    }
    if (!account.user && !this.playerName()) return;
    this.button.disabled = true;
    try {
      const reply = await this.app.request(msg);
      storage.setPref(
        CREATED,
        [reply.tournament, ...createdHere().filter((id) => id !== reply.tournament)].slice(
          0,
          CREATED_LIMIT,
        ),
      );
      location.hash = tournamentHref(reply.tournament);
    } catch (err) {
      this.error.textContent = err && err.message ? err.message : String(err);
    } finally {
      this.button.disabled = false;
    }
  }
}

/** A date as a datetime-local input writes it ("2026-11-27T20:00"), in local time. */
function localInput(d) {
  const two = (n) => String(n).padStart(2, "0");
  const day = `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}`;
  return `${day}T${two(d.getHours())}:${two(d.getMinutes())}`;
}
