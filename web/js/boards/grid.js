// A square-grid board in SVG shared by Chess, Dark Chess, Apocalypse, BanQi and the boards
// described as data (described.js).
//
// The board owns the interaction: a square is a focusable button (roving tabindex, arrow
// keys move the focus, Enter/Space activate). Clicking a piece that has legal moves selects
// it and marks its targets; clicking a target plays the move; dragging a piece onto a target
// does the same. When several moves share a from/to pair (promotion) `choose` is asked.
//
// Moves are given as {text, from, to} (to = null for an action on one square, e.g. a flip;
// from = a name that is no square, e.g. "*P", for a piece from outside the board that a
// caller selects with select()). The board can be turned so any edge is at the bottom.
//
// While the seat waits for its turn the caller may allow premoves (setMoves' `premover`):
// one move of an own piece, made the same way, is queued and shown, and played the moment
// the moves of the seat's turn arrive if it is among them (else it is dropped without a
// word). A right-click or Escape cancels it (an arrow drawn by a right-drag does not).
// Right-clicks draw arrows and rings (drawing.js).

import { s } from "../dom.js";
import { Drawing } from "./drawing.js";
import { Pointer } from "./pointer.js";
import { slidePieces } from "./slides.js";
import { CELL, drawSquares } from "./squares.js";

const MARGIN = 34; // around a board of points: room for the coordinates

export class GridBoard {
  /**
   * @param {object} o
   * @param {number} o.files
   * @param {number} o.ranks
   * @param {(f: number, r: number) => string} o.name   square name of file f, rank r (0-based)
   * @param {string} o.kind        css class of the svg (chess, apocalypse, banqi)
   * @param {string} o.label       accessible name of the board
   * @param {boolean} [o.flipped]  rank 0 at the top (the second seat's side)
   * @param {string} [o.bottom]    the edge drawn at the bottom: south (rank 0, the default),
   *                               north (= flipped), west (file 0) or east
   * @param {(square: string|null) => void} [o.onSelect]  the selection changed
   * @param {boolean} [o.checkered]
   * @param {boolean} [o.points]   pieces stand on the crossings of lines through the squares'
   *                               centres (XiangQi, Go): no squares drawn, a frame around the
   *                               board for the coordinates, lines given by setLines()
   * @param {(text: string) => void} o.onMove
   * @param {(moves: object[]) => Promise<string|null>} [o.choose]
   * @param {(moves: object[]) => object|null} [o.premoveChoice]  of a premove's moves, the
   *                               one to play (a promotion: the queen)
   */
  constructor(o) {
    this.o = o;
    this.files = o.files;
    this.ranks = o.ranks;
    this.bottom = o.bottom || (o.flipped ? "north" : "south");
    this.flipped = this.bottom === "north";
    const turned = this.bottom === "west" || this.bottom === "east";
    this.cols = turned ? o.ranks : o.files;
    this.rows = turned ? o.files : o.ranks;
    this.notes = new Map(); // square -> words added to its accessible label (terrain)
    this.moves = [];
    this.selected = null;
    this.busy = false;
    this.squares = new Map();
    this.pieces = new Map(); // square -> {node, label}
    this.fogged = new Set();
    this.labels = new Map();
    this.classes = new Map(); // square -> Set of css classes from the game
    this.premover = null; // while waiting: {dests(square) -> squares|null, hints}
    this.premove = null; // the queued premove: {from, to}
    this.onEscape = (e) => {
      if (e.key === "Escape") this.cancelPremove();
    };

    const w = this.cols * CELL;
    const hgt = this.rows * CELL;
    // a big board is drawn smaller: its frame and coordinates grow to stay readable
    this.scale = Math.max(1, Math.max(this.cols, this.rows) / 9);
    this.margin = o.points ? Math.round(MARGIN * this.scale) : 0;
    const m = this.margin;
    this.svg = s("svg", {
      class: `board ${o.kind}${o.points ? " points" : ""}`,
      viewBox: `${-m} ${-m} ${w + 2 * m} ${hgt + 2 * m}`,
      role: "group",
      "aria-label": o.label,
      "aria-roledescription": "board",
    });
    this.layerFrame = s("g", { class: "frame" });
    this.layerSquares = s("g", { class: "squares" });
    this.layerLines = s("g", { class: "lines" });
    this.layerMarks = s("g", { class: "marks" });
    this.layerPieces = s("g", { class: "pieces" });
    this.layerFog = s("g", { class: "fog" });
    this.layerHints = s("g", { class: "hints" });
    if (o.points)
      this.layerFrame.append(
        s("rect", { class: "wood", x: -m, y: -m, width: w + 2 * m, height: hgt + 2 * m, rx: 18 }),
      );
    this.drawing = new Drawing((square) => this.center(square));
    this.svg.append(
      this.layerFrame,
      this.layerSquares,
      this.layerLines,
      this.layerMarks,
      this.layerPieces,
      this.layerFog,
      this.layerHints,
      this.drawing.layer,
    );
    drawSquares(this);
    this.svg.addEventListener("click", (e) => this.onClick(e));
    this.svg.addEventListener("keydown", (e) => this.onKey(e));
    this.pointer = new Pointer(this);
    this.svg.addEventListener("pointerdown", (e) => this.pointer.down(e));
    this.svg.addEventListener("pointermove", (e) => this.pointer.move(e));
    this.svg.addEventListener("pointerup", (e) => this.pointer.up(e));
    this.svg.addEventListener("pointercancel", () => {
      this.pointer.cancel();
      this.drawing.cancel();
    });
    this.svg.addEventListener("contextmenu", (e) => e.preventDefault()); // the right button draws
  }

  // -- geometry -------------------------------------------------------------------------

  xy(f, r) {
    const { files, ranks } = this;
    const [col, row] = {
      south: [f, ranks - 1 - r],
      north: [files - 1 - f, r],
      west: [ranks - 1 - r, files - 1 - f],
      east: [r, f],
    }[this.bottom];
    return [col * CELL, row * CELL];
  }

  /** The square drawn at column `col`, row `row` (0 = the top), or null. */
  at(col, row) {
    if (col < 0 || row < 0 || col >= this.cols || row >= this.rows) return null;
    for (const [name, sq] of this.squares)
      if (sq.x === col * CELL && sq.y === row * CELL) return name;
    return null;
  }

  center(square) {
    const sq = this.squares.get(square);
    return [sq.x + CELL / 2, sq.y + CELL / 2];
  }
  // -- content --------------------------------------------------------------------------

  /**
   * Replace the position.
   * @param {Map<string, {node: SVGElement, label: string}>} pieces
   * @param {object} [extra]
   * @param {Set<string>} [extra.fog]         squares under fog
   * @param {Map<string, string[]>} [extra.classes]  extra classes per square (last, check…)
   * @param {Map<string, string>} [extra.emptyLabel]  label for empty squares (per square)
   */
  setPosition(
    pieces,
    { fog = new Set(), classes = new Map(), fogNode = null, notes = new Map() } = {},
  ) {
    this.pieces = pieces;
    this.notes = notes;
    this.fogged = fog;
    this.classes = classes;
    this.layerPieces.replaceChildren();
    for (const [square, p] of pieces) {
      const sq = this.squares.get(square);
      if (!sq) continue;
      const node = s("g", {
        class: `piece ${p.cls || ""}`.trim(),
        transform: `translate(${sq.x} ${sq.y})`,
        dataset: { on: square },
      });
      node.append(p.node);
      p.el = node;
      this.layerPieces.append(node);
    }
    this.layerFog.replaceChildren();
    for (const square of fog) {
      const sq = this.squares.get(square);
      if (!sq || !fogNode) continue;
      const node = s("g", {
        transform: `translate(${sq.x} ${sq.y})`,
        class: "fogged",
        dataset: { fog: square },
      });
      node.append(fogNode());
      this.layerFog.append(node);
    }
    this.refresh();
  }

  /** The lines of a board of points (and any words on it), drawn over the squares' tints. */
  setLines(nodes) {
    this.layerLines.replaceChildren(...nodes);
  }

  /** Marks drawn between squares and pieces (arrows, bursts); children in board units. */
  setMarks(nodes) {
    this.layerMarks.replaceChildren(...nodes);
  }

  /**
   * The legal moves of the seat (empty when it may not move now). `premover`, while the seat
   * waits for its turn, allows a premove: {dests(square) -> the squares a premove of the
   * piece there may go to, or null when it is no piece of ours; hints: mark them}. A queued
   * premove is played here when the moves come, if it is one of them (when several share
   * its squares, o.premoveChoice picks one, else o.choose asks).
   */
  setMoves(moves, premover = null) {
    this.moves = moves || [];
    this.premover = this.moves.length ? null : premover;
    this.busy = false;
    const queued = this.premove;
    if (queued && (this.moves.length || !this.premover)) this.clearPremove();
    if (
      this.selected &&
      !this.moves.some((m) => m.from === this.selected) &&
      !this.premoveDests(this.selected).length
    )
      this.selected = null;
    if (queued && this.moves.length) {
      let chosen = this.moves.filter((m) => m.from === queued.from && m.to === queued.to);
      if (chosen.length > 1 && this.o.premoveChoice)
        chosen = [this.o.premoveChoice(chosen)].filter(Boolean);
      if (chosen.length) {
        this.play(chosen, { premove: true });
        return;
      }
    }
    this.refresh();
  }

  /** Where a premove of the piece on `square` may go (none when premoves are not allowed). */
  premoveDests(square) {
    if (!this.premover || this.busy || !square) return [];
    return this.premover.dests(square) || [];
  }

  /** Queue a premove (shown until it is played, dropped or cancelled). */
  queuePremove(from, to) {
    this.premove = { from, to };
    this.svg.dataset.premove = `${from}-${to}`;
    document.addEventListener("keydown", this.onEscape);
    this.select(null);
  }

  clearPremove() {
    this.premove = null;
    delete this.svg.dataset.premove;
    document.removeEventListener("keydown", this.onEscape);
  }

  /** Cancel the queued premove (a right-click, Escape). */
  cancelPremove() {
    if (!this.premove) return;
    this.clearPremove();
    this.refresh();
  }

  /** Redraw selection, targets and the accessible labels. */
  refresh() {
    const targets = new Set();
    const pre = !!this.premover && !this.busy; // premoves, not moves
    if (this.selected && pre) {
      for (const sq of this.premoveDests(this.selected)) targets.add(sq);
    } else if (this.selected) {
      for (const m of this.moves) if (m.from === this.selected && m.to) targets.add(m.to);
    }
    const movable = new Set(this.moves.map((m) => m.from));
    if (pre)
      for (const name of this.squares.keys()) if (this.premoveDests(name).length) movable.add(name);
    const queued = this.premove;
    this.layerHints.replaceChildren();
    for (const [name, sq] of this.squares) {
      const cls = new Set(["sq", ...(this.classes.get(name) || [])]);
      if (movable.has(name) && !this.busy) cls.add(pre ? "premovable" : "movable");
      if (name === this.selected) cls.add("selected");
      if (targets.has(name)) cls.add(pre ? "pretarget" : "target");
      if (queued && (name === queued.from || name === queued.to)) cls.add("premove");
      sq.g.setAttribute("class", [...cls].join(" "));
      const piece = this.pieces.get(name);
      const note = this.notes.get(name);
      const shown = piece ? piece.label : this.fogged.has(name) ? "not visible" : "empty";
      let label = `${name}: ${shown}`;
      if (note) label += `, ${note}`;
      if (name === this.selected) label += ", selected";
      if (targets.has(name))
        label += pre ? ", premove here" : piece ? ", capture here" : ", move here";
      else if (movable.has(name) && !this.busy && name !== this.selected)
        label += pre
          ? ", can premove"
          : this.moves.some((m) => m.from === name && !m.to)
            ? ", can act"
            : ", can move";
      if (queued && name === queued.from) label += ", premove from here";
      if (queued && name === queued.to) label += ", premove to here";
      const extra = this.classes.get(name);
      if (extra && extra.includes("last")) label += ", last move";
      sq.g.setAttribute("aria-label", label);
      if (targets.has(name) && (!pre || this.premover.hints)) {
        const [cx, cy] = [sq.x + CELL / 2, sq.y + CELL / 2];
        const tone = pre ? " pre" : "";
        this.layerHints.append(
          piece
            ? s("circle", { class: `hint-ring${tone}`, cx, cy, r: CELL / 2 - 6 })
            : s("circle", { class: `hint-dot${tone}`, cx, cy, r: CELL / 7 }),
        );
      }
    }
  }

  select(square) {
    this.selected = square;
    this.refresh();
    if (this.o.onSelect) this.o.onSelect(square);
  }

  // -- acting ---------------------------------------------------------------------------

  activate(square) {
    if (this.busy) return;
    if (this.premover) {
      this.activatePremove(square);
      return;
    }
    if (this.selected) {
      const chosen = this.moves.filter((m) => m.from === this.selected && m.to === square);
      if (chosen.length) {
        this.play(chosen);
        return;
      }
    }
    const own = this.moves.filter((m) => m.from === square);
    const act = own.filter((m) => !m.to);
    // an action on the square: at once when it is all the square offers, else on a second
    // activation of the selected square
    if (act.length && (own.length === act.length || this.selected === square)) {
      this.play(act);
      return;
    }
    if (own.some((m) => m.to)) {
      this.select(this.selected === square ? null : square);
      return;
    }
    if (this.selected) this.select(null);
  }

  /** A click (or Enter) while the seat waits: pick an own piece, then where it goes. */
  activatePremove(square) {
    this.cancelPremove(); // a new premove replaces the queued one
    if (
      this.selected &&
      this.selected !== square &&
      this.premoveDests(this.selected).includes(square)
    ) {
      this.queuePremove(this.selected, square);
      return;
    }
    this.select(this.selected !== square && this.premoveDests(square).length ? square : null);
  }

  async play(candidates, { premove = false } = {}) {
    // a move made on the board wipes what was drawn on it (a premove was made by hand
    // before: what was drawn since is about the position it meets, and stays)
    if (!premove) this.drawing.clear();
    let text = candidates[0].text;
    if (candidates.length > 1) {
      if (!this.o.choose) return;
      text = await this.o.choose(candidates);
      if (!text) {
        this.select(null); // cancelled: start over
        return;
      }
    }
    this.busy = true;
    this.selected = null;
    this.refresh();
    if (this.o.onSelect) this.o.onSelect(null);
    try {
      await this.o.onMove(text);
    } catch {
      this.busy = false;
      this.refresh();
    }
  }

  /** Let the board take moves again (after a refused move). */
  release() {
    this.busy = false;
    this.refresh();
  }

  // -- events ---------------------------------------------------------------------------

  squareFromEvent(e) {
    const g = e.target && e.target.closest ? e.target.closest(".sq") : null;
    return g ? g.dataset.square : null;
  }

  squareAtPoint(clientX, clientY) {
    const ctm = this.svg.getScreenCTM();
    if (!ctm) return null;
    const pt = new DOMPoint(clientX, clientY).matrixTransform(ctm.inverse());
    return this.at(Math.floor(pt.x / CELL), Math.floor(pt.y / CELL));
  }

  onClick(e) {
    if (this.pointer.suppressClick) {
      this.pointer.suppressClick = false;
      return;
    }
    const square = this.squareFromEvent(e);
    if (square) this.activate(square);
  }

  onKey(e) {
    const square = this.squareFromEvent(e);
    if (!square) return;
    const sq = this.squares.get(square);
    const step = {
      ArrowLeft: [-1, 0],
      ArrowRight: [1, 0],
      ArrowUp: [0, -1],
      ArrowDown: [0, 1],
    }[e.key];
    if (step) {
      // arrows move on the screen, however the board is turned
      e.preventDefault();
      const col = Math.min(this.cols - 1, Math.max(0, sq.x / CELL + step[0]));
      const row = Math.min(this.rows - 1, Math.max(0, sq.y / CELL + step[1]));
      this.focusSquare(this.at(col, row) || square);
    } else if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      this.activate(square);
    } else if (e.key === "Escape") {
      this.cancelPremove();
      this.select(null);
    }
  }

  setRoving(name) {
    for (const [n, sq] of this.squares) sq.g.setAttribute("tabindex", n === name ? 0 : -1);
  }

  focusSquare(name) {
    const sq = this.squares.get(name);
    if (!sq) return;
    this.setRoving(name);
    sq.g.focus();
  }

  // -- animation ------------------------------------------------------------------------

  /** Slide pieces (slides.js): each {from, to, node, vanish}. */
  animate(slides, ms = 380) {
    slidePieces(this, slides, ms);
  }
}
