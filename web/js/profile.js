// A player's profile (#/@/NAME): ratings per game and speed, recent games linking to replays.

import { botApiPanels } from "./botapi.js";
import { h } from "./dom.js";
import { ratingChart } from "./ratingchart.js";
import { PROVISIONAL } from "./text.js";

export function profileName() {
  const m = /^#\/@\/([A-Za-z0-9_-]{2,20})$/.exec(location.hash);
  return m ? m[1] : null;
}

export class ProfileView {
  constructor(app, host, name) {
    this.app = app;
    this.el = h(
      "div",
      { class: "profile-view" },
      h("h1", {}, name),
      h("p", { class: "muted" }, "Loading…"),
    );
    host.replaceChildren(this.el);
    this.load(name);
  }

  destroy() {}

  async load(name) {
    const res = await fetch(`api/users/${encodeURIComponent(name)}`, {
      headers: { Accept: "application/json" },
    });
    if (res.status !== 200) {
      this.el.replaceChildren(h("h1", {}, name), h("p", {}, "There is no such player."));
      return;
    }
    const user = await res.json();
    const games = await (await fetch(`api/users/${encodeURIComponent(name)}/games?per=20`)).json();
    const changes = (await (await fetch(`api/users/${encodeURIComponent(name)}/ratings`)).json())
      .history;
    const ratings = Object.entries(user.ratings).sort((a, b) => b[1].games - a[1].games);
    this.el.replaceChildren(
      h("h1", {}, user.name, user.bot ? h("span", { class: "badge" }, "BOT") : null),
      h(
        "section",
        { class: "panel", "aria-labelledby": "ratings-h" },
        h("h2", { id: "ratings-h" }, "Ratings"),
        ratings.length
          ? h(
              "table",
              { class: "ratings" },
              h(
                "thead",
                {},
                h(
                  "tr",
                  {},
                  h("th", {}, "Game"),
                  h("th", {}, "Rating"),
                  h("th", {}, "RD"),
                  h("th", {}, "Games"),
                ),
              ),
              h(
                "tbody",
                {},
                ratings.map(([cat, r]) =>
                  h(
                    "tr",
                    { dataset: { category: cat } },
                    h("td", {}, cat.replace(":", " · ")),
                    h(
                      "td",
                      { class: "rating", title: r.provisional ? PROVISIONAL : null },
                      `${Math.round(r.rating)}${r.provisional ? "?" : ""}`,
                    ),
                    h("td", {}, Math.round(r.rd)),
                    h("td", {}, r.games),
                  ),
                ),
              ),
            )
          : h("p", { class: "muted" }, "No rated games yet."),
        ratings
          .filter(([cat]) => changes[cat] && changes[cat].length)
          .map(([cat]) => ratingChart(cat, changes[cat])),
      ),
      h(
        "section",
        { class: "panel", "aria-labelledby": "games-h" },
        h("h2", { id: "games-h" }, `Recent games (${games.total})`),
        // every game, as the HTTP route streams it: a PGN for chess, the record for others
        h(
          "p",
          {},
          h(
            "a",
            {
              class: "button secondary small",
              id: "export-games",
              href: `api/users/${encodeURIComponent(user.name)}/export`,
              download: `${user.name}-games.ndjson`,
            },
            "Export games",
          ),
          h(
            "span",
            { class: "muted" },
            " ndjson, one game a line: PGN for chess, the game's record for the others",
          ),
        ),
        h(
          "ul",
          { class: "history" },
          games.games.map((g) => this.gameRow(user.name, g)),
        ),
      ),
      ...botApiPanels(user.name),
    );
  }

  gameRow(name, g) {
    const me = g.players.find((p) => p.user === name) || {};
    const result =
      me.rank === 1 ? (g.players.filter((p) => p.rank === 1).length > 1 ? "draw" : "won") : "lost";
    const others = g.players
      .filter((p) => p !== me)
      .map((p) => p.name)
      .join(", ");
    const change =
      g.rated && typeof me.change === "number"
        ? ` (${me.change >= 0 ? "+" : ""}${Math.round(me.change)})`
        : "";
    return h(
      "li",
      { dataset: { room: g.room } },
      h("a", { href: `#room=${g.room}` }, `${g.game} ${g.clock || ""}`),
      ` vs ${others} — ${result} by ${g.reason}${change}`,
      g.rated ? "" : h("span", { class: "muted" }, " · casual"),
    );
  }
}
