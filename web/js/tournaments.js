// Tournaments in the browser (docs/PROTOCOL.md, "Tournaments"): the list of upcoming, running
// and finished tournaments (#/tournaments), kept live by the `tournament_list` subscription,
// with the create form beside it (tournamentform.js); one tournament's page is tournament.js,
// the tournament bar at the board tournamentboard.js, their shared words tournamentwords.js.

import { h } from "./dom.js";
import { TournamentForm } from "./tournamentform.js";
import { describe, specOf, timeText, tournamentHref } from "./tournamentwords.js";

const SECTIONS = [
  ["running", "Running"],
  ["upcoming", "Upcoming"],
  ["finished", "Finished"],
];

export class TournamentsView {
  constructor(app, host, { playerName }) {
    this.app = app;
    this.list = null;
    this.el = h("div", { class: "tourneys-view" });
    host.replaceChildren(this.el);
    this.sections = {};
    const lists = SECTIONS.map(([key, title]) => {
      this.sections[key] = h(
        "ul",
        { class: "tourney-list", id: `tourneys-${key}`, "aria-labelledby": `tourneys-${key}-h` },
        h("li", { class: "empty-note" }, "Loading…"),
      );
      return [h("h2", { id: `tourneys-${key}-h` }, title), this.sections[key]];
    });
    this.form = new TournamentForm(app, { playerName });
    this.el.append(
      h(
        "div",
        { class: "page-head" },
        h("h1", {}, "Tournaments"),
        h("a", { class: "button secondary small", href: "#", id: "to-lobby" }, "← Lobby"),
      ),
      h(
        "div",
        { class: "tourneys" },
        h("section", { class: "panel tourney-lists", "aria-label": "Tournaments" }, lists),
        this.form.el,
      ),
    );
    this.onReady = () => this.subscribe();
    this.onPush = (e) => {
      if (e.detail.type === "tournaments") this.show(e.detail);
    };
    app.addEventListener("ready", this.onReady);
    app.conn.addEventListener("push", this.onPush);
    this.timer = setInterval(() => this.tick(), 1000);
    if (app.ready) this.subscribe();
  }

  destroy() {
    clearInterval(this.timer);
    this.form.destroy();
    this.app.removeEventListener("ready", this.onReady);
    this.app.conn.removeEventListener("push", this.onPush);
  }

  /** Ask for the list and its changes (again after every reconnect). */
  async subscribe() {
    try {
      this.show(await this.app.request({ type: "tournament_list" }));
    } catch (err) {
      if (err.code !== "offline" && err.code !== "disconnected") this.app.fail(err);
    }
  }

  show(msg) {
    this.list = msg;
    for (const [key] of SECTIONS) {
      const items = Array.isArray(msg[key]) ? msg[key] : [];
      this.sections[key].replaceChildren(
        ...(items.length
          ? items.map((t) => this.card(t, key))
          : [
              h(
                "li",
                { class: "empty-note" },
                key === "upcoming"
                  ? "Nothing planned — create one."
                  : key === "running"
                    ? "No tournament is running."
                    : "None yet.",
              ),
            ]),
      );
    }
    this.tick();
  }

  card(t, key) {
    const spec = specOf(t);
    const players = t.players ?? null;
    return h(
      "li",
      { class: `tourney-card ${key}`, dataset: { tournament: spec.id, status: t.status || key } },
      h("a", { class: "title", href: tournamentHref(spec.id) }, spec.name || spec.id),
      h("span", { class: "what" }, describe(this.app, t)),
      h("span", { class: "when muted", dataset: { when: "" } }, ""),
      players !== null
        ? h("span", { class: "players" }, `${players} player${players === 1 ? "" : "s"}`)
        : null,
      t.winner ? h("span", { class: "winner" }, `Winner: ${t.winner}`) : null,
    );
  }

  /** The countdowns, once a second. */
  tick() {
    if (!this.list) return;
    const now = this.app.serverNow();
    for (const [key] of SECTIONS) {
      const items = Array.isArray(this.list[key]) ? this.list[key] : [];
      const when = this.sections[key].querySelectorAll("[data-when]");
      items.forEach((t, i) => {
        if (when[i])
          when[i].textContent = timeText({ ...specOf(t), ...t, status: t.status || key }, now);
      });
    }
  }
}
