// The lobby's create-a-room form: the game, its options (from the game's schema), who sits
// where (open, me, a bot), take-backs, the clock and the spectators (roomsettings.js); it
// creates the room and goes to it.

import { levelLabel } from "./computer.js";
import { h, toast } from "./dom.js";
import { howToPlay } from "./help.js";
import { ClockFields, SpectatorFields } from "./roomsettings.js";
import { storage } from "./storage.js";
import { seatName } from "./text.js";

export class CreateRoomForm {
  /**
   * @param {object} app
   * @param {() => string|null} playerName  the name to play under (null: none given yet)
   */
  constructor(app, playerName) {
    this.app = app;
    this.playerName = playerName;
    const games = app.games;
    const select = h(
      "select",
      { id: "game", name: "game" },
      games.map((g) => h("option", { value: g.name }, g.title)),
    );
    const desc = h("p", { class: "game-desc", id: "game-desc" });
    const rules = h("div", { class: "game-rules" });
    const optionsBox = h("div", { class: "options" });
    const seatsBox = h("div", { class: "seats-box" });
    const undoBox = h("div", {});
    this.clock = new ClockFields();
    this.spectators = new SpectatorFields();
    const form = h(
      "form",
      { "aria-labelledby": "create-h", novalidate: true },
      h("label", { class: "field", for: "game" }, h("span", {}, "Game"), select),
      desc,
      rules,
      optionsBox,
      seatsBox,
      this.clock.el,
      undoBox,
      this.spectators.el,
      h("div", {}, h("button", { type: "submit", id: "create-room" }, "Create room")),
    );
    const build = () => {
      const info = this.app.info(select.value);
      desc.textContent = info.description || "";
      rules.replaceChildren(...[howToPlay(info, "game-rules")].filter(Boolean));
      optionsBox.replaceChildren(...this.optionFields(info));
      this.renderSeatChoices(seatsBox, info, info.min_seats);
      undoBox.replaceChildren(
        h(
          "label",
          { class: "field check" },
          h("input", {
            type: "checkbox",
            name: "undo",
            id: "opt-undo",
            checked: !info.hidden_information,
          }),
          h(
            "span",
            {},
            "Allow take-backs",
            info.hidden_information
              ? h("small", {}, " (off by default: a take-back would replay with knowledge gained)")
              : null,
          ),
        ),
      );
      this.clock.show(info);
      this.spectators.show(info);
    };
    select.addEventListener("change", build);
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      this.create(form, select.value);
    });
    build();
    this.el = form;
  }

  optionFields(info) {
    const plain = [];
    const advanced = [];
    for (const [name, opt] of Object.entries(info.options || {})) {
      const id = `opt-${name}`;
      let input;
      if (opt.choices) {
        input = h(
          "select",
          { id, name, dataset: { option: name, kind: opt.type } },
          opt.choices.map((c) =>
            h("option", { value: String(c), selected: c === opt.default }, String(c)),
          ),
        );
      } else if (opt.type === "bool") {
        input = h("input", {
          id,
          name,
          type: "checkbox",
          checked: !!opt.default,
          dataset: { option: name, kind: opt.type },
        });
      } else if (opt.type === "int") {
        input = h("input", {
          id,
          name,
          type: "number",
          value: opt.default,
          min: opt.minimum,
          max: opt.maximum,
          step: 1,
          dataset: { option: name, kind: opt.type },
        });
      } else {
        input = h("input", {
          id,
          name,
          type: "text",
          value: opt.default,
          spellcheck: "false",
          dataset: { option: name, kind: opt.type },
        });
      }
      const field = h(
        "label",
        { class: opt.type === "bool" ? "field check" : "field", for: id },
        h("span", {}, name.replaceAll("_", " ")),
        input,
        h("small", {}, opt.description || ""),
      );
      (opt.type === "str" && !opt.choices ? advanced : plain).push(field);
    }
    if (advanced.length) {
      plain.push(
        h(
          "details",
          { class: "advanced" },
          h("summary", {}, "More options"),
          h("div", { class: "options" }, advanced),
        ),
      );
    }
    return plain;
  }

  renderSeatChoices(box, info, count) {
    const children = [];
    if (info.max_seats > info.min_seats) {
      const n = h("input", {
        type: "number",
        id: "seat-count",
        name: "seats",
        min: info.min_seats,
        max: info.max_seats,
        value: count,
      });
      n.addEventListener("change", () => {
        const v = Math.max(
          info.min_seats,
          Math.min(info.max_seats, Number(n.value) || info.min_seats),
        );
        this.renderSeatChoices(box, info, v);
        box.querySelector("#seat-count").focus();
      });
      children.push(h("label", { class: "field", for: "seat-count" }, h("span", {}, "Players"), n));
    }
    const bots = Array.isArray(info.bots) ? info.bots : [];
    const levels = new Map(
      (Array.isArray(info.levels) ? info.levels : []).map((l) => [l.strength, levelLabel(l)]),
    );
    const botLabel = (name) => levels.get(name) || name;
    const rows = [];
    for (let seat = 0; seat < count; seat++) {
      const id = `seat-${seat}`;
      rows.push(
        h(
          "div",
          { class: "seat-choice" },
          h("label", { for: id }, seatName(info, seat)),
          h(
            "select",
            { id, name: id, dataset: { seat } },
            h("option", { value: "open" }, "Open — for anyone"),
            h("option", { value: "me", selected: seat === 0 }, "Me"),
            bots.map((b) => {
              const name = typeof b === "string" ? b : b.name;
              const title = typeof b === "string" ? botLabel(b) : b.title || b.name;
              return h("option", { value: `bot:${name}` }, `Bot: ${title}`);
            }),
          ),
        ),
      );
    }
    children.push(
      h("fieldset", { class: "seat-choices" }, h("legend", {}, "Who sits where"), rows),
    );
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
    const clock = this.clock.settings(info);
    if (clock === null) return;
    const spectators = this.spectators.settings();
    if (spectators === null) return;
    const button = form.querySelector("#create-room");
    button.disabled = true;
    try {
      // the creator's first seat and every bot are taken in the room's first append: the
      // lobby never offers those seats to somebody else
      const mine = seatSelects
        .filter((sel) => sel.value === "me")
        .map((sel) => Number(sel.dataset.seat));
      const bots = seatSelects
        .filter((sel) => sel.value.startsWith("bot:"))
        .map((sel) => ({ seat: Number(sel.dataset.seat), strength: sel.value.slice(4) }));
      const request = {
        type: "create_room",
        game,
        options,
        seats: seatSelects.length,
        settings: { undo, ...clock, ...spectators },
        bots,
      };
      if (mine.length) Object.assign(request, { sit: mine[0], name });
      const reply = await this.app.request(request);
      const id = reply.room;
      storage.updateRoom(id, (d) => {
        d.game = game;
        d.status = "waiting";
      });
      if (mine.length) this.app.heldSeat(id, reply);
      for (const seat of mine.slice(1)) await this.app.takeSeat(id, seat, name);
      location.hash = `#room=${id}`;
    } catch (err) {
      this.app.fail(err);
    } finally {
      button.disabled = false;
    }
  }
}
