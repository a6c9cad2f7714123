// The board of any game that describes itself as data (Game.board == "grid"): drawn from
// view.grid (server/engine/grid.py is the contract) and played through the gesture notation
// of its legal move texts. No game-specific code here: squares, terrain, pieces, hands,
// marks and the status line all come from the description.

import { h, s } from "../dom.js";
import { playerLabel, seatName } from "../text.js";
import { createGenericBoard } from "./generic.js";
import { GridBoard } from "./grid.js";
import { arrow } from "./marks.js";

const FILES = "abcdefghijklmnopqrstuvwxyz";
const SQUARE = "[a-z](?:[1-9]|1[0-9]|2[0-6])";
const MOVE = new RegExp(`^(${SQUARE})([-x])(${SQUARE})(?:=([A-Za-z+]{1,3}))?$`);
const DROP = new RegExp(`^([A-Za-z+]{1,3})\\*(${SQUARE})$`);
const ACT = new RegExp(`^${SQUARE}$`);
const NEUTRAL = "#9e9e9e";
const BACK = "#7a5a3a";

/**
 * A move text read as a gesture: {text, kind: move|drop|act|pass|other, from, to, capture,
 * choice, letter}. A drop's `from` is "*" + its letter (the hand piece the board selects).
 */
export function parseGesture(text) {
  if (text === "pass") return { text, kind: "pass", from: null, to: null };
  let m = MOVE.exec(text);
  if (m)
    return {
      text,
      kind: "move",
      from: m[1],
      to: m[3],
      capture: m[2] === "x",
      choice: m[4] || null,
    };
  m = DROP.exec(text);
  if (m) return { text, kind: "drop", from: `*${m[1]}`, to: m[2], letter: m[1] };
  if (ACT.test(text)) return { text, kind: "act", from: text, to: null };
  return { text, kind: "other", from: null, to: null };
}

/** Which side of the screen an edge is on when `bottom` is drawn at the bottom. */
export function screenSide(edge, bottom) {
  const round = ["south", "west", "north", "east"]; // clockwise, seen from above
  const sides = ["down", "left", "up", "right"];
  return sides[(round.indexOf(edge) - round.indexOf(bottom) + 4) % 4];
}

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
function tokenIcon(grid, p, label = null) {
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
function pieceLabel(grid, p) {
  if (p.hidden) return p.label || "face-down piece";
  const owner = p.seat === null || p.seat === undefined ? null : grid.seats[p.seat];
  if (!owner || p.label.toLowerCase().includes(owner.name.toLowerCase())) return p.label;
  return `${owner.name} ${p.label}`;
}

/** The chooser of a choice (promotion): resolves with the chosen move text, or null. */
function choicePicker(wrap, grid, seat, moves) {
  return new Promise((resolve) => {
    const close = (value) => {
      layer.remove();
      resolve(value);
    };
    const buttons = moves.map((m) => {
      const letter = m.choice || "";
      const label = letter === "+" ? "Promote" : letter ? `Choose ${letter}` : "No change";
      return h(
        "button",
        {
          type: "button",
          class: "choice",
          "aria-label": label,
          dataset: { choice: letter || "-" },
          onclick: () => close(m.text),
        },
        letter
          ? tokenIcon(grid, {
              seat,
              glyph: letter,
              shape: "disc",
              fill: null,
              promoted: letter === "+",
            })
          : "as is",
      );
    });
    const layer = h(
      "div",
      { class: "promo", role: "dialog", "aria-modal": "true", "aria-label": "Choose" },
      h(
        "div",
        { class: "box" },
        h("strong", {}, "Choose"),
        h("div", { class: "choices" }, buttons),
        h(
          "button",
          { type: "button", class: "secondary small", onclick: () => close(null) },
          "Cancel",
        ),
      ),
    );
    layer.addEventListener("keydown", (e) => {
      if (e.key === "Escape") close(null);
    });
    wrap.append(layer);
    buttons[0].focus();
  });
}

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
 * The board of a described game, made at the first update (its size and seats come from the
 * description); a game that sends no description gets the generic view.
 */
export function createDescribedBoard(boardHost, infoHost, ctx) {
  let inner = null;
  return {
    update(u, legal) {
      if (!inner) {
        const grid = u.view && u.view.grid;
        inner = grid
          ? makeBoard(boardHost, infoHost, grid, ctx)
          : createGenericBoard(boardHost, infoHost, ctx);
      }
      inner.update(u, legal);
    },
    release() {
      if (inner) inner.release();
    },
  };
}

function makeBoard(boardHost, infoHost, grid0, ctx) {
  infoHost.hidden = true; // everything is on and around the board
  const viewer = ctx.you === null || ctx.you === undefined ? 0 : ctx.you;
  const facing = (grid0.seats[viewer] && grid0.seats[viewer].edge) || "south";
  // ctx.flip: the player turned the board
  const bottom = ctx.flip
    ? { south: "north", north: "south", west: "east", east: "west" }[facing]
    : facing;
  const wrap = h("div", { class: "board-wrap described-wrap" });
  const mine = ctx.you === null || ctx.you === undefined ? null : grid0.seats[ctx.you];
  const board = new GridBoard({
    files: grid0.files,
    ranks: grid0.ranks,
    name: (f, r) => FILES[f] + (r + 1),
    kind: "described",
    label: `${ctx.info.title || "Game"} board${mine ? `, you play ${mine.name}` : ""}`,
    bottom,
    checkered: grid0.checkered && grid0.style !== "points",
    points: grid0.style === "points",
    onMove: ctx.send,
    choose: (moves) => choicePicker(wrap, latestGrid || grid0, ctx.you, moves),
    onSelect: () => renderHands(),
  });
  // a tall board is kept within the screen's height, a wide one within its width
  wrap.style.maxWidth =
    `min(${board.cols >= board.rows ? 760 : 640}px, 100%, ` +
    `calc(78vh * ${board.cols / board.rows}))`;
  const handsTop = h("div", { class: "hands hands-top" });
  const handsBottom = h("div", { class: "hands hands-bottom" });
  const status = h("p", { class: "grid-status", role: "status", "aria-live": "polite" });
  const actions = h("div", { class: "grid-actions", role: "group", "aria-label": "Other moves" });
  const legend = h("ul", { class: "legend", "aria-label": "Terrain" });
  if (grid0.style === "points") board.setLines(lines(board, grid0));
  wrap.append(board.svg);
  boardHost.append(handsTop, wrap, handsBottom, status, actions, legend);
  let latestGrid = grid0;
  let cellsKey = null;
  let legalMoves = [];
  let prevTurn = null;
  let prevPieces = null;
  let busy = false;
  const latestShapes = new Map(); // piece kind -> shape, as last seen on the board

  /** A "point" piece points away from its owner's edge, wherever that is on the screen. */
  function pointing(grid, p) {
    const owner = p.seat === null || p.seat === undefined ? null : grid.seats[p.seat];
    return owner
      ? { down: "up", up: "down", left: "right", right: "left" }[screenSide(owner.edge, bottom)]
      : "up";
  }

  /**
   * A terrain on a board of points tints the space between crossings that share it (a
   * palace is the rectangle between its corners): each quarter of the square whose three
   * neighbours on that side have the terrain too; a crossing alone gets a rounded square.
   */
  function pointTint(grid, name, sq, t) {
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

  function drawTerrain(grid) {
    const key = JSON.stringify([grid.cells, grid.terrain]);
    if (key === cellsKey) return;
    cellsKey = key;
    for (const [name, sq] of board.squares) {
      for (const old of sq.g.querySelectorAll(".terrain")) old.remove();
      const fills = (grid.cells[name] || []).filter((t) => grid.terrain[t] && grid.terrain[t].fill);
      const hl = sq.g.querySelector(".hl");
      if (grid.style === "points") {
        fills.forEach((t) => sq.g.insertBefore(pointTint(grid, name, sq, t), hl));
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

  function handEntries(grid, seat) {
    return grid.hands[String(seat)] || [];
  }

  /** The shape a hand piece is drawn with: that of its kind on the board, else a disc. */
  function handShape(grid, kind) {
    return latestShapes.get(kind) || "disc";
  }

  function chip(colour) {
    const el = h("span", { class: "hand-chip", "aria-hidden": "true" });
    el.style.background = colour; // through the CSSOM: the page allows no inline style
    return el;
  }

  function renderHands() {
    const grid = latestGrid;
    const anyHands = Object.keys(grid.hands).length > 0;
    const seats = grid.seats
      .map((_, i) => i)
      .filter((i) => anyHands || handEntries(grid, i).length);
    const many = grid.seats.length > 2;
    // the viewer's own hand below the board, nearest to it; the hands of the seats across
    // and beside above it (the one across nearest to the board)
    const order = { down: 0, up: 1, left: 2, right: 3 };
    const top = [];
    const low = [];
    for (const seat of seats.sort(
      (a, b) =>
        order[screenSide(grid.seats[a].edge, bottom)] -
        order[screenSide(grid.seats[b].edge, bottom)],
    )) {
      const side = screenSide(grid.seats[seat].edge, bottom);
      const entries = handEntries(grid, seat);
      const items = entries.map((e) => {
        const from = `*${e.letter}`;
        const drops = legalMoves.filter((m) => m.from === from);
        const icon = tokenIcon(grid, {
          seat,
          glyph: e.glyph,
          shape: handShape(grid, e.kind),
          fill: null,
        });
        const count = h("span", { class: "count" }, `×${e.count}`);
        const label = `${e.label}, ${e.count} in hand`;
        if (!drops.length)
          return h(
            "span",
            {
              class: "hand-piece",
              role: "img",
              "aria-label": label,
              dataset: { letter: e.letter },
            },
            icon,
            count,
          );
        const on = board.selected === from;
        return h(
          "button",
          {
            type: "button",
            class: `hand-piece${on ? " selected" : ""}`,
            "aria-pressed": on ? "true" : "false",
            "aria-label": `${label}: drop it`,
            dataset: { letter: e.letter },
            onclick: () => board.select(board.selected === from ? null : from),
          },
          icon,
          count,
        );
      });
      const where =
        many && side !== "down" ? ` (${{ up: "across", left: "left", right: "right" }[side]})` : "";
      const who =
        seat === ctx.you ? `You (${grid.seats[seat].name})` : `${grid.seats[seat].name}${where}`;
      const row = h(
        "div",
        { class: `hand side-${side}${seat === ctx.you ? " own" : ""}`, dataset: { seat } },
        chip(grid.seats[seat].colour),
        h("span", { class: "muted" }, `${who} in hand:`),
        items.length ? items : h("span", { class: "muted" }, "nothing"),
      );
      (side === "down" ? low : top).push(row);
    }
    handsTop.classList.toggle("many", top.length > 1);
    handsTop.replaceChildren(...top.reverse());
    handsBottom.replaceChildren(...low);
  }

  function renderActions(others) {
    actions.replaceChildren(
      ...others.map((m) =>
        h(
          "button",
          {
            type: "button",
            class: m.kind === "pass" ? "pass" : "secondary",
            dataset: { move: m.text },
            onclick: async () => {
              if (busy) return;
              busy = true;
              try {
                await ctx.send(m.text);
              } catch {
                busy = false;
              }
            },
          },
          m.kind === "pass" ? "Pass" : m.text,
        ),
      ),
    );
    actions.hidden = !others.length;
  }

  function update(u, legal) {
    const grid = u.view && u.view.grid;
    if (!grid) return;
    latestGrid = grid;
    busy = false;
    for (const p of Object.values(grid.pieces)) if (p.kind) latestShapes.set(p.kind, p.shape);
    drawTerrain(grid);
    const pieces = new Map();
    for (const [sq, p] of Object.entries(grid.pieces)) {
      pieces.set(sq, {
        node: token(grid, p, pointing(grid, p)),
        label: pieceLabel(grid, p),
        cls: `${p.hidden ? "face-down" : `seat-${p.seat}`}${p.promoted ? " promoted" : ""}`,
      });
    }
    const classes = new Map();
    const notes = new Map();
    const mark = (sq, cls) => classes.set(sq, [...(classes.get(sq) || []), cls]);
    for (const [sq, names] of Object.entries(grid.cells)) {
      for (const t of names) mark(sq, `t-${t}`);
      if (names.some((t) => grid.terrain[t] && grid.terrain[t].fill)) mark(sq, "filled");
      const words = names.filter((t) => grid.terrain[t]).map((t) => grid.terrain[t].label);
      if (words.length) notes.set(sq, words.join(", "));
    }
    const marks = [];
    for (const sq of grid.last) mark(sq, "last");
    if (grid.last.length >= 2)
      marks.push(arrow(board, grid.last[0], grid.last[grid.last.length - 1], "w"));
    for (const [sq, what] of Object.entries(grid.marks)) {
      mark(sq, `mark-${what}`);
      notes.set(sq, [notes.get(sq), what].filter(Boolean).join(", "));
      const [cx, cy] = board.center(sq);
      marks.push(s("circle", { class: `point-mark mark-${what}`, cx, cy, r: 46 }));
    }
    board.setPosition(pieces, { classes, notes });
    board.setMarks(marks);
    const parsed = (legal || []).map(parseGesture);
    legalMoves = parsed.filter((m) => m.kind === "move" || m.kind === "drop" || m.kind === "act");
    // while another seat is to move, a premove of an own piece to any square but its own
    // pieces' (the board knows no rules: the turn's legal moves decide whether it is played;
    // a click on another own piece picks that one instead)
    const own = (sq) => {
      const p = grid.pieces[sq];
      return !!p && !p.hidden && p.seat === ctx.you;
    };
    const free = [...board.squares.keys()].filter((sq) => !own(sq));
    const premover =
      ctx.premoves && ctx.premoves()
        ? { dests: (sq) => (own(sq) ? free : null), hints: false }
        : null;
    board.setMoves(legalMoves, premover);
    renderActions(parsed.filter((m) => m.kind === "pass" || m.kind === "other"));
    renderHands();
    status.textContent = grid.status;
    status.hidden = !grid.status;
    // slide the piece of a move seen one turn ago
    const last = grid.last;
    if (prevPieces && u.turn === prevTurn + 1 && last.length >= 2) {
      const from = last[0];
      const to = last[last.length - 1];
      const was = prevPieces[from];
      if (was && grid.pieces[to])
        board.animate([{ from, to, node: token(grid, was, pointing(grid, was)) }]);
    }
    prevTurn = u.turn;
    prevPieces = grid.pieces;
  }

  return {
    update,
    release: () => {
      busy = false;
      board.release();
    },
    board,
  };
}

/** The text of the last move, from the view: the game's own last_move, else its marks. */
function lastMoveText(view) {
  if (typeof view.last_move === "string" && view.last_move) return view.last_move;
  const last = (view.grid && view.grid.last) || [];
  if (last.length >= 2) return `${last[0]}-${last[last.length - 1]}`;
  if (last.length === 1) return last[0];
  return "pass";
}

/** "You: a1-a2", "Ada (Red): a1xa2". */
export function describeDescribedMove(info, u, movers) {
  const grid = u.view && u.view.grid;
  return movers.map((seat) => {
    let who;
    if (u.you === seat) who = "You";
    else {
      const holder = u.seats && u.seats[seat] && u.seats[seat].name;
      const side = grid && grid.seats[seat] ? grid.seats[seat].name : seatName(info, seat);
      who = holder
        ? info.seat_names && info.seat_names.length
          ? playerLabel(info, u, seat)
          : `${holder} (${side})`
        : side;
    }
    return `${who}: ${lastMoveText(u.view || {})}`;
  });
}
