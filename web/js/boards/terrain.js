// The ground of a board described as data: its terrain (each square's tint, on a board of
// points the space between crossings) with the legend of it, and the lines of a board of
// points with a river's name across its gap.

import { h, s } from "../dom.js";
import { FILES } from "./gestures.js";

const pairKey = (a, b) => (a < b ? `${a} ${b}` : `${b} ${a}`);

/**
 * The lines of a board of points: one segment between each two orthogonal neighbours but the
 * breaks, the links, and a river's name written across the gap the breaks leave.
 */
export function lines(board, grid) {
  const name = (f, r) => FILES[f] + (r + 1);
  const broken = new Set(grid.breaks.map(([a, b]) => pairKey(a, b)));
  const out = [];
  const segment = (a, b, cls) => {
    const [x1, y1] = board.center(a);
    const [x2, y2] = board.center(b);
    out.push(s("line", { class: cls, x1, y1, x2, y2, dataset: { a, b } }));
  };
  for (let f = 0; f < grid.files; f++) {
    for (let r = 0; r < grid.ranks; r++) {
      const here = name(f, r);
      if (f + 1 < grid.files && !broken.has(pairKey(here, name(f + 1, r)))) {
        segment(here, name(f + 1, r), `gridline${r === 0 || r === grid.ranks - 1 ? " outer" : ""}`);
      }
      if (r + 1 < grid.ranks && !broken.has(pairKey(here, name(f, r + 1)))) {
        segment(here, name(f, r + 1), `gridline${f === 0 || f === grid.files - 1 ? " outer" : ""}`);
      }
    }
  }
  for (const [a, b] of grid.links) segment(a, b, "gridline link");
  const river = grid.terrain.river;
  if (river && river.label) {
    // across the gap the breaks leave, else over the river's squares
    const spots = grid.breaks.length
      ? grid.breaks.map(([a, b]) => [board.center(a), board.center(b)])
      : Object.entries(grid.cells)
          .filter(([, t]) => t.includes("river"))
          .map(([sq]) => [board.center(sq), board.center(sq)]);
    if (spots.length) {
      const xs = spots.flatMap(([p, q]) => [p[0], q[0]]);
      const ys = spots.flatMap(([p, q]) => [p[1], q[1]]);
      const cx = (Math.min(...xs) + Math.max(...xs)) / 2;
      const cy = (Math.min(...ys) + Math.max(...ys)) / 2;
      const upright = Math.max(...ys) - Math.min(...ys) > Math.max(...xs) - Math.min(...xs);
      out.push(
        s(
          "text",
          {
            class: "river-label",
            x: cx,
            y: cy,
            dy: "0.35em",
            "text-anchor": "middle",
            transform: upright ? `rotate(90 ${cx} ${cy})` : null,
            "aria-hidden": "true",
          },
          river.label,
        ),
      );
    }
  }
  return out;
}

/**
 * A terrain on a board of points tints the space between crossings that share it (a
 * palace is the rectangle between its corners): each quarter of the square whose three
 * neighbours on that side have the terrain too; a crossing alone gets a rounded square.
 */
function pointTint(board, grid, sq, t) {
  const has = (dc, dr) => {
    const other = board.at(sq.x / 100 + dc, sq.y / 100 + dr);
    return !!other && (grid.cells[other] || []).includes(t);
  };
  const attrs = { class: `terrain t-${t}`, fill: grid.terrain[t].fill, dataset: { terrain: t } };
  const quarters = [
    [-1, -1],
    [1, -1],
    [-1, 1],
    [1, 1],
  ].filter(([dc, dr]) => has(dc, 0) && has(0, dr) && has(dc, dr));
  if (!quarters.length) {
    // its corners show beside a piece standing on it
    return s("rect", {
      ...attrs,
      class: `${attrs.class} alone`,
      x: 6,
      y: 6,
      width: 88,
      height: 88,
      rx: 20,
    });
  }
  return s("path", {
    ...attrs,
    d: quarters.map(([dc, dr]) => `M${dc < 0 ? 0 : 50} ${dr < 0 ? 0 : 50}h50v50h-50z`).join(""),
  });
}

/** Paint the terrain of `grid` on `board`'s squares and list the terrains used in `legend`. */
export function paintTerrain(board, legend, grid) {
  for (const [name, sq] of board.squares) {
    for (const old of sq.g.querySelectorAll(".terrain")) old.remove();
    const fills = (grid.cells[name] || []).filter((t) => grid.terrain[t] && grid.terrain[t].fill);
    const hl = sq.g.querySelector(".hl");
    if (grid.style === "points") {
      fills.forEach((t) => sq.g.insertBefore(pointTint(board, grid, sq, t), hl));
      continue;
    }
    fills.forEach((t, i) => {
      const fill = grid.terrain[t].fill;
      // the first terrain fills the square; any further one is a corner of it
      const node =
        i === 0
          ? s("rect", {
              class: `terrain t-${t}`,
              width: 100,
              height: 100,
              fill,
              dataset: { terrain: t },
            })
          : s("polygon", {
              class: `terrain t-${t}`,
              points: i === 1 ? "100,62 100,100 62,100" : "0,62 0,100 38,100",
              fill,
              dataset: { terrain: t },
            });
      sq.g.insertBefore(node, hl);
    });
  }
  const used = new Set(Object.values(grid.cells).flat());
  legend.replaceChildren(
    ...Object.entries(grid.terrain)
      .filter(([name]) => used.has(name))
      .map(([name, t]) =>
        h(
          "li",
          { dataset: { terrain: name } },
          t.fill
            ? s(
                "svg",
                { viewBox: "0 0 10 10", class: "swatch", "aria-hidden": "true" },
                s("rect", { width: 10, height: 10, fill: t.fill }),
              )
            : null,
          t.label,
        ),
      ),
  );
  legend.hidden = !legend.children.length;
}
