// The pointer on a grid board: a left-drag of a piece onto a target plays (or premoves) it as
// a click on the target would; the right button draws (the board's Drawing). The part owns the
// drag in progress and whether the click that ends a drag is to be swallowed.

import { brushOf } from "./drawing.js";
import { CELL } from "./squares.js";

export class Pointer {
  /** @param {import("./grid.js").GridBoard} board */
  constructor(board) {
    this.board = board;
    this.dragging = null; // {square, x, y, id, active, el}
    this.suppressClick = false; // the click event that follows a drag's release
  }

  down(e) {
    if (e.button === 2) {
      // the right button draws (and drops a selection; a right-click drops a premove too)
      this.cancel();
      if (this.board.selected) this.board.select(null);
      const from = this.board.squareAtPoint(e.clientX, e.clientY);
      if (!from) return;
      try {
        this.board.svg.setPointerCapture(e.pointerId);
      } catch {
        /* not a live pointer */
      }
      this.board.drawing.start(from, brushOf(e), e.pointerId);
      return;
    }
    if (e.button !== 0) return;
    this.board.drawing.clear(); // a left press wipes the drawings
    if (this.board.busy) return;
    const square = this.board.squareFromEvent(e);
    if (!square || !this.board.pieces.has(square)) return;
    const movable = this.board.premover
      ? this.board.premoveDests(square).length > 0
      : this.board.moves.some((m) => m.from === square && m.to);
    if (!movable) return;
    this.dragging = { square, x: e.clientX, y: e.clientY, id: e.pointerId, active: false };
  }

  move(e) {
    if (this.board.drawing.pending)
      this.board.drawing.move(e.pointerId, this.board.squareAtPoint(e.clientX, e.clientY));
    const d = this.dragging;
    if (!d || e.pointerId !== d.id) return;
    if (!d.active) {
      if (Math.hypot(e.clientX - d.x, e.clientY - d.y) < 8) return;
      d.active = true;
      try {
        this.board.svg.setPointerCapture(e.pointerId);
      } catch {
        /* already released */
      }
      this.board.select(d.square);
      const piece = this.board.pieces.get(d.square);
      d.el = piece && piece.el;
      if (d.el) {
        d.el.classList.add("dragging");
        this.board.layerPieces.append(d.el); // on top
      }
    }
    if (d.el) {
      const ctm = this.board.svg.getScreenCTM();
      const pt = new DOMPoint(e.clientX, e.clientY).matrixTransform(ctm.inverse());
      d.el.setAttribute("transform", `translate(${pt.x - CELL / 2} ${pt.y - CELL / 2})`);
    }
  }

  up(e) {
    if (e.button === 2 && this.board.drawing.pending) {
      const square = this.board.squareAtPoint(e.clientX, e.clientY);
      // a click, not a drag to another square (an arrow): the premove is cancelled
      if (!square || square === this.board.drawing.pending.from) this.board.cancelPremove();
      this.board.drawing.end(e.pointerId, square);
      return;
    }
    const d = this.dragging;
    this.dragging = null;
    if (!d || !d.active) return;
    this.suppressClick = true;
    setTimeout(() => {
      this.suppressClick = false;
    }, 0);
    const target = this.board.squareAtPoint(e.clientX, e.clientY);
    this.restore(d);
    if (target && target !== d.square) this.board.activate(target);
  }

  cancel() {
    if (this.dragging && this.dragging.active) this.restore(this.dragging);
    this.dragging = null;
  }

  restore(d) {
    if (!d.el) return;
    const sq = this.board.squares.get(d.square);
    d.el.classList.remove("dragging");
    d.el.setAttribute("transform", `translate(${sq.x} ${sq.y})`);
  }
}
