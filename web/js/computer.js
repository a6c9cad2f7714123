// Play with the computer (issue 48, item 2): on the lobby's first screen, a game against the
// server's bots in one click — the game, a level named plainly with a rating one can read,
// your side and the clock, each choice remembered. Every other seat gets the level's bot,
// seated with you in the room's first append (create_room's sit and bots).

import { h } from "./dom.js";
import { storage } from "./storage.js";
import { seatName } from "./text.js";

//: the ladder measures each level's Elo over a player moving at random (docs/BOTS.md);
//: shown on a scale where that player stands at 400, a rating newcomers can place
export const RANDOM_RATING = 400;
//: plain names for ratings on that scale: [below this rating, name]
const BANDS = [
  [800, "beginner"],
  [1100, "novice"],
  [1400, "intermediate"],
  [1700, "advanced"],
  [2000, "expert"],
  [Infinity, "master"],
];
const CLOCKS = [
  ["none", "No clock"],
  ["3+2", "3+2 blitz"],
  ["5+3", "5+3 blitz"],
  ["10+5", "10+5 rapid"],
  ["15+10", "15+10 rapid"],
  ["30+20", "30+20 classical"],
];

/** A level as a player reads it: "Level 2: novice — rated about 950"; an engine's level
 * names the engine, its skill and its time a move. */
export function levelLabel(level) {
  const what = level.engine
    ? `${level.title || level.engine} (skill ${level.skill}, ${level.think_time} s a move)`
    : `Level ${level.level}`;
  if (level.elo == null) return `${what} — not rated yet`;
  const rating = Math.round((RANDOM_RATING + level.elo) / 50) * 50;
  const band = BANDS.find(([below]) => rating < below)[1];
  if (level.algorithm === "random") return `${what}: ${band} — moves at random`;
  return `${what}: ${band} — rated about ${rating}`;
}

export class ComputerPanel {
  constructor(app, playerName) {
    this.app = app;
    this.playerName = playerName;
    this.game = h("select", { id: "cpu-game", name: "cpu-game", onchange: () => this.fill() });
    this.level = h("select", { id: "cpu-level", name: "cpu-level" });
    this.side = h("select", { id: "cpu-side", name: "cpu-side" });
    this.clock = h(
      "select",
      { id: "cpu-clock", name: "cpu-clock" },
      CLOCKS.map(([value, text]) =>
        h("option", { value, selected: value === storage.pref("cpuClock", "none") }, text),
      ),
    );
    this.button = h("button", { type: "submit", id: "cpu-play" }, "Play");
    const field = (label, input) => h("label", { class: "field" }, h("span", {}, label), input);
    this.el = h(
      "section",
      { class: "panel computer", "aria-labelledby": "cpu-h" },
      h("h2", { id: "cpu-h" }, "Play with the computer"),
      h(
        "form",
        {
          class: "cpu-form",
          onsubmit: (e) => {
            e.preventDefault();
            this.play();
          },
        },
        field("Game", this.game),
        field("Level", this.level),
        field("You play", this.side),
        field("Clock", this.clock),
        this.button,
      ),
    );
    this.onReady = () => this.fill();
    app.addEventListener("ready", this.onReady);
    this.fill();
  }

  destroy() {
    this.app.removeEventListener("ready", this.onReady);
  }

  /** The games with bots, and the chosen game's levels and sides. */
  fill() {
    const games = this.app.games.filter((g) => Array.isArray(g.levels) && g.levels.length);
    this.el.hidden = !games.length;
    if (!games.length) return;
    const chosen = this.game.value || storage.pref("cpuGame", "chess");
    const game = games.some((g) => g.name === chosen) ? chosen : games[0].name;
    this.game.replaceChildren(
      ...games.map((g) => h("option", { value: g.name, selected: g.name === game }, g.title)),
    );
    storage.setPref("cpuGame", game);
    const info = this.app.info(game);
    const keep = storage.pref(`cpuLevel.${game}`, "");
    this.level.replaceChildren(
      ...info.levels.map((l, i) => {
        const value = l.strength;
        return h("option", { value, selected: keep ? value === keep : i === 1 }, levelLabel(l));
      }),
    );
    const seats = Math.max(2, info.min_seats || 2);
    this.side.replaceChildren(
      h("option", { value: "random" }, "Either (random)"),
      ...Array.from({ length: seats }, (_, s) =>
        h("option", { value: String(s), selected: s === 0 }, seatName(info, s)),
      ),
    );
  }

  async play() {
    const name = this.playerName();
    if (!name) return;
    const game = this.game.value;
    const info = this.app.info(game);
    const seats = Math.max(2, info.min_seats || 2);
    const mine =
      this.side.value === "random" ? Math.floor(Math.random() * seats) : Number(this.side.value);
    const strength = this.level.value;
    storage.setPref(`cpuLevel.${game}`, strength);
    storage.setPref("cpuClock", this.clock.value);
    const bots = Array.from({ length: seats }, (_, seat) => seat)
      .filter((s) => s !== mine)
      .map((seat) => ({ seat, strength }));
    const settings = {};
    if (this.clock.value !== "none") {
      const [minutes, increment] = this.clock.value.split("+").map(Number);
      settings.clock = { type: "fischer", base: minutes * 60, increment };
    }
    this.button.disabled = true;
    try {
      const reply = await this.app.request({
        type: "create_room",
        game,
        seats,
        settings,
        bots,
        sit: mine,
        name,
      });
      storage.updateRoom(reply.room, (d) => {
        d.game = game;
        d.status = "playing";
      });
      this.app.heldSeat(reply.room, reply);
      location.hash = `#room=${reply.room}`;
    } catch (err) {
      this.app.fail(err);
    } finally {
      this.button.disabled = false;
    }
  }
}
