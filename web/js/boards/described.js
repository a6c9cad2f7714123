// The board of every game on a grid of squares, which describes itself as data: drawn from
// view.grid (server/engine/grid.py is the contract) and played through the gesture notation
// of its legal move texts. No game-specific code here: squares and their colours, terrain,
// pieces (face-down ones too), hands, fog, the last turn's arrows and marks, premoves, the
// viewer's sealed move, the facts beside the board and the status line all come from the
// description (and the update's your_move).

import { chosenGlyphs } from "../atboard.js";
import { h, s } from "../dom.js";
import { cloud } from "../pieces.js";
import { playerLabel, seatName } from "../text.js";
import { renderFacts } from "./facts.js";
import { createGenericBoard } from "./generic.js";
import { FILES, parseGesture } from "./gestures.js";
import { GridBoard } from "./grid.js";
import { renderHands, screenSide } from "./hands.js";
import { EVENT_MARKS, arrow, turnMarks } from "./marks.js";
import { lines, paintTerrain } from "./terrain.js";
import { choicePicker, pieceLabel, token } from "./tokens.js";

/**
 * The board of a described game, made at the first update (its size and seats come from the
 * description); a game that sends no description gets the generic view.
 */
export function createDescribedBoard(boardHost, infoHost, ctx) {
  let inner = null;
  return {
    update(u, legal, extra) {
      if (!inner) {
        const grid = u.view && u.view.grid;
        inner = grid
          ? makeBoard(boardHost, infoHost, grid, ctx)
          : createGenericBoard(boardHost, infoHost, ctx);
      }
      inner.update(u, legal, extra);
    },
    release() {
      if (inner) inner.release();
    },
  };
}

function makeBoard(boardHost, infoHost, grid0, ctx) {
  infoHost.hidden = true; // the description's facts show there, if it has any
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
    kind: grid0.palette ? "described painted" : "described",
    label: `${ctx.info.title || "Game"} board${mine ? `, you play ${mine.name}` : ""}`,
    bottom,
    checkered: grid0.checkered && grid0.style !== "points",
    points: grid0.style === "points",
    onMove: ctx.send,
    choose: (moves) => choicePicker(wrap, latestGrid || grid0, ctx.you, moves),
    // a premove with a choice (a promotion) takes the first the game lists
    premoveChoice: (moves) => moves[0] || null,
    onSelect: () => showHands(),
  });
  if (grid0.palette) paint(board, grid0.palette);
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

  function drawTerrain(grid) {
    const key = JSON.stringify([grid.cells, grid.terrain]);
    if (key === cellsKey) return;
    cellsKey = key;
    paintTerrain(board, legend, grid);
  }

  function showHands() {
    renderHands(handsTop, handsBottom, {
      grid: latestGrid,
      board,
      moves: legalMoves,
      bottom,
      you: ctx.you,
      shapes: latestShapes,
    });
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

  /** Where a premove of the piece on a square may go, while the seat waits: where the
   *  description says, else anywhere but onto its own pieces (the board knows no rules: the
   *  turn's legal moves decide whether it is played; a click on another own piece picks
   *  that one instead). */
  function premover(grid) {
    if (!ctx.premoves || !ctx.premoves()) return null;
    const own = (sq) => {
      const p = grid.pieces[sq];
      return !!p && !p.hidden && p.seat === ctx.you;
    };
    const planned = grid.premoves;
    const free = [...board.squares.keys()].filter((sq) => !own(sq));
    const dests = (sq) => (own(sq) ? (planned ? planned[sq] || [] : free) : null);
    return { dests, hints: !!planned };
  }

  /** Slide the pieces of the moves seen one turn ago (a piece gone at its end fades). */
  function slide(grid, u) {
    const moved =
      grid.arrows && grid.arrows.length
        ? grid.arrows.map(([from, to]) => [from, to])
        : grid.last.length >= 2
          ? [[grid.last[0], grid.last[grid.last.length - 1]]]
          : [];
    if (!prevPieces || u.turn !== prevTurn + 1) return;
    const slides = [];
    for (const [from, to] of moved) {
      const was = prevPieces[from];
      const now = grid.pieces[to];
      if (!was) continue;
      const node = token(grid, was, pointing(grid, was));
      slides.push({ from, to, node, vanish: !now || now.seat !== was.seat });
    }
    board.animate(slides, slides.length > 1 ? 450 : 380);
  }

  /** `extra.arrows`: more arrows to draw, [{from, to}] (an analysis's better move). */
  function update(u, legal, extra) {
    const grid = restyled(u.view && u.view.grid, chosenGlyphs(ctx.info));
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
    const marks = turnMarks(board, grid);
    for (const sq of grid.last) mark(sq, "last");
    for (const sq of grid.own_last || []) mark(sq, "own-last");
    for (const [sq, what] of Object.entries(grid.marks)) {
      notes.set(sq, [notes.get(sq), what].filter(Boolean).join(", "));
      if (what in EVENT_MARKS) {
        mark(sq, what);
        continue;
      }
      mark(sq, `mark-${what}`);
      const [cx, cy] = board.center(sq);
      marks.push(s("circle", { class: `point-mark mark-${what}`, cx, cy, r: 46 }));
    }
    // the viewer's sealed move (simultaneous moves), until the turn is resolved
    const sealed = u.your_move ? parseGesture(u.your_move) : null;
    if (sealed && sealed.from && sealed.to && board.squares.has(sealed.from)) {
      mark(sealed.from, "own-last");
      mark(sealed.to, "own-last");
      marks.push(arrow(board, sealed.from, sealed.to, "mine"));
    }
    for (const { from, to } of (extra && extra.arrows) || []) {
      if (!board.squares.has(from) || !board.squares.has(to)) continue;
      const best = arrow(board, from, to, "best");
      best.classList.add("best-move");
      Object.assign(best.dataset, { from, to });
      marks.push(best);
    }
    const fog = new Set(grid.fog || []);
    board.setPosition(pieces, { classes, notes, fog, fogNode: cloud });
    board.setMarks(marks);
    const parsed = (legal || []).map(parseGesture);
    legalMoves = parsed.filter((m) => m.kind === "move" || m.kind === "drop" || m.kind === "act");
    board.setMoves(legalMoves, premover(grid));
    renderActions(parsed.filter((m) => m.kind === "pass" || m.kind === "other"));
    showHands();
    renderFacts(infoHost, grid, u, ctx.info);
    status.textContent = grid.status;
    status.hidden = !grid.status;
    slide(grid, u);
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

/** Colour the squares of `board` from a description's palette (no lines between them). */
function paint(board, palette) {
  for (const sq of board.squares.values()) {
    const bg = sq.g.querySelector(".bg");
    const colour = palette[bg.classList.contains("dark") ? "dark" : "light"];
    if (colour) bg.style.fill = colour; // through the CSSOM: the page allows no inline style
  }
}

/** The text of the last move, from the view: the game's own last_move, else its marks. */
function lastMoveText(view) {
  if (view.grid && view.grid.said) return view.grid.said;
  if (typeof view.last_move === "string" && view.last_move) return view.last_move;
  const last = (view.grid && view.grid.last) || [];
  if (last.length >= 2) return `${last[0]}-${last[last.length - 1]}`;
  if (last.length === 1) return last[0];
  return "pass";
}

/** "You: a1-a2", "Ada (Red): a1xa2"; a turn of several movers that the description words as
 *  a whole (its `said`): that, on one line. */
export function describeDescribedMove(info, u, movers) {
  const grid = u.view && u.view.grid;
  if (movers.length > 1 && grid && grid.said) return [grid.said];
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

/** `grid` with its pieces' (and hands') glyphs from `glyphs` (kind -> glyph) where it has
 *  one: the piece set the player chose; `grid` itself when there is none. */
function restyled(grid, glyphs) {
  if (!grid || !glyphs) return grid;
  const glyph = (p) =>
    p.kind && glyphs[p.kind] !== undefined ? { ...p, glyph: glyphs[p.kind] } : p;
  const pieces = Object.fromEntries(Object.entries(grid.pieces).map(([sq, p]) => [sq, glyph(p)]));
  const hands = Object.fromEntries(
    Object.entries(grid.hands || {}).map(([seat, hand]) => [seat, hand.map(glyph)]),
  );
  return { ...grid, pieces, hands };
}
