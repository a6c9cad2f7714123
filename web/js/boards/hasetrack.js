// The Hase und Igel track drawn: the kinds of field and their colours, where each field lies
// on the winding path, and the icon that tells a field's kind (hare, carrot, hedgehog, salad,
// position, flag, start and goal).

import { s } from "../dom.js";

export const DX = 70;
const DY = 115;
export const LEFT = 100;
const TOP = 55;
export const R = 27;

export const KIND = {
  S: { name: "Start", fill: "#ffffff" },
  Z: { name: "Goal", fill: "#ffffff" },
  H: { name: "hare field", fill: "#f3e6d0" },
  K: { name: "carrot field", fill: "#ffe0b2" },
  I: { name: "hedgehog field", fill: "#d7ccc8" },
  L: { name: "salad field", fill: "#c8e6c9" },
  2: { name: "position field 2", fill: "#bbdefb" },
  3: { name: "position field 3", fill: "#bbdefb" },
  4: { name: "position field 4", fill: "#bbdefb" },
  F: { name: "flag field 1/5/6", fill: "#e1bee7" },
};

/** Field index -> [x, y] of its centre on the winding path of `perRow` fields a row. */
export function fieldXY(i, perRow) {
  const cycle = Math.floor(i / (perRow + 1));
  const k = i % (perRow + 1);
  const y = TOP + cycle * DY;
  if (k < perRow) {
    const col = cycle % 2 === 0 ? k : perRow - 1 - k;
    return [LEFT + col * DX, y];
  }
  const x = cycle % 2 === 0 ? LEFT + (perRow - 1) * DX + 60 : LEFT - 60;
  return [x, y + DY / 2];
}

/** The icon of a field of `kind` (its number below it when it is no start or goal). */
export function icon(kind, index, goal) {
  const g = s("g", { class: "icon" });
  switch (kind) {
    case "H":
      g.append(
        s("ellipse", {
          cx: -6,
          cy: -10,
          rx: 4,
          ry: 11,
          fill: "#8d6e63",
          transform: "rotate(-12 -6 -10)",
        }),
        s("ellipse", {
          cx: 6,
          cy: -10,
          rx: 4,
          ry: 11,
          fill: "#8d6e63",
          transform: "rotate(12 6 -10)",
        }),
        s("ellipse", { cx: 0, cy: 5, rx: 12, ry: 10, fill: "#a1887f" }),
        s("circle", { cx: -4, cy: 3, r: 1.8, fill: "#222" }),
        s("circle", { cx: 4, cy: 3, r: 1.8, fill: "#222" }),
      );
      break;
    case "K":
      g.append(
        s("path", {
          d: "M-4 -14 L-9 -22 M0 -14 L0 -23 M4 -14 L9 -22",
          stroke: "#2e7d32",
          "stroke-width": 3,
          "stroke-linecap": "round",
        }),
        s("path", {
          d: "M-7 -13 H7 L0 16 Z",
          fill: "#ef6c00",
          stroke: "#bf360c",
          "stroke-width": 1.5,
          "stroke-linejoin": "round",
        }),
      );
      break;
    case "I":
      g.append(
        s("path", {
          d: "M-16 8 L-14 -2 L-10 -8 L-6 -12 L-2 -14 L3 -13 L8 -10 L12 -5 L15 2 L17 8 Z",
          fill: "#5d4037",
        }),
        s("path", {
          d: "M-14 -2 L-19 -6 M-8 -10 L-10 -17 M-1 -14 L0 -21 M7 -11 L10 -18 M13 -4 L19 -8",
          stroke: "#3e2723",
          "stroke-width": 3,
          "stroke-linecap": "round",
        }),
        s("ellipse", { cx: 15, cy: 7, rx: 6, ry: 4, fill: "#bcaaa4" }),
        s("circle", { cx: 20, cy: 7, r: 2, fill: "#222" }),
      );
      break;
    case "L":
      g.append(
        s("circle", { cx: 0, cy: 0, r: 15, fill: "#43a047" }),
        s("circle", { cx: 0, cy: 0, r: 9, fill: "#81c784" }),
        s("path", {
          d: "M0 -15 V15 M-11 -10 L11 10 M-11 10 L11 -10",
          stroke: "#2e7d32",
          "stroke-width": 1.5,
        }),
      );
      break;
    case "2":
    case "3":
    case "4":
      g.append(
        s(
          "text",
          {
            x: 0,
            y: 8,
            "text-anchor": "middle",
            "font-size": 24,
            "font-weight": 700,
            fill: "#0d47a1",
          },
          kind,
        ),
      );
      break;
    case "F":
      g.append(
        s("path", { d: "M-9 14 V-16", stroke: "#4a148c", "stroke-width": 3 }),
        s("path", { d: "M-8 -16 L14 -9 L-8 -2 Z", fill: "#8e24aa" }),
        s(
          "text",
          {
            x: 2,
            y: 13,
            "text-anchor": "middle",
            "font-size": 10,
            "font-weight": 700,
            fill: "#4a148c",
          },
          "1·5·6",
        ),
      );
      break;
    case "S":
      g.append(
        s(
          "text",
          {
            x: 0,
            y: 5,
            "text-anchor": "middle",
            "font-size": 13,
            "font-weight": 700,
            fill: "#333",
          },
          "Start",
        ),
      );
      break;
    case "Z": {
      for (let r = 0; r < 3; r++)
        for (let c = 0; c < 4; c++) {
          g.append(
            s("rect", {
              x: -12 + c * 6,
              y: -16 + r * 6,
              width: 6,
              height: 6,
              fill: (r + c) % 2 ? "#fff" : "#222",
            }),
          );
        }
      g.append(
        s(
          "text",
          {
            x: 0,
            y: 14,
            "text-anchor": "middle",
            "font-size": 12,
            "font-weight": 700,
            fill: "#333",
          },
          "Goal",
        ),
      );
      break;
    }
    default:
      g.append(s("text", { x: 0, y: 5, "text-anchor": "middle", "font-size": 14 }, kind));
  }
  if (index > 0 && index < goal) {
    g.append(s("text", { class: "num", x: 0, y: R - 4, "text-anchor": "middle" }, String(index)));
  }
  return g;
}
