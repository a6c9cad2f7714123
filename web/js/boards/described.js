// The board of any game that describes itself as data (Game.board == "grid"): drawn from
// view.grid (server/engine/grid.py is the contract) and played through the gesture notation
// of its legal move texts. No game-specific code here: squares, terrain, pieces, hands,
// marks and the status line all come from the description.

import { chosenGlyphs } from "../atboard.js";
import { h, s } from "../dom.js";
import { playerLabel, seatName } from "../text.js";
import { createGenericBoard } from "./generic.js";
import { FILES, parseGesture } from "./gestures.js";
import { GridBoard } from "./grid.js";
import { arrow } from "./marks.js";
import { lines, paintTerrain } from "./terrain.js";
import { choicePicker, pieceLabel, token, tokenIcon } from "./tokens.js";

/** Which side of the screen an edge is on when `bottom` is drawn at the bottom. */
export function screenSide(edge, bottom) {
  const round = ["south", "west", "north", "east"]; // clockwise, seen from above
  const sides = ["down", "left", "up", "right"];
  return sides[(round.indexOf(edge) - round.indexOf(bottom) + 4) % 4];
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

  function drawTerrain(grid) {
    const key = JSON.stringify([grid.cells, grid.terrain]);
    if (key === cellsKey) return;
    cellsKey = key;
    paintTerrain(board, legend, grid);
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
