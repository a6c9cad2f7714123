// Right-click drawings on a board of squares, as on lichess: a right-drag from one square to
// another draws an arrow, a right-click on a square rings it; the same shape again takes it
// away. The brush comes from the modifier keys (green; red with Shift or Ctrl; blue with Alt;
// yellow with both). The drawings are this browser's alone: nothing is sent anywhere. The
// board clears them on a left press and when a move is made on it.

import { s } from "../dom.js";

const CELL = 100;

export const BRUSHES = ["green", "red", "blue", "yellow"];

/** The brush of a pointer event's modifier keys (lichess's choice). */
export function brushOf(e) {
  const red = e.shiftKey || e.ctrlKey;
  const blue = e.altKey || e.metaKey;
  return BRUSHES[(red ? 1 : 0) + (blue ? 2 : 0)];
}

export class Drawing {
  /** `center(square)`: the square's centre in board units. */
  constructor(center) {
    this.center = center;
    this.shapes = []; // {from, to (null: a ring), brush}
    this.pending = null; // a right-drag under way: {from, to, brush, id}
    this.layer = s("g", { class: "drawings", "aria-hidden": "true" });
  }

  /** A right press on `square` begins a shape. */
  start(square, brush, id) {
    this.pending = { from: square, to: square, brush, id };
    this.render();
  }

  /** The pointer of the right-drag `id` is over `square` (null: off the board). */
  move(id, square) {
    const p = this.pending;
    if (!p || p.id !== id || square === p.to) return;
    p.to = square;
    this.render();
  }

  /** The right button came up over `square`: the shape is drawn, or taken away. */
  end(id, square) {
    const p = this.pending;
    if (!p || p.id !== id) return;
    this.pending = null;
    if (square) this.toggle(p.from, square === p.from ? null : square, p.brush);
    else this.render(); // let go off the board: nothing drawn
  }

  cancel() {
    if (!this.pending) return;
    this.pending = null;
    this.render();
  }

  /** The same shape again takes it away; the same squares in another brush repaint it. */
  toggle(from, to, brush) {
    const i = this.shapes.findIndex((sh) => sh.from === from && sh.to === to);
    if (i >= 0) {
      const same = this.shapes[i].brush === brush;
      this.shapes.splice(i, 1);
      if (same) {
        this.render();
        return;
      }
    }
    this.shapes.push({ from, to, brush });
    this.render();
  }

  clear() {
    if (!this.shapes.length && !this.pending) return;
    this.shapes = [];
    this.pending = null;
    this.render();
  }

  render() {
    const nodes = this.shapes.map((sh) => this.node(sh, false));
    const p = this.pending;
    if (p && p.to && p.to !== p.from) nodes.push(this.node(p, true));
    this.layer.replaceChildren(...nodes);
  }

  node(sh, preview) {
    const [x1, y1] = this.center(sh.from);
    const attrs = { brush: sh.brush, from: sh.from };
    const cls = `${preview ? " preview" : ""} brush-${sh.brush}`;
    if (!sh.to) {
      return s("circle", {
        class: `draw-circle${cls}`,
        cx: x1,
        cy: y1,
        r: CELL / 2 - 7,
        dataset: { ...attrs, at: sh.from },
      });
    }
    const [x2, y2] = this.center(sh.to);
    const len = Math.hypot(x2 - x1, y2 - y1) || 1;
    const [ux, uy] = [(x2 - x1) / len, (y2 - y1) / len];
    // from just off the first square's centre to the second's, the head ending at its centre
    const head = 34;
    const wing = 22;
    const [sx, sy] = [x1 + ux * 14, y1 + uy * 14];
    const [bx, by] = [x2 - ux * head, y2 - uy * head];
    const g = s("g", { class: `draw-arrow${cls}`, dataset: { ...attrs, to: sh.to } });
    g.append(
      s("line", { x1: sx, y1: sy, x2: bx + ux * 2, y2: by + uy * 2 }),
      s("polygon", {
        points:
          `${x2},${y2} ${bx - uy * wing},${by + ux * wing} ` +
          `${bx + uy * wing},${by - ux * wing}`,
      }),
    );
    return g;
  }
}
