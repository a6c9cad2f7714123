// Piece drawings, made here as plain SVG shapes in a 100 x 100 box (no fonts, no images): the
// chess figures a described board draws pieces of shape "figure" with, and the cloud of fog.

import { s } from "./dom.js";

const SHAPES = {
  p: [
    ["circle", { cx: 50, cy: 30, r: 12 }],
    ["path", { d: "M40 44 H60 L57 50 Q60 62 66 76 H34 Q40 62 43 50 Z" }],
    ["path", { d: "M27 78 H73 Q75 84 73 88 H27 Q25 84 27 78 Z" }],
  ],
  r: [
    ["path", { d: "M28 24 H37 V31 H45 V24 H55 V31 H63 V24 H72 V42 H28 Z" }],
    ["path", { d: "M33 42 H67 L64 76 H36 Z" }],
    ["path", { d: "M26 78 H74 V88 H26 Z" }],
  ],
  b: [
    ["circle", { cx: 50, cy: 17, r: 6 }],
    ["path", { d: "M50 23 C36 34 33 50 40 60 H60 C67 50 64 34 50 23 Z" }],
    ["path", { d: "M38 61 H62 V67 H38 Z" }],
    ["path", { d: "M42 67 H58 L62 78 H38 Z" }],
    ["path", { d: "M26 79 H74 Q76 84 74 88 H26 Q24 84 26 79 Z" }],
    ["line", { x1: 45, y1: 36, x2: 55, y2: 46, detail: true }],
  ],
  n: [
    [
      "path",
      {
        d:
          "M32 88 H76 V80 C77 60 72 42 62 31 C57 25 53 20 47 14 L45 23 C39 22 33 26 29 33 " +
          "L21 47 C19 53 23 58 29 56 L36 51 C41 51 45 49 48 46 C46 57 36 64 33 72 L30 80 Z",
      },
    ],
    ["circle", { cx: 40, cy: 33, r: 3.2, detail: true, fillDetail: true }],
    ["line", { x1: 25, y1: 49, x2: 28, y2: 47, detail: true }],
  ],
  q: [
    [
      "path",
      { d: "M30 78 L21 36 L37 58 L36 27 L46 56 L50 22 L54 56 L64 27 L63 58 L79 36 L70 78 Z" },
    ],
    ["circle", { cx: 21, cy: 34, r: 5 }],
    ["circle", { cx: 36, cy: 25, r: 5 }],
    ["circle", { cx: 50, cy: 19, r: 5 }],
    ["circle", { cx: 64, cy: 25, r: 5 }],
    ["circle", { cx: 79, cy: 34, r: 5 }],
    ["path", { d: "M27 79 H73 Q75 84 73 88 H27 Q25 84 27 79 Z" }],
  ],
  k: [
    ["path", { d: "M46.5 8 H53.5 V15 H60 V21 H53.5 V31 H46.5 V21 H40 V15 H46.5 Z" }],
    [
      "path",
      { d: "M30 78 C22 62 24 44 38 41 C44 40 48 44 50 49 C52 44 56 40 62 41 C76 44 78 62 70 78 Z" },
    ],
    ["path", { d: "M50 49 L46 36 Q50 31 54 36 Z" }],
    ["path", { d: "M27 79 H73 Q75 84 73 88 H27 Q25 84 27 79 Z" }],
  ],
};

/**
 * A chess-style piece: type one of p n b r q k, side "white" | "black".
 * Returns an SVG <g> drawn in a 100 x 100 box.
 */
export function chessPiece(type, side, extraClass = "") {
  const t = type.toLowerCase();
  const white = side === "white";
  const body = white ? "#fbfbf8" : "#2b2b2b";
  const edge = white ? "#222" : "#000";
  const detail = white ? "#222" : "#e8e8e8";
  const g = s("g", { class: `art ${side} ${extraClass}`.trim() });
  for (const [tag, attrs] of SHAPES[t] || SHAPES.p) {
    const { detail: isDetail, fillDetail, ...rest } = attrs;
    if (isDetail) {
      g.append(
        s(tag, {
          ...rest,
          stroke: detail,
          "stroke-width": 3.5,
          "stroke-linecap": "round",
          fill: fillDetail ? detail : "none",
        }),
      );
    } else {
      g.append(
        s(tag, {
          ...rest,
          fill: body,
          stroke: edge,
          "stroke-width": 3,
          "stroke-linejoin": "round",
        }),
      );
    }
  }
  return g;
}

// -- Fog ------------------------------------------------------------------------------------

/** A cloud covering one square (Dark Chess fog). */
export function cloud() {
  const g = s("g", { class: "cloud-art" });
  g.append(
    s("rect", { x: 0, y: 0, width: 100, height: 100, class: "cloud" }),
    s("circle", { cx: 30, cy: 58, r: 20, class: "cloud-hi" }),
    s("circle", { cx: 52, cy: 46, r: 24, class: "cloud-hi" }),
    s("circle", { cx: 73, cy: 60, r: 17, class: "cloud-hi" }),
    s("rect", { x: 14, y: 58, width: 74, height: 20, rx: 10, class: "cloud-hi" }),
    s("text", { x: 50, y: 66, "text-anchor": "middle", class: "cloud-q" }, "?"),
  );
  return g;
}
