// Accounts and pairing in the browser: sign up / log in / log out in the header, the lobby's
// "Play" panel (quick-pairing grid, live seek list with ratings, create-a-seek form), and a
// paired player landing in their room by itself.
//
// Logging in sets an HttpOnly cookie; the page reloads so that the WebSocket handshake
// carries it and the welcome names the user (welcome.user). Guests keep their session.

import { h, toast } from "./dom.js";
import { storage } from "./storage.js";

/** The quick-pairing grid: [minutes, increment] like lichess's. */
export const QUICK = [
  [1, 0],
  [2, 1],
  [3, 0],
  [3, 2],
  [5, 0],
  [5, 3],
  [10, 0],
  [10, 5],
  [15, 10],
];

export const account = { user: null };

async function post(path, body) {
  const res = await fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
    credentials: "same-origin",
  });
  let data = {};
  try {
    data = await res.json();
  } catch {
    /* empty */
  }
  return { status: res.status, data };
}

/** Install the header bar and the "paired" handler (once, at start-up). */
export function installAccounts(app, header) {
  const bar = h("div", { class: "account-bar", "aria-live": "polite" });
  header.append(bar);
  const nameField = header.querySelector(".name-field"); // a guest's name: not an account's
  const render = () => {
    if (nameField) nameField.hidden = !!account.user;
    if (account.user) {
      bar.replaceChildren(
        h(
          "a",
          { href: `#/@/${account.user}`, class: "account-name", dataset: { user: account.user } },
          account.user,
        ),
        h(
          "button",
          {
            type: "button",
            class: "small secondary",
            dataset: { action: "logout" },
            onclick: logout,
          },
          "Log out",
        ),
      );
    } else {
      bar.replaceChildren(
        h(
          "button",
          {
            type: "button",
            class: "small secondary",
            dataset: { action: "login" },
            onclick: () => openForm("login"),
          },
          "Log in",
        ),
        h(
          "button",
          {
            type: "button",
            class: "small secondary",
            dataset: { action: "signup" },
            onclick: () => openForm("signup"),
          },
          "Sign up",
        ),
      );
    }
  };
  app.conn.addEventListener("welcome", (e) => {
    account.user = e.detail.user || null;
    render();
    app.dispatchEvent(new CustomEvent("account"));
  });
  app.conn.addEventListener("push", (e) => {
    const msg = e.detail;
    if (msg.type === "paired") landInRoom(app, msg);
    else if (msg.type === "auth_failed") toast("Your login has expired: please log in again.");
  });
  render();
}

/** A pairing was made: keep the seat's token and go to the room. */
export function landInRoom(app, msg) {
  storage.updateRoom(msg.room, (d) => {
    d.tokens = { ...(d.tokens || {}), [msg.seat]: msg.token };
    d.game = msg.game;
    // the board links back (tournamentboard.js)
    if (typeof msg.tournament === "string") d.tournament = msg.tournament;
  });
  app.addHeld(msg.room, msg.seat);
  location.hash = `#room=${msg.room}`;
}

async function logout() {
  await post("api/logout", {});
  location.reload();
}

function openForm(mode) {
  const old = document.getElementById("account-dialog");
  if (old) old.remove();
  const name = h("input", {
    name: "account-name",
    autocomplete: "username",
    required: true,
    minlength: 2,
    maxlength: 20,
  });
  const password = h("input", {
    name: "account-password",
    type: "password",
    required: true,
    minlength: 8,
    autocomplete: mode === "signup" ? "new-password" : "current-password",
  });
  const error = h("p", { class: "account-error", role: "alert" });
  const form = h(
    "form",
    { class: "account-form" },
    h("h2", {}, mode === "signup" ? "Sign up" : "Log in"),
    h("label", {}, "Name ", name),
    h("label", {}, "Password ", password),
    mode === "signup"
      ? h(
          "p",
          { class: "muted" },
          "2–20 letters, digits, _ or -; a password of 8 or more characters.",
        )
      : null,
    error,
    h(
      "div",
      { class: "actions" },
      h(
        "button",
        { type: "submit", dataset: { action: "submit" } },
        mode === "signup" ? "Create account" : "Log in",
      ),
      h("button", { type: "button", class: "secondary", onclick: () => dialog.remove() }, "Cancel"),
    ),
  );
  const dialog = h(
    "div",
    { id: "account-dialog", class: "account-dialog panel", role: "dialog", "aria-modal": "true" },
    form,
  );
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    error.textContent = "";
    const body = { name: name.value.trim(), password: password.value };
    if (mode === "signup") {
      const r = await post("api/register", body);
      if (r.status !== 201) {
        error.textContent = r.data.message || "Could not sign up.";
        return;
      }
    }
    const r = await post("api/login", body);
    if (r.status !== 200) {
      error.textContent = r.data.message || "Could not log in.";
      return;
    }
    location.reload();
  });
  document.body.append(dialog);
  name.focus();
}

/** The lobby's "Play" panel: quick pairing, seeks, create a seek. */
export class PlayPanel {
  constructor(app, playerName) {
    this.app = app;
    this.playerName = playerName;
    this.pool = null;
    this.seeks = [];
    this.grid = h("div", { class: "quick-grid", role: "group", "aria-label": "Quick pairing" });
    // quick pairing in any game, the choice remembered (a table of the game's fewest seats,
    // or of the size chosen for a game that plays at several: Hase und Igel's 2 to 6)
    this.quickGame = storage.pref("quickGame", "chess");
    this.quickTitle = h("h2", { id: "play-h" }, "Play now");
    this.quickSelect = h("select", {
      id: "quick-game",
      name: "quick-game",
      onchange: () => this.chooseGame(),
    });
    this.seatsSelect = h("select", {
      id: "quick-seats",
      name: "quick-seats",
      onchange: () => this.chooseSeats(),
    });
    this.seatsLabel = h("label", { for: "quick-seats", hidden: true }, "Players", this.seatsSelect);
    this.list = h("ul", { class: "seek-list", "aria-label": "Seeks" });
    this.form = this.buildForm();
    this.el = h(
      "section",
      { class: "panel play", "aria-labelledby": "play-h" },
      h(
        "div",
        { class: "quick-head" },
        this.quickTitle,
        h("label", { for: "quick-game" }, "Game", this.quickSelect),
        this.seatsLabel,
      ),
      this.grid,
      h("h2", {}, "Seeks"),
      this.list,
      this.form,
    );
    this.onPush = (e) => {
      if (e.detail.type === "seeks") {
        this.seeks = e.detail.seeks;
        this.renderSeeks();
      }
    };
    this.onReady = () => {
      this.fillGames();
      this.refresh();
    };
    app.conn.addEventListener("push", this.onPush);
    app.addEventListener("ready", this.onReady);
    this.fillGames();
    if (app.ready) this.refresh();
  }

  /** The games quick pairing offers: every game, at its smallest table (Yonin Shogi's of four). */
  fillGames() {
    const games = this.app.games.filter((g) => g.max_seats >= 2);
    if (games.length && !games.some((g) => g.name === this.quickGame))
      this.quickGame = games[0].name;
    this.quickSelect.replaceChildren(
      ...games.map((g) =>
        h("option", { value: g.name, selected: g.name === this.quickGame }, g.title),
      ),
    );
    this.renderGrid();
  }

  async chooseGame() {
    this.quickGame = this.quickSelect.value;
    storage.setPref("quickGame", this.quickGame);
    if (this.pool) {
      const pool = this.pool;
      this.pool = null;
      await this.app.request({ type: "pool_leave", pool }).catch(() => {});
    }
    this.renderGrid();
  }

  /** The table size of the game's pool: the choice kept for that game, else its smallest. */
  quickSeats(game) {
    const info = this.app.info(game);
    const low = Math.max(2, info.min_seats || 2);
    const high = Math.max(low, info.max_seats || low);
    const chosen = Number(storage.pref(`quickSeats.${game}`, low));
    return { low, high, seats: chosen >= low && chosen <= high ? chosen : low };
  }

  async chooseSeats() {
    storage.setPref(`quickSeats.${this.quickGame}`, Number(this.seatsSelect.value));
    await this.chooseGame();
  }

  destroy() {
    this.app.conn.removeEventListener("push", this.onPush);
    this.app.removeEventListener("ready", this.onReady);
    if (this.pool) this.app.request({ type: "pool_leave", pool: this.pool }).catch(() => {});
  }

  async refresh() {
    try {
      const reply = await this.app.request({ type: "list_seeks" });
      this.seeks = reply.seeks;
      this.renderSeeks();
    } catch {
      /* offline: the next ready retries */
    }
  }

  renderGrid() {
    const game = this.quickGame;
    const title = this.app.info(game).title || game;
    const { low, high, seats } = this.quickSeats(game);
    this.seatsLabel.hidden = high === low;
    const sizes = [];
    for (let n = low; n <= high; n++)
      sizes.push(h("option", { value: n, selected: n === seats }, String(n)));
    this.seatsSelect.replaceChildren(...sizes);
    this.quickTitle.textContent =
      seats > 2 ? `Play ${title} now, ${seats} players` : `Play ${title} now`;
    this.grid.replaceChildren(
      ...QUICK.map(([m, inc]) => {
        const key = `${game}:${m * 60}+${inc}${seats > 2 ? `/${seats}` : ""}`; // the pool's name
        const waiting = this.pool === key;
        return h(
          "button",
          {
            type: "button",
            class: `quick${waiting ? " waiting" : ""}`,
            dataset: { pool: key },
            "aria-pressed": waiting ? "true" : "false",
            onclick: () => this.toggle(key, m, inc, game, seats),
          },
          h("span", { class: "tc" }, `${m}+${inc}`),
          h("span", { class: "muted" }, waiting ? "searching…" : title),
        );
      }),
    );
  }

  async toggle(key, minutes, inc, game, seats) {
    try {
      if (this.pool === key) {
        await this.app.request({ type: "pool_leave", pool: key });
        this.pool = null;
      } else {
        if (this.pool) await this.app.request({ type: "pool_leave", pool: this.pool });
        const name = this.playerName();
        if (!name) return;
        const reply = await this.app.request({
          type: "pool_join",
          game,
          clock: { base: minutes * 60, increment: inc },
          seats,
          name,
        });
        this.pool = reply.pool;
      }
    } catch (err) {
      this.app.fail(err);
    }
    this.renderGrid();
  }

  renderSeeks() {
    const rows = this.seeks.map((s) => {
      // the server says (a guest's too)
      const mine = s.mine ?? (account.user ? s.poster.user === account.user : false);
      const rating = `${Math.round(s.poster.rating)}${s.poster.provisional ? "?" : ""}`;
      const info = this.app.info(s.game);
      return h(
        "li",
        { class: "seek", dataset: { seek: s.id } },
        h(
          "span",
          { class: "who" },
          s.poster.user ? h("a", { href: `#/@/${s.poster.user}` }, s.poster.name) : s.poster.name,
          " ",
          h("span", { class: "rating" }, rating),
        ),
        h("span", {}, info.title || s.game),
        h("span", {}, s.clock),
        h("span", {}, s.rated ? "rated" : "casual"),
        s.seats > 2 ? h("span", { class: "muted" }, `${s.seats} players`) : null,
        mine
          ? h(
              "button",
              {
                type: "button",
                class: "small secondary",
                dataset: { cancel: s.id },
                onclick: () => this.act("cancel_seek", s.id),
              },
              "Cancel",
            )
          : h(
              "button",
              {
                type: "button",
                class: "small",
                dataset: { accept: s.id },
                onclick: () => this.act("accept_seek", s.id),
              },
              "Play",
            ),
      );
    });
    this.list.replaceChildren(
      ...(rows.length
        ? rows
        : [h("li", { class: "empty-note" }, "Nobody is seeking a game — post one below.")]),
    );
  }

  async act(type, seek) {
    try {
      const reply = await this.app.request({ type, seek });
      if (reply.type === "paired") landInRoom(this.app, reply);
      else if (reply.type === "seek_joined")
        toast("Joined: the game starts when every seat is taken.");
    } catch (err) {
      this.app.fail(err);
    }
  }

  buildForm() {
    const game = h("select", { name: "seek-game" });
    const minutes = h("input", {
      name: "seek-minutes",
      type: "number",
      min: 0,
      max: 180,
      value: 3,
    });
    const inc = h("input", { name: "seek-increment", type: "number", min: 0, max: 180, value: 2 });
    const seats = h("input", { name: "seek-seats", type: "number", min: 2, max: 6, value: 2 });
    const rated = h("input", { name: "seek-rated", type: "checkbox" });
    const fill = () => {
      game.replaceChildren(...this.app.games.map((g) => h("option", { value: g.name }, g.title)));
    };
    this.app.addEventListener("ready", fill);
    if (this.app.ready) fill();
    const form = h(
      "form",
      { class: "seek-form", "aria-label": "Create a seek" },
      h("label", {}, "Game ", game),
      h("label", {}, "Minutes ", minutes),
      h("label", {}, "Increment ", inc),
      h("label", {}, "Players ", seats),
      h("label", {}, rated, " Rated"),
      h("button", { type: "submit", dataset: { action: "seek" } }, "Create seek"),
    );
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      const m = Number(minutes.value);
      const settings =
        m > 0 ? { clock: { type: "fischer", base: m * 60, increment: Number(inc.value) } } : {};
      try {
        await this.app.request({
          type: "seek",
          game: game.value,
          settings,
          rated: rated.checked,
          seats: Number(seats.value),
          name: this.playerName() || undefined,
        });
      } catch (err) {
        this.app.fail(err);
      }
    });
    return form;
  }
}
