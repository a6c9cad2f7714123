// A player's rating over their rated games: one small line chart per rating category, drawn
// from /api/users/NAME/ratings (every change with its game, from Redis and the archive).

import { h, s } from "./dom.js";

const W = 320;
const H = 120;
const LEFT = 44;
const RIGHT = 10;
const TOP = 10;
const BOTTOM = 20;

/**
 * @param {string} category  "chess:blitz"
 * @param {{room: string, finished: number, rating: number, new_rating: number,
 *          change: number}[]} changes  oldest first
 */
export function ratingChart(category, changes) {
  const values = [changes[0].rating, ...changes.map((c) => c.new_rating)];
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  const pad = (hi - lo) * 0.15 || 20;
  const top = hi + pad;
  const bottom = lo - pad;
  const x = (i) => LEFT + (i * (W - LEFT - RIGHT)) / Math.max(1, values.length - 1);
  const y = (v) => TOP + ((top - v) * (H - TOP - BOTTOM)) / (top - bottom);
  const line = values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
  const last = values[values.length - 1];
  const games = `${changes.length} rated game${changes.length === 1 ? "" : "s"}`;
  const span = `${Math.round(values[0])} → ${Math.round(last)}`;
  const label = `${category.replace(":", " · ")}: ${span} over ${games}`;
  const chart = s(
    "svg",
    {
      class: "rating-chart",
      viewBox: `0 0 ${W} ${H}`,
      role: "img",
      "aria-label": label,
      "data-category": category,
      "data-points": String(changes.length),
    },
    s("line", { class: "axis", x1: LEFT, y1: H - BOTTOM, x2: W - RIGHT, y2: H - BOTTOM }),
    s(
      "text",
      { class: "tick", x: LEFT - 6, y: y(hi) + 4, "text-anchor": "end" },
      String(Math.round(hi)),
    ),
    s(
      "text",
      { class: "tick", x: LEFT - 6, y: y(lo) + 4, "text-anchor": "end" },
      String(Math.round(lo)),
    ),
    s("text", { class: "tick", x: LEFT, y: H - 5 }, "first game"),
    s("text", { class: "tick", x: W - RIGHT, y: H - 5, "text-anchor": "end" }, "now"),
    s("polyline", { class: "line", points: line }),
    ...changes.map((c, i) =>
      s(
        "circle",
        {
          class: c.change >= 0 ? "up" : "down",
          cx: x(i + 1),
          cy: y(c.new_rating),
          r: 3,
          "data-room": c.room,
        },
        s(
          "title",
          {},
          `${Math.round(c.new_rating)} (${c.change >= 0 ? "+" : ""}${Math.round(c.change)})`,
        ),
      ),
    ),
  );
  return h(
    "figure",
    { class: "rating-history" },
    chart,
    h(
      "figcaption",
      {},
      category.replace(":", " · "),
      " ",
      h(
        "span",
        { class: "muted" },
        `${Math.round(last)} after ${changes.length} rated game${changes.length === 1 ? "" : "s"}`,
      ),
    ),
  );
}
