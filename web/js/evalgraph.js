// The evaluation graph of an analysed game, as lichess draws it: an inline SVG of the
// evaluation per ply (seat 0's winning chances as an area, or a line per seat), the judged
// moves as dots in their colours, the shown ply marked. Every ply is a point: a click (or
// Enter) on it, or ←/→/Home/End on the graph, goes to that ply through `go(ply)`.

import { s } from "./dom.js";

const W = 600;
const H = 140;
const PAD = 6;

/** The SVG path of a line's known values ("M x y L ..."; a gap starts a new piece). */
function pathOf(values, x, y) {
  let d = "";
  let pen = false;
  values.forEach((v, i) => {
    if (v === null) {
      pen = false;
      return;
    }
    d += `${pen ? "L" : "M"}${x(i).toFixed(1)} ${y(v).toFixed(1)} `;
    pen = true;
  });
  return d.trim();
}

export class EvalGraph {
  /**
   * @param {object} data           evalseries.series(...)
   * @param {object} opts
   * @param {(ply: number) => void} opts.go
   * @param {(ply: number) => string} opts.label   a point's name (its move, its judgement)
   * @param {string} opts.title                    the graph's aria-label
   */
  constructor(data, { go, label, title }) {
    this.data = data;
    this.go = go;
    this.ply = null;
    const last = Math.max(1, data.last);
    const x = (i) => PAD + ((W - 2 * PAD) * i) / last;
    const y = (v) => PAD + ((H - 2 * PAD) * (data.high - v)) / (data.high - data.low || 1);
    this.x = x;
    const mid = y(data.low < 0 ? 0 : (data.low + data.high) / 2);
    const nodes = [s("rect", { class: "eval-bg", x: 0, y: 0, width: W, height: H })];
    if (data.seats === 1) {
      const line = data.lines[0];
      const known = line.map((v, i) => (v === null ? null : i)).filter((i) => i !== null);
      if (known.length) {
        const d = pathOf(line, x, y);
        const first = known[0];
        const end = known[known.length - 1];
        // the area under seat 0's line, down to the bottom (lichess: White's share)
        const area = `${d} L${x(end).toFixed(1)} ${H} L${x(first).toFixed(1)} ${H} Z`;
        nodes.push(s("path", { class: "eval-area", d: area }));
      }
    }
    nodes.push(s("line", { class: "eval-mid", x1: 0, x2: W, y1: mid, y2: mid }));
    data.lines.forEach((line, seat) =>
      nodes.push(
        s("path", { class: `eval-line seat-${seat}`, d: pathOf(line, x, y), dataset: { seat } }),
      ),
    );
    this.cursor = s("line", { class: "eval-cursor", y1: 0, y2: H, x1: 0, x2: 0 });
    nodes.push(this.cursor);
    this.points = new Map();
    const column = (W - 2 * PAD) / last;
    for (let ply = 1; ply <= data.last; ply++) {
      const mark = data.marks.get(ply) || { judgement: null, seat: 0 };
      const seat = data.seats > 1 ? mark.seat : 0;
      const v = (data.lines[seat] || [])[ply];
      const cy = v === null || v === undefined ? mid : y(v);
      const judged = mark.judgement;
      const point = s(
        "g",
        {
          class: `eval-point${judged ? ` judged ${judged}` : ""}`,
          tabindex: -1,
          role: "button",
          "aria-label": label(ply),
          dataset: { ply, ...(judged ? { judgement: judged } : {}) },
          onclick: () => this.choose(ply),
        },
        s("rect", { class: "eval-hit", x: x(ply) - column / 2, y: 0, width: column, height: H }),
        s("circle", { class: "eval-dot", cx: x(ply), cy, r: judged ? 6 : 3 }),
      );
      this.points.set(ply, point);
      nodes.push(point);
    }
    this.el = s(
      "svg",
      {
        class: "eval-graph",
        id: "eval-graph",
        viewBox: `0 0 ${W} ${H}`,
        role: "group",
        "aria-label": title,
        dataset: { seats: data.seats },
        onkeydown: (e) => this.key(e),
      },
      ...nodes,
    );
    this.mark(null);
  }

  choose(ply) {
    this.go(ply);
    const point = this.points.get(ply);
    if (point) point.focus();
  }

  key(e) {
    const at = this.ply === null ? this.data.last : this.ply;
    const to = {
      ArrowLeft: at - 1,
      ArrowRight: at + 1,
      Home: 1,
      End: this.data.last,
      Enter: at,
      " ": at,
    }[e.key];
    if (to === undefined || e.altKey || e.ctrlKey || e.metaKey) return;
    e.preventDefault();
    this.choose(Math.max(1, Math.min(this.data.last, to)));
  }

  /** Mark the shown ply (null: the game's end); one point takes the Tab stop. */
  mark(ply) {
    this.ply = ply;
    const at = ply === null ? this.data.last : ply;
    for (const [p, point] of this.points) {
      point.classList.toggle("current", p === at);
      point.setAttribute("tabindex", p === at || (at < 1 && p === 1) ? "0" : "-1");
      point.setAttribute("aria-current", p === at ? "step" : "false");
    }
    const cx = this.x(Math.max(0, at));
    this.cursor.setAttribute("x1", cx);
    this.cursor.setAttribute("x2", cx);
  }
}
