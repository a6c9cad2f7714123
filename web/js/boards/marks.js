// Marks of what the last turn did, drawn on a grid board's marks layer (GridBoard.layerMarks):
// an arrow for a move, a burst for a collision, an X for a capture, a star for a promotion.
// Each is an SVG node placed by the board's geometry (board.center).

import { s } from "../dom.js";

/** An arrow from one square's centre to another's, for the marks layer. */
export function arrow(board, from, to, cls) {
  const [x1, y1] = board.center(from);
  const [x2, y2] = board.center(to);
  const len = Math.hypot(x2 - x1, y2 - y1) || 1;
  const ux = (x2 - x1) / len;
  const uy = (y2 - y1) / len;
  const tipX = x2 - ux * 18;
  const tipY = y2 - uy * 18;
  const baseX = tipX - ux * 26;
  const baseY = tipY - uy * 26;
  const g = s("g", { class: "event-mark" });
  g.append(
    s("line", { class: `arrow ${cls}`, x1, y1, x2: baseX, y2: baseY }),
    s("polygon", {
      class: `arrow-head ${cls}`,
      points:
        `${tipX},${tipY} ${baseX - uy * 16},${baseY + ux * 16} ` +
        `${baseX + uy * 16},${baseY - ux * 16}`,
    }),
  );
  return g;
}

/** A star-burst on a square (collisions). */
export function burst(board, square) {
  const [cx, cy] = board.center(square);
  const pts = [];
  for (let i = 0; i < 16; i++) {
    const rad = i % 2 ? 20 : 44;
    const a = (Math.PI * i) / 8;
    pts.push(`${cx + rad * Math.cos(a)},${cy + rad * Math.sin(a)}`);
  }
  return s("polygon", { class: "burst event-mark", points: pts.join(" ") });
}

/** An X over a square (a capture). */
export function xmark(board, square) {
  const [cx, cy] = board.center(square);
  const g = s("g", { class: "event-mark" });
  g.append(
    s("line", { class: "xmark", x1: cx - 38, y1: cy - 38, x2: cx - 24, y2: cy - 24 }),
    s("line", { class: "xmark", x1: cx + 38, y1: cy - 38, x2: cx + 24, y2: cy - 24 }),
    s("line", { class: "xmark", x1: cx - 38, y1: cy + 38, x2: cx - 24, y2: cy + 24 }),
    s("line", { class: "xmark", x1: cx + 38, y1: cy + 38, x2: cx + 24, y2: cy + 24 }),
  );
  return g;
}

/** A small star in a square's corner (promotion). */
export function star(board, square) {
  const [cx, cy] = board.center(square);
  const x = cx + 32;
  const y = cy - 32;
  const pts = [];
  for (let i = 0; i < 10; i++) {
    const rad = i % 2 ? 6 : 14;
    const a = -Math.PI / 2 + (Math.PI * i) / 5;
    pts.push(`${x + rad * Math.cos(a)},${y + rad * Math.sin(a)}`);
  }
  return s("polygon", { class: "star event-mark", points: pts.join(" ") });
}

/** The marks (description words) that are events of the last turn, drawn by their shape;
 *  "check" lights its square and draws nothing. */
export const EVENT_MARKS = {
  check: null,
  capture: xmark,
  collision: burst,
  promotion: star,
  flip: star,
};

/**
 * What the last turn did, as marks for the board: its moves as arrows (the description's
 * `arrows`, by seat — the first seat's blue, the others' red — else one from the first to
 * the last square of `last`) and its events by their shapes.
 */
export function turnMarks(board, grid) {
  const out = [];
  if (grid.arrows && grid.arrows.length) {
    for (const [from, to, seat] of grid.arrows) out.push(arrow(board, from, to, seat ? "b" : "w"));
  } else if (grid.last.length >= 2) {
    out.push(arrow(board, grid.last[0], grid.last[grid.last.length - 1], "w"));
  }
  for (const [sq, what] of Object.entries(grid.marks)) {
    const draw = EVENT_MARKS[what];
    if (draw) out.push(draw(board, sq));
  }
  return out;
}
