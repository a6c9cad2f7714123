// At the board: what a player reaches for beside the game itself — flip the board, show or
// hide its coordinates, premoves on or off, the tab's title saying when it is your turn, and
// on a narrow screen each player's clock right above and below the board (the seat list with
// the clocks is below the board there, out of sight while playing).

import { h } from "./dom.js";
import { storage } from "./storage.js";

/** The screens on which the clocks go above and below the board (kibitz.css agrees). */
export const NARROW = "(max-width: 860px)";

/** Boards drawn on a grid of squares, which flip and carry coordinates. */
const GRID_BOARDS = new Set(["chess", "apocalypse", "banqi", "grid"]);

/** Boards that take a premove while the seat waits (a game of turns, not simultaneous). */
const PREMOVE_BOARDS = new Set(["chess", "grid"]);

/** Whether a game of `info` takes premoves (grid.js queues them, the boards say where). */
export function premovesApply(info) {
  return !!info && PREMOVE_BOARDS.has(info.board) && !info.simultaneous;
}

/** Whether the seat we play (any we hold) is to move now and has not moved yet. */
export function yourTurn(u) {
  return (
    !!u &&
    u.status === "playing" &&
    u.you !== null &&
    u.you !== undefined &&
    u.to_act.includes(u.you) &&
    !u.your_move
  );
}

/** The tab's title: "Your turn · Chess · Kibitz" when it is. */
export function tabTitle(u, title) {
  return `${yourTurn(u) ? "Your turn · " : ""}${title} · Kibitz`;
}

/**
 * The "Flip board", "Coordinates" and "Premoves" buttons. `onFlip` is called after the flip
 * or the premove choice changed; the coordinates and premove choices are this browser's,
 * kept across games (coordinates: a class on `scope`).
 */
export class ViewToggles {
  constructor(scope, onFlip) {
    this.scope = scope;
    this.flipped = false;
    this.coords = storage.pref("coords", true) !== false;
    this.premoves = storage.pref("premoves", true) !== false;
    this.flipButton = h(
      "button",
      {
        type: "button",
        class: "secondary small",
        id: "flip-board",
        "aria-pressed": "false",
        onclick: () => {
          this.flipped = !this.flipped;
          this.render();
          onFlip();
        },
      },
      "Flip board",
    );
    this.coordsButton = h(
      "button",
      {
        type: "button",
        class: "secondary small",
        id: "coords-toggle",
        onclick: () => {
          this.coords = !this.coords;
          storage.setPref("coords", this.coords);
          this.render();
        },
      },
      "Coordinates",
    );
    this.premoveButton = h(
      "button",
      {
        type: "button",
        class: "secondary small",
        id: "premove-toggle",
        title: "Move while the other side thinks; right-click or Escape cancels",
        onclick: () => {
          this.premoves = !this.premoves;
          storage.setPref("premoves", this.premoves);
          this.render();
          onFlip();
        },
      },
      "Premoves",
    );
    // a game with more than one piece set (XiangQi's characters or Western letters):
    // the choice is kept per game
    this.sets = [];
    this.game = null;
    this.piecesButton = h(
      "button",
      {
        type: "button",
        class: "secondary small",
        id: "pieces-toggle",
        hidden: true,
        onclick: () => {
          const names = this.sets.map((set) => set.name);
          const next = names[(names.indexOf(this.pieceSet()) + 1) % names.length];
          storage.setPref(`pieces.${this.game}`, next);
          this.render();
          onFlip();
        },
      },
      "Pieces",
    );
    this.el = h(
      "div",
      { class: "view-toggles", role: "group", "aria-label": "Board view" },
      this.flipButton,
      this.coordsButton,
      this.premoveButton,
      this.piecesButton,
    );
    this.render();
  }

  /** The name of the piece set chosen for the game shown (the game's first by default). */
  pieceSet() {
    const names = this.sets.map((set) => set.name);
    const chosen = storage.pref(`pieces.${this.game}`, names[0]);
    return names.includes(chosen) ? chosen : names[0];
  }

  /** Shown only for boards of squares (not the hare track); premoves only to a player. */
  show(info, seated) {
    this.el.hidden = !GRID_BOARDS.has(info && info.board);
    this.premoveButton.hidden = !seated || !premovesApply(info);
    this.sets = (info && Array.isArray(info.piece_sets) && info.piece_sets) || [];
    this.game = info ? info.name : null;
    this.piecesButton.hidden = this.sets.length < 2;
    this.render();
  }

  render() {
    this.flipButton.setAttribute("aria-pressed", this.flipped ? "true" : "false");
    this.coordsButton.setAttribute("aria-pressed", this.coords ? "true" : "false");
    this.premoveButton.setAttribute("aria-pressed", this.premoves ? "true" : "false");
    this.scope.classList.toggle("no-coords", !this.coords);
    if (this.sets.length > 1) this.piecesButton.textContent = `Pieces: ${this.pieceSet()}`;
  }
}

/** The glyphs of the chosen piece set, by piece kind (null: the views' own). */
export function chosenGlyphs(info) {
  const sets = (info && Array.isArray(info.piece_sets) && info.piece_sets) || [];
  if (sets.length < 2) return null;
  const name = storage.pref(`pieces.${info.name}`, sets[0].name);
  const set = sets.find((one) => one.name === name);
  return set && Object.keys(set.glyphs).length ? set.glyphs : null;
}

/** The seat drawn at the bottom of the board: ours (seat 0 when watching), turned by a flip. */
export function bottomSeat(u, flipped) {
  const n = u.seats.length;
  const mine = u.you === null || u.you === undefined ? (n === 2 ? 0 : null) : u.you;
  if (mine === null) return null;
  return flipped && n === 2 ? 1 - mine : mine;
}

/**
 * Fill the strips above and below the board with each seat's name and clock (narrow
 * screens with a clock only; otherwise they stay empty and the clocks sit in the seat list).
 * `clockEl(seat)` is the seat's live clock element, `chip(seat)` its colour chip.
 */
export function renderBoardClocks(top, bottom, u, { narrow, flipped, clockEl, chip, label }) {
  if (!narrow || !u.clock) {
    top.replaceChildren();
    bottom.replaceChildren();
    return;
  }
  const below = bottomSeat(u, flipped);
  const entry = (seat) =>
    h(
      "span",
      { class: "one", dataset: { seat } },
      h("span", { class: "who" }, chip(seat), label(seat)),
      clockEl(seat),
    );
  const above = u.seats.map((_, seat) => seat).filter((seat) => seat !== below);
  top.replaceChildren(h("div", { class: "clocks" }, above.map(entry)));
  bottom.replaceChildren(...(below === null ? [] : [h("div", { class: "clocks" }, entry(below))]));
}

/** What a spectator of a game that hides something sees, and why (empty: nothing to say). */
export function watchNote(el, u, info) {
  const see = u.settings || {};
  let text = "";
  if (u.you === null && info.hidden_information && u.status !== "over") {
    text = see.spectators_see_all
      ? `You watch every player's view, ${see.spectator_delay} turns late.`
      : `${info.title} hides each player's pieces from the other: as a spectator you see only ` +
        "what is public. The whole game opens in the move list when it ends. (A room made " +
        "with spectators seeing everything, and a delay, shows it all.)";
  }
  el.textContent = text;
  return text !== "";
}
