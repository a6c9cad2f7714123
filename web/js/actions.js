// A room's actions panel: resign (with its confirmation), take back a move and answer a
// take-back, and the offers (offers.js: draw, abort, claim, rematch) with their questions.

import { h } from "./dom.js";
import { hasMoved, offerControls } from "./offers.js";
import { playerLabel } from "./text.js";

export class ActionsPanel {
  /**
   * @param {object} app
   * @param {string} id  the room
   * @param {() => void} render  redraw the room (after a choice that changes the panel)
   */
  constructor(app, id, render) {
    this.app = app;
    this.id = id;
    this.render = render;
    this.confirming = false;
    this.controls = h("div", { class: "controls", id: "controls" });
    this.undoBox = h("div", { id: "undo-box" });
    this.el = h(
      "section",
      { class: "panel", "aria-label": "Actions" },
      this.controls,
      this.undoBox,
    );
  }

  /** Redraw for the latest update; `moved`: the seats that have moved (or null). */
  update(u, info, moved, tournament = false) {
    const you = u.you;
    const controls = [];
    const playing = u.status === "playing";
    if (you !== null && playing) {
      controls.push(this.confirming ? this.confirmResign() : this.resignButton());
      if (this.app.undoAllowed(u) && hasMoved(u, you, moved) && !u.undo) {
        controls.push(
          h(
            "button",
            { type: "button", class: "secondary", id: "undo", onclick: () => this.undo() },
            "Take back",
          ),
        );
      }
    }
    if (you === null && playing) controls.push(h("span", { class: "muted" }, "You are watching."));
    const offers = offerControls({
      request: (msg) => this.app.request(msg).catch((err) => this.app.fail(err)),
      u,
      info,
      moved,
      followRoom: this.app.rematches.get(this.id) || null,
      gone: this.app.gone.get(this.id) || null,
      tournament,
    });
    controls.push(...offers.controls);
    if (u.status === "over")
      controls.push(h("a", { class: "button", href: "#", id: "new-game" }, "New game"));
    this.controls.replaceChildren(...controls);

    const box = [...this.undoQuestion(u, info), ...offers.box];
    this.undoBox.className = box.length ? "undo-ask" : "";
    this.undoBox.replaceChildren(...box);
    this.el.hidden = !controls.length && !box.length;
  }

  resignButton() {
    return h(
      "button",
      {
        type: "button",
        class: "secondary",
        id: "resign",
        onclick: () => {
          this.confirming = true;
          this.render();
          this.el.querySelector("#resign-yes").focus();
        },
      },
      "Resign",
    );
  }

  confirmResign() {
    return h(
      "div",
      { class: "confirm", role: "group", "aria-label": "Confirm resignation" },
      h("span", {}, "Resign this game?"),
      h(
        "button",
        { type: "button", class: "danger", id: "resign-yes", onclick: () => this.resign() },
        "Yes, resign",
      ),
      h(
        "button",
        {
          type: "button",
          class: "secondary",
          id: "resign-no",
          onclick: () => {
            this.confirming = false;
            this.render();
          },
        },
        "Cancel",
      ),
    );
  }

  /** A take-back asked for: ours waits, another's is ours to answer (a person's seat). */
  undoQuestion(u, info) {
    const undo = u.undo;
    const you = u.you;
    if (!undo || u.status !== "playing") return [];
    const asker = playerLabel(info, u, undo.seat);
    if (undo.seat === you)
      return [h("p", {}, "You asked to take back your last move — waiting for an answer.")];
    if (
      you !== null &&
      u.seats[you] &&
      u.seats[you].kind === "person" &&
      !undo.accepted.includes(you)
    ) {
      return [
        h("p", {}, `${asker} asks to take back their last move.`),
        h(
          "div",
          { class: "row" },
          h(
            "button",
            { type: "button", id: "undo-accept", onclick: () => this.answerUndo(true) },
            "Accept",
          ),
          h(
            "button",
            {
              type: "button",
              class: "secondary",
              id: "undo-decline",
              onclick: () => this.answerUndo(false),
            },
            "Decline",
          ),
        ),
      ];
    }
    return [h("p", {}, `${asker} asked to take back a move.`)];
  }

  async resign() {
    this.confirming = false;
    const u = this.app.latest(this.id);
    try {
      await this.app.request({ type: "resign", room: this.id, seat: u.you });
    } catch (err) {
      this.app.fail(err);
    }
    this.render();
  }

  async undo() {
    const u = this.app.latest(this.id);
    try {
      await this.app.request({ type: "undo", room: this.id, seat: u.you });
    } catch (err) {
      this.app.fail(err);
    }
  }

  async answerUndo(accept) {
    const u = this.app.latest(this.id);
    try {
      await this.app.request({ type: "undo_answer", room: this.id, seat: u.you, accept });
    } catch (err) {
      this.app.fail(err);
    }
  }
}
