// Hase und Igel: the track of fields laid out as a winding path, the runners on it, carrots,
// salads, the hare card just drawn and what the last turn caused, and the seat's choices
// (fields to click for forward and back moves, buttons for every legal move).

import { fill, h, s } from "../dom.js";
import { playerLabel, plural } from "../text.js";

const NARROW = "(max-width: 600px)";
const DX = 70;
const DY = 115;
const LEFT = 100;
const TOP = 55;
const R = 27;

const KIND = {
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

export const CARDS = {
  refund: ["Free ride", "The carrots paid for this move come back."],
  take_give: ["Take or give", "Take 10 carrots, give 10 back, or do nothing."],
  fall_back: ["Fall back", "Drop back one place, behind the next runner."],
  move_up: ["Move up", "Move up one place, in front of the next runner."],
  miss_turn: ["Miss a turn", "Your next turn is skipped."],
  eat_salad: ["Eat a salad", "Next turn you eat a salad, as if you stood on a salad field."],
  next_carrot: ["Next carrot field", "Move free of charge to the next carrot field ahead."],
  prev_carrot: ["Previous carrot field", "Move free of charge back to the previous carrot field."],
  move_again: ["Move again", "Take another turn at once."],
  give_behind: ["Generous", "Give 10 carrots to every runner behind you."],
  behind_ahead: [
    "Count the field",
    "More runners behind than ahead: miss a turn; else move again.",
  ],
  set_65: ["Exactly 65", "Your carrots become exactly 65."],
  salad_carrots: ["Salad money", "10 carrots for every salad you still hold."],
  halve: ["Halved", "Lose half of your carrots."],
  show: ["Show your carrots", "No effect: carrots are open here."],
  shuffle: ["Shuffle", "The hare cards are shuffled; every other runner gives you 1 carrot."],
};

function cardTitle(card) {
  return (CARDS[card] || [card])[0];
}

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

function icon(kind, index, goal) {
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

function prevHedgehog(board, pos) {
  for (let i = pos - 1; i > 0; i--) if (board[i] === "I") return i;
  return -1;
}

/** Legal move text -> the field it leads to (forward and back moves), else null. */
function targetOf(board, pos, text) {
  const m = /^advance (\d+)$/.exec(text);
  if (m) return pos + Number(m[1]);
  if (text === "back") return prevHedgehog(board, pos);
  return null;
}

function moveLabel(board, pos, text) {
  const m = /^advance (\d+)$/.exec(text);
  if (m) {
    const n = Number(m[1]);
    const to = pos + n;
    const kind = KIND[board[to]] ? KIND[board[to]].name : board[to];
    return (
      `Advance ${n} to field ${to} (${to === board.length - 1 ? "the goal" : kind}) ` +
      `for ${plural((n * (n + 1)) / 2, "carrot")}`
    );
  }
  if (text === "back") {
    const to = prevHedgehog(board, pos);
    return `Back to the hedgehog on field ${to} (+${plural(10 * (pos - to), "carrot")})`;
  }
  if (text === "carrots +10") return "Stay and take 10 carrots";
  if (text === "carrots -10") return "Stay and give back 10 carrots";
  if (text === "card take") return "Card: take 10 carrots";
  if (text === "card give") return "Card: give 10 carrots";
  if (text === "card none") return "Card: do nothing";
  return text;
}

function eventLine(info, u, ev) {
  const who = u.you === ev.seat ? "You" : playerLabel(info, u, ev.seat);
  const c = ev.carrots || 0;
  const signed = `${c > 0 ? "+" : ""}${plural(c, "carrot")}`;
  switch (ev.kind) {
    case "advance":
      return `${who} ran to field ${ev.field} (${signed})`;
    case "back":
      return `${who} fell back to the hedgehog on field ${ev.field} (${signed})`;
    case "carrots":
      return `${who} ${c > 0 ? "took" : "gave back"} 10 carrots`;
    case "finish":
      return `${who} reached the goal — place ${ev.place}`;
    case "card":
      return `${who} drew a hare card: ${cardTitle(ev.card)}`;
    case "card_carrots":
      return `${who}: ${signed} (${cardTitle(ev.card)})`;
    case "card_move":
      return `${who} moved to field ${ev.field} by the card`;
    case "no_effect":
      return `${who}: the card ${cardTitle(ev.card)} has no effect`;
    case "skip_next":
      return `${who} will miss the next turn`;
    case "eat_next":
      return `${who} will eat a salad next turn`;
    case "again":
      return `${who} moves again`;
    case "shuffle":
      return `${who} shuffled the hare cards`;
    case "payout":
      return `${who} got ${signed} for place ${ev.place} on field ${ev.field}`;
    case "eat":
      return `${who} ate a salad (${signed})`;
    case "miss":
      return `${who} missed a turn`;
    case "lapse":
      return `${who}: the extra turn lapses`;
    case "stuck":
      return `${who} was stuck and went back to Start`;
    case "turn_cap":
      return `${who} reached the turn limit`;
    default:
      return `${who}: ${ev.kind}`;
  }
}

export function createHaseBoard(boardHost, infoHost, ctx) {
  const wrap = h("div", { class: "board-wrap wide" });
  const svg = s("svg", {
    class: "board hase",
    role: "group",
    "aria-label": "Hase und Igel track",
    "aria-roledescription": "race track",
  });
  const road = s("g", { class: "road-layer" });
  const fieldsLayer = s("g", { class: "fields" });
  const runnersLayer = s("g", { class: "runners-layer" });
  svg.append(road, fieldsLayer, runnersLayer);
  const actions = h("div", { class: "hase-actions", role: "group", "aria-label": "Your choices" });
  const card = h("div", { class: "hase-card", hidden: true, role: "status" });
  wrap.append(svg);
  boardHost.append(wrap, card, actions);
  const info = h("div", { class: "hase-info" });
  infoHost.append(info);

  let built = null; // the board string (and row length) the fields were built for
  const narrow = window.matchMedia(NARROW);
  let perRow = narrow.matches ? 6 : 10;
  narrow.addEventListener("change", () => {
    perRow = narrow.matches ? 6 : 10;
    built = null;
    if (current) update(current, legalNow);
  });
  let fields = [];
  let legalNow = [];
  let busy = false;

  function build(board) {
    built = board;
    const n = board.length;
    const pts = Array.from({ length: n }, (_, i) => fieldXY(i, perRow));
    const width = LEFT + (perRow - 1) * DX + 60 + 40;
    const height = Math.max(...pts.map((p) => p[1])) + 45;
    svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
    const d = pts.map((p, i) => `${i ? "L" : "M"}${p[0]} ${p[1]}`).join(" ");
    road.replaceChildren(s("path", { class: "road-edge", d }), s("path", { class: "road", d }));
    fieldsLayer.replaceChildren();
    fields = pts.map(([x, y], i) => {
      const kind = board[i];
      const big = i === 0 || i === n - 1;
      const g = s("g", {
        class: `field kind-${kind}`,
        role: "button",
        tabindex: i === 0 ? 0 : -1,
        dataset: { field: i, kind },
        transform: `translate(${x} ${y})`,
      });
      g.append(
        s("circle", { class: "base", r: big ? R + 5 : R, fill: (KIND[kind] || KIND.H).fill }),
        icon(kind, i, n - 1),
        s("circle", { class: "focus", r: (big ? R + 5 : R) + 4, fill: "none" }),
      );
      g.addEventListener("click", () => activate(i));
      g.addEventListener("keydown", (e) => onKey(e, i));
      g.addEventListener("focus", () =>
        fields.forEach((f, j) => f.setAttribute("tabindex", j === i ? 0 : -1)),
      );
      fieldsLayer.append(g);
      return g;
    });
  }

  function onKey(e, i) {
    const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[e.key];
    if (step) {
      e.preventDefault();
      const j = Math.max(0, Math.min(fields.length - 1, i + step));
      fields[j].focus();
    } else if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      activate(i);
    }
  }

  let current = null;

  function activate(i) {
    if (busy || !current) return;
    const me = current.view.runners[ctx.you];
    if (!me) return;
    const text = legalNow.find((t) => targetOf(current.view.board, me.field, t) === i);
    if (text) send(text);
  }

  async function send(text) {
    if (busy) return;
    busy = true;
    try {
      await ctx.send(text);
    } catch {
      busy = false;
    }
  }

  function update(u, legal) {
    current = u;
    busy = false;
    legalNow = legal || [];
    const view = u.view;
    if (built !== view.board) build(view.board);
    const me = ctx.you === null ? null : view.runners[ctx.you];
    const targets = new Map();
    if (me)
      for (const t of legalNow) {
        const f = targetOf(view.board, me.field, t);
        if (f !== null && f >= 0) targets.set(f, t);
      }
    const occupants = new Map();
    for (const r of view.runners) {
      const at = r.finished ? view.board.length - 1 : r.field;
      occupants.set(at, [...(occupants.get(at) || []), r]);
    }
    fields.forEach((g, i) => {
      const kind = view.board[i];
      g.classList.toggle("target", targets.has(i));
      let label = `Field ${i}: ${(KIND[kind] || { name: kind }).name}`;
      const here = occupants.get(i) || [];
      if (here.length) label += `, ${here.map((r) => playerLabel(ctx.info, u, r.seat)).join(", ")}`;
      if (targets.has(i)) label += `, ${moveLabel(view.board, me.field, targets.get(i))}`;
      g.setAttribute("aria-label", label);
      if (targets.has(i)) g.dataset.move = targets.get(i);
      else delete g.dataset.move;
    });
    // runners
    runnersLayer.replaceChildren();
    for (const [at, rs] of occupants) {
      const [x, y] = fieldXY(at, perRow);
      rs.forEach((r, k) => {
        const spread = rs.length > 1 ? (2 * Math.PI * k) / rs.length : -Math.PI / 4;
        const dist = rs.length > 1 ? 20 : 16;
        const rx = x + dist * Math.cos(spread);
        const ry = y + dist * Math.sin(spread);
        const g = s("g", {
          class: `runner seat-${r.seat}`,
          transform: `translate(${rx} ${ry})`,
          dataset: { runner: r.seat },
        });
        g.append(
          s("circle", { r: 13, fill: SEAT_COLOURS[r.seat % 6], stroke: "#fff", "stroke-width": 3 }),
          s("text", { x: 0, y: 5, "text-anchor": "middle" }, String(r.seat + 1)),
        );
        runnersLayer.append(g);
      });
    }
    // the card drawn this turn
    const drawn = view.events.filter((e) => e.kind === "card");
    if (drawn.length) {
      const last = drawn[drawn.length - 1];
      const [title, text] = CARDS[last.card] || [last.card, ""];
      card.hidden = false;
      card.replaceChildren(
        h("strong", {}, `Hare card (${playerLabel(ctx.info, u, last.seat)}): ${title}. `),
        text,
      );
    } else {
      card.hidden = true;
    }
    // the choices
    actions.replaceChildren();
    if (me && legalNow.length) {
      const heading = view.decision === "card" ? "The hare card asks:" : "Your move:";
      actions.append(h("span", { class: "muted" }, heading));
      for (const t of legalNow) {
        actions.append(
          h(
            "button",
            {
              type: "button",
              class: "secondary small",
              dataset: { move: t },
              onclick: () => send(t),
            },
            moveLabel(view.board, me.field, t),
          ),
        );
      }
    }
    renderInfo(u);
  }

  function renderInfo(u) {
    const view = u.view;
    const rows = view.runners.map((r) => {
      const status = r.finished
        ? `finished (${view.finished.indexOf(r.seat) + 1}.)`
        : r.pending === "miss"
          ? "misses next turn"
          : r.pending === "eat"
            ? "eats next turn"
            : "";
      return h(
        "tr",
        { class: view.to_act.includes(r.seat) ? "acting" : "", dataset: { seat: r.seat } },
        h(
          "th",
          { scope: "row" },
          h("span", { class: `chip c${r.seat % 6}`, "aria-hidden": "true" }),
          playerLabel(ctx.info, u, r.seat),
          u.you === r.seat ? " (you)" : "",
          status ? h("small", { class: "runner-status" }, status) : null,
        ),
        h("td", { dataset: { k: "field" } }, String(r.field)),
        h("td", { dataset: { k: "carrots" } }, String(r.carrots)),
        h("td", { dataset: { k: "salads" } }, String(r.salads)),
        h("td", {}, String(r.place)),
      );
    });
    const events = view.events.map((e) => h("li", {}, eventLine(ctx.info, u, e)));
    const deck = Object.entries(view.cards)
      .map(([c, n]) => `${cardTitle(c)}${n > 1 ? ` ×${n}` : ""}`)
      .join(", ");
    fill(
      info,
      h("h2", {}, "The race"),
      h(
        "table",
        { class: "runners" },
        h("caption", { class: "visually-hidden" }, "Runners"),
        h(
          "thead",
          {},
          h(
            "tr",
            {},
            ...["Runner", "Field", "Carrots", "Salads", "Place"].map((t) =>
              h("th", { scope: "col" }, t),
            ),
          ),
        ),
        h("tbody", {}, rows),
      ),
      view.last_move !== null && view.last_move !== undefined
        ? h(
            "p",
            { class: "last-move" },
            `Last move: ${playerLabel(ctx.info, u, view.last_seat)} — ${view.last_move}`,
          )
        : null,
      events.length ? h("ul", { class: "log events" }, events) : null,
      h(
        "p",
        { class: "muted" },
        `Hare cards in the deck: ${view.deck_size}${deck ? ` (${deck})` : ""}.`,
      ),
    );
  }

  return {
    update,
    release: () => {
      busy = false;
    },
  };
}

const SEAT_COLOURS = ["#d32f2f", "#1976d2", "#fbc02d", "#388e3c", "#7b1fa2", "#f57c00"];

export function describeHaseMove(info, u) {
  const v = u.view;
  if (v.last_seat === null || v.last_seat === undefined) return null;
  const who = u.you === v.last_seat ? "You" : playerLabel(info, u, v.last_seat);
  const extra = v.events.filter(
    (e) => e.kind !== "advance" && e.kind !== "back" && e.kind !== "carrots",
  );
  // one line per runner: the mover's move (and what it caused them), then each other
  // runner's happenings (a missed turn, a salad eaten, ...) on a line of their own
  const bySeat = new Map([[v.last_seat, []]]);
  for (const e of extra) {
    if (!bySeat.has(e.seat)) bySeat.set(e.seat, []);
    bySeat.get(e.seat).push(eventLine(info, u, e));
  }
  return [...bySeat].map(([seat, lines]) =>
    (seat === v.last_seat ? [`${who}: ${v.last_move}`, ...lines] : lines).join(" · "),
  );
}
