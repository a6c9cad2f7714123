// The hands of a described board (pieces in reserve, for drops): the viewer's own below the
// board, the others' above it, each piece a button that selects it for a drop when one of
// the legal moves drops it.

import { h } from "../dom.js";
import { tokenIcon } from "./tokens.js";

/** Which side of the screen an edge is on when `bottom` is drawn at the bottom. */
export function screenSide(edge, bottom) {
  const round = ["south", "west", "north", "east"]; // clockwise, seen from above
  const sides = ["down", "left", "up", "right"];
  return sides[(round.indexOf(edge) - round.indexOf(bottom) + 4) % 4];
}

function chip(colour) {
  const el = h("span", { class: "hand-chip", "aria-hidden": "true" });
  el.style.background = colour; // through the CSSOM: the page allows no inline style
  return el;
}

/**
 * Fill `top` and `low` with the hands of `grid`'s seats.
 * @param {object} o
 * @param {object} o.grid          the description
 * @param {GridBoard} o.board      its selection is a hand piece's "*" + letter
 * @param {object[]} o.moves       the legal moves as gestures
 * @param {string} o.bottom        the edge drawn at the bottom
 * @param {number|null} o.you      the viewer's seat
 * @param {Map<string, string>} o.shapes  piece kind -> shape, as last seen on the board
 */
export function renderHands(top, low, { grid, board, moves, bottom, you, shapes }) {
  const hands = (seat) => grid.hands[String(seat)] || [];
  const anyHands = Object.keys(grid.hands).length > 0;
  const seats = grid.seats.map((_, i) => i).filter((i) => anyHands || hands(i).length);
  const many = grid.seats.length > 2;
  // the viewer's own hand below the board, nearest to it; the hands of the seats across
  // and beside above it (the one across nearest to the board)
  const order = { down: 0, up: 1, left: 2, right: 3 };
  const side = (seat) => screenSide(grid.seats[seat].edge, bottom);
  const above = [];
  const below = [];
  for (const seat of seats.sort((a, b) => order[side(a)] - order[side(b)])) {
    const items = hands(seat).map((e) => {
      const from = `*${e.letter}`;
      const drops = moves.filter((m) => m.from === from);
      const shape = shapes.get(e.kind) || "disc";
      const icon = tokenIcon(grid, { seat, glyph: e.glyph, shape, fill: null });
      const count = h("span", { class: "count" }, `×${e.count}`);
      const label = `${e.label}, ${e.count} in hand`;
      if (!drops.length)
        return h(
          "span",
          { class: "hand-piece", role: "img", "aria-label": label, dataset: { letter: e.letter } },
          icon,
          count,
        );
      const on = board.selected === from;
      return h(
        "button",
        {
          type: "button",
          class: `hand-piece${on ? " selected" : ""}`,
          "aria-pressed": on ? "true" : "false",
          "aria-label": `${label}: drop it`,
          dataset: { letter: e.letter },
          onclick: () => board.select(board.selected === from ? null : from),
        },
        icon,
        count,
      );
    });
    const where = { up: "across", left: "left", right: "right" }[side(seat)];
    const name = grid.seats[seat].name;
    const who = seat === you ? `You (${name})` : many && where ? `${name} (${where})` : name;
    const row = h(
      "div",
      { class: `hand side-${side(seat)}${seat === you ? " own" : ""}`, dataset: { seat } },
      chip(grid.seats[seat].colour),
      h("span", { class: "muted" }, `${who} in hand:`),
      items.length ? items : h("span", { class: "muted" }, "nothing"),
    );
    (side(seat) === "down" ? below : above).push(row);
  }
  top.classList.toggle("many", above.length > 1);
  top.replaceChildren(...above.reverse());
  low.replaceChildren(...below);
}
