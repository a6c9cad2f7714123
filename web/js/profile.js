// A player's profile (#/@/NAME): ratings per game and speed, and every finished game
// (profilegames.js: filtered, a page at a time, each linking to its replay).

import { botApiPanels } from "./botapi.js";
import { h } from "./dom.js";
import { ProfileGames } from "./profilegames.js";
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
    const changes = (await (await fetch(`api/users/${encodeURIComponent(name)}/ratings`)).json())
      .history;
    const ratings = Object.entries(user.ratings).sort((a, b) => b[1].games - a[1].games);
    const games = new ProfileGames(this.app, user.name);
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
      games.el,
      ...botApiPanels(user.name),
    );
    await games.load();
  }
}
