// The create-a-room form's room settings: the clock (a time control and what a timeout does
// in a simultaneous turn) and the spectators (a delay, seeing everything), each read back as
// the room's settings or refused with a toast.

import { h, toast } from "./dom.js";

export class ClockFields {
  constructor() {
    const type = h(
      "select",
      { id: "clock-type", name: "clock-type" },
      h("option", { value: "none" }, "No clock"),
      h("option", { value: "fischer" }, "Fischer: time + increment"),
      h("option", { value: "per_move" }, "Per move"),
    );
    const num = (id, value, attrs) =>
      h("input", { id, name: id, type: "number", inputmode: "decimal", value, ...attrs });
    this.inputs = {
      type,
      base: num("clock-base", 5, { min: 0.5, max: 1440, step: "any" }),
      increment: num("clock-increment", 2, { min: 0, max: 3600, step: 1 }),
      seconds: num("clock-seconds", 30, { min: 1, max: 86400, step: 1 }),
      onTimeout: h(
        "select",
        { id: "clock-on-timeout", name: "on-timeout" },
        h("option", { value: "forfeit" }, "Forfeit — the seat that has not moved loses"),
        h("option", { value: "random" }, "Random move — one is played for it"),
      ),
    };
    const c = this.inputs;
    this.parts = {
      fischer: h(
        "div",
        { class: "clock-fields" },
        h(
          "label",
          { class: "field", for: "clock-base" },
          h("span", {}, "Minutes per player"),
          c.base,
        ),
        h(
          "label",
          { class: "field", for: "clock-increment" },
          h("span", {}, "Increment (seconds per move)"),
          c.increment,
        ),
      ),
      per_move: h(
        "div",
        { class: "clock-fields" },
        h(
          "label",
          { class: "field", for: "clock-seconds" },
          h("span", {}, "Seconds per move"),
          c.seconds,
        ),
      ),
      onTimeout: h(
        "label",
        { class: "field", for: "clock-on-timeout" },
        h("span", {}, "On timeout"),
        c.onTimeout,
        h("small", {}, "When a clock runs out while both sides choose their move at the same time"),
      ),
    };
    type.addEventListener("change", () => this.show(this.info));
    this.el = h(
      "fieldset",
      { class: "clock-choice", id: "clock-choice" },
      h("legend", {}, "Clock"),
      h("label", { class: "field", for: "clock-type" }, h("span", {}, "Time control"), type),
      this.parts.fischer,
      this.parts.per_move,
      this.parts.onTimeout,
    );
  }

  /** Show the fields of the chosen time control (`info`: the game's registry entry). */
  show(info) {
    this.info = info;
    const kind = this.inputs.type.value;
    this.parts.fischer.hidden = kind !== "fischer";
    this.parts.per_move.hidden = kind !== "per_move";
    this.parts.onTimeout.hidden = kind === "none" || !(info && info.simultaneous);
  }

  /** The clock settings of the form: [settings fields] or null after telling what is wrong. */
  settings(info) {
    const c = this.inputs;
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
}

export class SpectatorFields {
  constructor() {
    this.delayInput = h("input", {
      id: "opt-spectator-delay",
      name: "spectator_delay",
      type: "number",
      inputmode: "numeric",
      min: 0,
      max: 50,
      step: 1,
      value: 0,
    });
    this.seeAllInput = h("input", {
      id: "opt-see-all",
      name: "spectators_see_all",
      type: "checkbox",
    });
    this.seeAllField = h(
      "label",
      { class: "field check", for: "opt-see-all" },
      this.seeAllInput,
      h(
        "span",
        {},
        "Spectators see everything",
        h(
          "small",
          {},
          " (every seat's view, hidden pieces too; needs a delay of at least 2 turns — " +
            "anybody could watch, a player too, from a second tab)",
        ),
      ),
    );
    this.el = h(
      "fieldset",
      { class: "spectator-choice", id: "spectator-choice" },
      h("legend", {}, "Spectators"),
      h(
        "label",
        { class: "field", for: "opt-spectator-delay" },
        h("span", {}, "Spectator delay (turns)"),
        this.delayInput,
        h(
          "small",
          {},
          "0: spectators watch live; 1–50: they see the game that many turns late, " +
            "and players may not watch their own game",
        ),
      ),
      this.seeAllField,
    );
  }

  /** Only a game that hides something offers "see everything". */
  show(info) {
    this.seeAllField.hidden = !info.hidden_information;
    if (!info.hidden_information) this.seeAllInput.checked = false;
  }

  /** The spectator settings of the form, or null after telling what is wrong. */
  settings() {
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
}
