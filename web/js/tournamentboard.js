// The tournament bar at the board: a tournament game names its tournament with a link back
// to it (after the game: the way back to the standings), and offers an arena's berserk
// (`tournament_berserk`: half your clock for one more point on a win) before your first move
// when the tournament allows it.
//
// A room is a tournament game when its pairing said so (`paired.tournament`, kept with the
// seat's token by account.js) or when its update names one.
//
// Once a player's game is over, the bar watches the tournament (`tournament_watch`): in a
// Swiss's interlude between rounds it shows their result and their next game with a
// countdown (tournamentnext.js) until the `paired` message takes them to it.

import { h, toast } from "./dom.js";
import { hasMoved } from "./offers.js";
import { storage } from "./storage.js";
import { NextRound } from "./tournamentnext.js";
import { specOf, tournamentHref } from "./tournamentwords.js";

export class TournamentBar {
  constructor(app, room) {
    this.app = app;
    this.room = room;
    this.tournament = null;
    this.spec = null;
    this.sending = false;
    // built once and only changed after (a button that stays put under a finger or a click)
    this.label = h("span", {}, "Tournament game: ");
    this.name = h("strong", {});
    this.back = h(
      "a",
      { class: "button small secondary", href: "#/tournaments", id: "t-back" },
      "Standings",
    );
    this.berserkButton = h(
      "button",
      {
        type: "button",
        class: "small berserk",
        id: "t-berserk",
        hidden: true,
        onclick: () => this.berserk(),
      },
      "Berserk",
      h("small", {}, " (half your clock, +1 point on a win)"),
    );
    this.next = new NextRound(app, "t-next-board");
    this.watching = null; // the tournament watched for our next game (after ours is over)
    this.onPush = (e) => {
      const m = e.detail;
      if (m.type === "tournament" && m.tournament === this.watching) this.heard(m);
    };
    this.onReady = () => {
      if (this.watching) this.watch(this.watching);
    };
    app.conn.addEventListener("push", this.onPush);
    app.addEventListener("ready", this.onReady);
    this.timer = setInterval(() => this.next.tick(), 1000);
    this.el = h(
      "div",
      { class: "t-bar", id: "t-bar", hidden: true },
      h("span", { class: "t-bar-name" }, this.label, this.name),
      this.back,
      this.berserkButton,
      this.next.el,
    );
  }

  destroy() {
    clearInterval(this.timer);
    this.app.conn.removeEventListener("push", this.onPush);
    this.app.removeEventListener("ready", this.onReady);
    if (this.watching && this.app.conn.online)
      this.app.request({ type: "tournament_unwatch", tournament: this.watching }).catch(() => {});
    this.watching = null;
  }

  /** Watch tournament `id` for our next game (the reply and every push carry our part). */
  async watch(id) {
    this.watching = id;
    try {
      this.heard(await this.app.request({ type: "tournament_watch", tournament: id }));
    } catch {
      /* offline, or the tournament is gone: the link back is there anyway */
    }
  }

  heard(m) {
    const running = m.view && m.view.status === "running";
    this.next.show(running && m.me ? m.me.next : null);
  }

  /** Which tournament `u`'s room belongs to, if any. */
  tournamentOf(u) {
    const named = u.tournament || (u.settings && u.settings.tournament);
    return typeof named === "string" ? named : storage.room(this.room).tournament || null;
  }

  async load(id) {
    try {
      const res = await fetch(`api/tournaments/${encodeURIComponent(id)}`, {
        headers: { Accept: "application/json" },
      });
      if (res.status !== 200 || this.tournament !== id) return;
      const data = await res.json(); // {tournament, view}
      this.spec = specOf(data.view || data);
      this.update(this.u, this.moved);
    } catch {
      /* offline: the link back is there anyway */
    }
  }

  /** Redraw for the room's latest update; `moved`: the seats that have moved (or null). */
  update(u, moved) {
    this.u = u;
    this.moved = moved;
    const id = u ? this.tournamentOf(u) : null;
    if (!id) {
      this.el.hidden = true;
      return;
    }
    if (id !== this.tournament) {
      this.tournament = id;
      this.spec = null;
      this.load(id);
    }
    const over = u.status === "over";
    const name = this.spec && this.spec.name ? this.spec.name : "";
    this.label.textContent = over ? "Game over · " : "Tournament game: ";
    this.name.textContent = name;
    this.back.href = tournamentHref(id);
    this.back.textContent = over ? "Back to the tournament" : "Standings";
    this.back.classList.toggle("secondary", !over);
    this.berserkButton.hidden = !this.canBerserk(u, moved);
    this.berserkButton.disabled = this.sending;
    const seated = u.you !== null && u.you !== undefined;
    if (over && seated && this.watching !== id) this.watch(id);
    this.el.hidden = false;
  }

  canBerserk(u, moved) {
    const spec = this.spec;
    if (!spec || spec.system !== "arena" || !spec.berserk) return false;
    if (u.status !== "playing" || u.you === null || u.you === undefined) return false;
    if (!u.clock || u.clock.type !== "fischer") return false; // the clock it halves
    if (storage.room(this.room).berserk) return false;
    return !hasMoved(u, u.you, moved);
  }

  async berserk() {
    this.sending = true;
    try {
      await this.app.request({
        type: "tournament_berserk",
        tournament: this.tournament,
        room: this.room,
      });
      storage.updateRoom(this.room, (d) => {
        d.berserk = true;
      });
      toast("Berserk: your clock is halved; a win earns one more point.");
    } catch (err) {
      this.app.fail(err);
    } finally {
      this.sending = false;
      this.update(this.u, this.moved);
    }
  }
}
