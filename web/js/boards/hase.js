// Hase und Igel: the track of fields laid out as a winding path, the runners on it, carrots,
// salads, the hare card just drawn and what the last turn caused, and the seat's choices
// (fields to click for forward and back moves, buttons for every legal move).

import { fill, h, s } from "../dom.js";
import { playerLabel } from "../text.js";
import { CARDS, cardTitle, eventLine, moveLabel, targetOf } from "./hasemoves.js";
import { DX, KIND, LEFT, R, fieldXY, icon } from "./hasetrack.js";

const NARROW = "(max-width: 600px)";

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
