// The pieces of a board described as data: a piece drawn as a token (its shape, glyph and
// the colours of its owner; a "figure" is the chess figure its glyph names, white or black
// as its owner's colour is light or dark), the small icon of one, the words it is read out
// as, and the chooser of a choice (promotion) that shows them.

import { s } from "../dom.js";
import { chessPiece } from "../pieces.js";
import { pickOne } from "./picker.js";

const NEUTRAL = "#9e9e9e";
const BACK = "#7a5a3a";

/** Black or white, whichever reads better on `hex` (#rrggbb). */
export function inkOn(hex) {
  const n = parseInt(String(hex).slice(1), 16);
  if (Number.isNaN(n)) return "#111";
  const [r, g, b] = [(n >> 16) & 255, (n >> 8) & 255, n & 255].map((c) => {
    const v = c / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  });
  const lum = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  return lum > 0.22 ? "#111" : "#fff";
}

function seatColour(grid, seat) {
  const s0 = seat === null || seat === undefined ? null : grid.seats[seat];
  return s0 ? s0.colour : NEUTRAL;
}

/**
 * A piece token in a 100 x 100 box. `pointing`: the screen side a "point" piece points to.
 */
export function token(grid, p, pointing = "up") {
  const owner = seatColour(grid, p.seat);
  const hidden = !!p.hidden;
  if (p.shape === "figure" && !hidden) {
    const side = inkOn(owner) === "#111" ? "white" : "black";
    return chessPiece(String(p.glyph || "P"), side, "token figure");
  }
  const body = hidden ? BACK : p.fill || owner;
  const rimmed = !hidden && !!p.fill && p.seat !== null && p.seat !== undefined;
  const stroke = rimmed
    ? owner
    : hidden && p.seat !== null && p.seat !== undefined
      ? owner
      : "#1d1d1d";
  const width = rimmed ? 9 : 3;
  const g = s("g", {
    class: `art token ${p.shape || "disc"}${hidden ? " back" : ""}${p.promoted ? " promoted" : ""}`,
  });
  const paint = { fill: body, stroke, "stroke-width": width, "stroke-linejoin": "round" };
  if (p.shape === "square") {
    g.append(s("rect", { x: 13, y: 13, width: 74, height: 74, rx: 12, ...paint }));
  } else if (p.shape === "point") {
    const turn = { up: 0, right: 90, down: 180, left: 270 }[pointing] || 0;
    g.append(
      s("polygon", {
        points: "50,8 82,26 88,90 12,90 18,26",
        transform: `rotate(${turn} 50 50)`,
        ...paint,
      }),
    );
  } else {
    g.append(s("circle", { cx: 50, cy: 50, r: 41, ...paint }));
  }
  if (hidden) {
    g.append(
      s("circle", { cx: 50, cy: 50, r: 24, fill: "none", stroke: "#b98555", "stroke-width": 4 }),
    );
    return g;
  }
  const glyph = String(p.glyph || "");
  if (glyph) {
    const size = glyph.length > 1 ? 38 : 52;
    g.append(
      s(
        "text",
        {
          class: "glyph",
          x: 50,
          y: 50,
          dy: "0.35em",
          "text-anchor": "middle",
          "font-size": size,
          "font-weight": 700,
          fill: inkOn(body),
        },
        glyph,
      ),
    );
  }
  if (p.promoted) {
    g.append(
      s("circle", {
        class: "promoted-dot",
        cx: 80,
        cy: 20,
        r: 11,
        fill: "#d32f2f",
        stroke: "#fff",
        "stroke-width": 3,
      }),
    );
  }
  return g;
}

/** A standalone little <svg> of a token (hands, legend, choices). */
export function tokenIcon(grid, p, label = null) {
  const svg = s("svg", {
    viewBox: "0 0 100 100",
    class: "token-icon",
    role: label ? "img" : null,
    "aria-label": label,
    "aria-hidden": label ? null : "true",
  });
  svg.append(token(grid, p));
  return svg;
}

/** The text a piece is read out as: its label, with its owner's name when it lacks it. */
export function pieceLabel(grid, p) {
  if (p.hidden) return p.label || "face-down piece";
  const owner = p.seat === null || p.seat === undefined ? null : grid.seats[p.seat];
  if (!owner || p.label.toLowerCase().includes(owner.name.toLowerCase())) return p.label;
  return `${owner.name} ${p.label}`;
}

/**
 * The chooser of a choice (promotion): resolves with the chosen move text, or null. A figure
 * is offered the figures its choice letters name; each button says its letter in data-choice
 * (as the move writes it) and data-promo (in lower case).
 */
export function choicePicker(wrap, grid, seat, moves) {
  const mover = grid.pieces[moves[0].from];
  const figure = !!mover && mover.shape === "figure";
  const choices = moves.map((m) => {
    const letter = m.choice || "";
    const label = letter === "+" ? "Promote" : letter ? `Choose ${letter}` : "No change";
    const icon = figure
      ? { seat, glyph: letter.toUpperCase(), shape: "figure", fill: null }
      : { seat, glyph: letter, shape: "disc", fill: null, promoted: letter === "+" };
    const dataset = { choice: letter || "-", promo: letter ? letter.toLowerCase() : "-" };
    return {
      value: m.text,
      node: letter ? tokenIcon(grid, icon) : "as is",
      attrs: { class: "choice", "aria-label": label, dataset },
    };
  });
  return pickOne(wrap, "Choose", "Choose", choices);
}
