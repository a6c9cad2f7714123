// A player's games on their profile (#/@/NAME): every game they finished with their account
// (casual, against the computer, rated, tournament), newest first, a page at a time (the
// route answers at most `PER`), filtered by kind and by game, each with its result, the
// opponents, the date and a link to its replay.

import { h } from "./dom.js";
import { reasonText } from "./text.js";

/** Games a page asks for (the route allows 100 at most). */
export const PER = 20;

/** The kinds a player may pick: [value, label, the route's filter]. */
const KINDS = [
  ["all", "All games", ""],
  ["rated", "Rated", "rated=true"],
  ["casual", "Casual", "rated=false"],
  ["bot", "Against the computer", "vs_bot=true"],
];

/** "1st", "2nd", "3rd", "4th", ... */
function ordinal(n) {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return `${n}th`;
  return `${n}${["th", "st", "nd", "rd"][n % 10] || "th"}`;
}

/** How the game ended for `me`: [word, tone] — won, lost, draw, a place, aborted. */
export function resultOf(g, me) {
  if (g.reason === "aborted") return ["aborted", "aborted"];
  const ranks = g.players.map((p) => p.rank);
  if (ranks.length > 2) {
    const tone = me.rank === 1 ? "won" : "place";
    return [`${ordinal(me.rank)} of ${ranks.length}`, tone];
  }
  if (me.rank !== 1) return ["lost", "lost"];
  return ranks.filter((r) => r === 1).length > 1 ? ["draw", "draw"] : ["won", "won"];
}

export class ProfileGames {
  /**
   * @param {object} app   the client (its game registry names the games)
   * @param {string} name  the player, as registered
   */
  constructor(app, name) {
    this.app = app;
    this.name = name;
    this.page = 1;
    this.heading = h("h2", { id: "games-h" }, "Games");
    this.kind = h(
      "select",
      { id: "games-kind", "aria-label": "Which games" },
      KINDS.map(([value, label]) => h("option", { value }, label)),
    );
    this.game = h(
      "select",
      { id: "games-game", "aria-label": "Which game" },
      h("option", { value: "" }, "Every game"),
    );
    for (const select of [this.kind, this.game]) {
      select.addEventListener("change", () => {
        this.page = 1;
        this.load();
      });
    }
    this.list = h("ol", { class: "history", id: "games-list" });
    this.empty = h("p", { class: "muted", id: "games-none", hidden: true }, "No games here.");
    this.newer = h("button", { class: "secondary small", id: "games-newer" }, "Newer");
    this.older = h("button", { class: "secondary small", id: "games-older" }, "Older");
    this.newer.addEventListener("click", () => this.turn(-1));
    this.older.addEventListener("click", () => this.turn(1));
    this.where = h("span", { class: "muted", id: "games-page" });
    const exportLink = h(
      "a",
      {
        class: "button secondary small",
        id: "export-games",
        href: `api/users/${encodeURIComponent(name)}/export`,
        download: `${name}-games.ndjson`,
      },
      "Export games",
    );
    this.el = h(
      "section",
      { class: "panel profile-games", "aria-labelledby": "games-h" },
      this.heading,
      // every game, as the HTTP route streams it: a PGN for chess, the record for others
      h(
        "p",
        {},
        exportLink,
        h(
          "span",
          { class: "muted" },
          " ndjson, one game a line: PGN for chess, the game's record for the others",
        ),
      ),
      h("div", { class: "games-filters" }, this.kind, this.game),
      this.list,
      this.empty,
      h("div", { class: "games-pages" }, this.newer, this.where, this.older),
    );
  }

  /** The route's query for the page and the filters chosen. */
  query() {
    const kind = KINDS.find(([value]) => value === this.kind.value);
    const parts = [`page=${this.page}`, `per=${PER}`];
    if (kind && kind[2]) parts.push(kind[2]);
    if (this.game.value) parts.push(`game=${encodeURIComponent(this.game.value)}`);
    return parts.join("&");
  }

  turn(step) {
    this.page = Math.max(1, this.page + step);
    this.load();
  }

  /** Offer every game the registry knows (once it is known). */
  fillGames() {
    if (this.game.options.length > 1 || !this.app.games.length) return;
    const games = [...this.app.games].sort((a, b) => a.title.localeCompare(b.title));
    this.game.append(...games.map((g) => h("option", { value: g.name }, g.title)));
  }

  async load() {
    this.fillGames();
    const asked = this.query();
    const res = await fetch(`api/users/${encodeURIComponent(this.name)}/games?${asked}`, {
      headers: { Accept: "application/json" },
    });
    if (asked !== this.query()) return; // the filters changed meanwhile: a newer load runs
    const body = await res.json();
    if (res.status !== 200) {
      this.list.replaceChildren();
      this.empty.textContent = body.message || "The games could not be read.";
      this.empty.hidden = false;
      return;
    }
    this.show(body);
  }

  show(body) {
    const pages = Math.max(1, Math.ceil(body.total / PER));
    this.heading.textContent = `Games (${body.total})`;
    this.list.replaceChildren(...body.games.map((g) => this.row(g)));
    this.empty.textContent = "No games here.";
    this.empty.hidden = body.games.length > 0;
    this.newer.disabled = this.page <= 1;
    this.older.disabled = this.page >= pages;
    this.where.textContent = ` page ${this.page} of ${pages} `;
  }

  row(g) {
    const lname = this.name.toLowerCase();
    const me = g.players.find((p) => (p.user || "").toLowerCase() === lname) || g.players[0];
    const [word, tone] = resultOf(g, me);
    const others = g.players
      .filter((p) => p !== me)
      .map((p) => (p.bot ? `${p.name} (computer)` : p.name))
      .join(", ");
    const info = this.app.gameInfo.get(g.game);
    const title = info ? info.title : g.game;
    const change =
      g.rated && typeof me.change === "number"
        ? ` (${me.change >= 0 ? "+" : ""}${Math.round(me.change)})`
        : "";
    const when = new Date(g.finished * 1000);
    return h(
      "li",
      { dataset: { room: g.room, result: tone } },
      h("span", { class: `badge result-${tone}` }, word),
      g.reason === "aborted" ? "" : h("span", { class: "muted" }, ` by ${reasonText(g.reason)}`),
      ` vs ${others || "nobody"} · ${title}${g.clock ? ` ${g.clock}` : ""} · `,
      g.rated ? `rated${change}` : h("span", { class: "muted" }, "casual"),
      " · ",
      h("time", { datetime: when.toISOString() }, when.toLocaleString()),
      " · ",
      h("a", { href: `#room=${g.room}`, title: "Replay the game" }, "Replay"),
    );
  }
}
