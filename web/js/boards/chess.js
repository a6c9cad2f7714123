// Chess and Dark Chess boards, drawn from the view (FEN; Dark Chess: "?" = fog).

import { h } from "../dom.js";
import { chessIcon, chessPiece, chessPieceName, cloud } from "../pieces.js";
import { playerLabel } from "../text.js";
import { GridBoard } from "./grid.js";
import { pickOne } from "./picker.js";

const FILES = "abcdefgh";

/** Square -> FEN letter (or "?" for an unseen square) from a FEN's placement field. */
export function parsePlacement(fen) {
  const out = new Map();
  const rows = fen.split(" ")[0].split("/");
  rows.forEach((row, i) => {
    const rank = 8 - i;
    let file = 0;
    for (const ch of row) {
      if (/[1-8]/.test(ch)) {
        file += Number(ch);
      } else {
        out.set(FILES[file] + rank, ch);
        file += 1;
      }
    }
  });
  return out;
}

/**
 * Replay UCI moves from a FEN without checking legality (the server did): used to lift the
 * fog once a Dark Chess game is over, from the record that opens at the end.
 */
export function replayUci(fen, moves) {
  const board = parsePlacement(fen);
  for (const uci of moves) {
    const from = uci.slice(0, 2);
    const to = uci.slice(2, 4);
    const promo = uci[4];
    const piece = board.get(from);
    if (!piece) continue;
    const white = piece === piece.toUpperCase();
    const type = piece.toLowerCase();
    const df = FILES.indexOf(to[0]) - FILES.indexOf(from[0]);
    if (type === "p" && df !== 0 && !board.has(to)) {
      board.delete(to[0] + from[1]); // en passant
    }
    if (type === "k" && Math.abs(df) === 2) {
      const rank = from[1];
      const [rf, rt] = df > 0 ? ["h", "f"] : ["a", "d"];
      const rook = board.get(rf + rank);
      board.delete(rf + rank);
      if (rook) board.set(rt + rank, rook);
    }
    board.delete(from);
    board.set(to, promo ? (white ? promo.toUpperCase() : promo.toLowerCase()) : piece);
  }
  return board;
}

/**
 * Where a premove of the piece on `square` may go (lichess's rule: by the way it moves,
 * whatever stands in between; a pawn also diagonally; a king from its first square also
 * two files aside and onto its own rooks), or null when no piece of `white`'s stands there.
 */
export function premoveDests(placement, square, white) {
  const ch = placement.get(square);
  if (!ch || ch === "?" || (ch === ch.toUpperCase()) !== white) return null;
  const type = ch.toLowerCase();
  const f = FILES.indexOf(square[0]);
  const r = Number(square[1]) - 1;
  const home = white ? 0 : 7;
  const out = [];
  for (let f2 = 0; f2 < 8; f2++) {
    for (let r2 = 0; r2 < 8; r2++) {
      const df = Math.abs(f2 - f);
      const dr = r2 - r;
      const adr = Math.abs(dr);
      if (!df && !dr) continue;
      let ok = false;
      if (type === "p") {
        const fwd = white ? 1 : -1;
        ok =
          (df === 0 && (dr === fwd || (r === home + fwd && dr === 2 * fwd))) ||
          (df === 1 && dr === fwd);
      } else if (type === "n") ok = df * adr === 2;
      else if (type === "b") ok = df === adr;
      else if (type === "r") ok = df === 0 || adr === 0;
      else if (type === "q") ok = df === adr || df === 0 || adr === 0;
      else if (type === "k") {
        const rook = placement.get(FILES[f2] + (r2 + 1)) === (white ? "R" : "r");
        ok = (df <= 1 && adr <= 1) || (r === home && r2 === home && (df === 2 || rook));
      }
      if (ok) out.push(FILES[f2] + (r2 + 1));
    }
  }
  return out;
}

function pieceEntry(ch, extraClass = "") {
  const side = ch === ch.toUpperCase() ? "white" : "black";
  return { node: chessPiece(ch, side, extraClass), label: `${side} ${chessPieceName(ch)}` };
}

/** The promotion picker: resolves with the chosen move text, or null. */
function promotionPicker(wrap, moves, side) {
  const byPromo = new Map(moves.map((m) => [m.text[4], m.text]));
  const choices = ["q", "r", "b", "n"]
    .filter((p) => byPromo.has(p))
    .map((p) => ({
      value: byPromo.get(p),
      node: chessIcon(p, side),
      attrs: { "aria-label": `Promote to ${chessPieceName(p)}`, dataset: { promo: p } },
    }));
  return pickOne(wrap, "Promote to", "Choose a promotion piece", choices);
}

export function createChessBoard(boardHost, infoHost, ctx) {
  const dark = ctx.info.name === "dark_chess";
  const mySide = ctx.you === 1 ? "black" : "white";
  const wrap = h("div", { class: "board-wrap" });
  const board = new GridBoard({
    files: 8,
    ranks: 8,
    name: (f, r) => FILES[f] + (r + 1),
    kind: dark ? "chess dark" : "chess",
    label: `${ctx.info.title} board${ctx.you === null ? "" : `, you play ${mySide}`}`,
    flipped: (ctx.you === 1) !== !!ctx.flip, // ctx.flip: the player turned the board
    onMove: ctx.send,
    choose: (moves) => promotionPicker(wrap, moves, mySide),
    premoveChoice: (moves) => moves.find((m) => m.text[4] === "q") || null,
  });
  wrap.append(board.svg);
  boardHost.append(wrap);
  const info = h("div", { class: "chess-info" });
  infoHost.append(info);
  let prevPly = null;
  let prevPieces = null;
  let revealed = null; // Map of the true final position once a Dark Chess game is over
  let revealing = false;
  let revealedLast = null;

  /** `historic` (the replay): {placement, lastMove, ply} to show instead of the view. */
  function update(u, legal, historic = null) {
    const view = u.view;
    let placement = historic ? historic.placement : parsePlacement(view.fen);
    const over = u.status === "over";
    if (dark && over && !revealed && !revealing) {
      revealing = true;
      ctx
        .request({ type: "record", room: u.room })
        .then((reply) => {
          const rec = reply.record;
          const moves = rec.moves.flatMap((t) => Object.values(t.moves));
          revealed = replayUci(rec.options.fen, moves);
          revealedLast = moves[moves.length - 1] || null;
          update(ctx.latest(), []);
        })
        .catch(() => {
          revealing = false;
        });
    }
    const fog = new Set();
    const pieces = new Map();
    const lifted = dark && over && revealed && !historic;
    if (lifted) placement = revealed;
    for (const [square, ch] of placement) {
      if (ch === "?") fog.add(square);
      else pieces.set(square, pieceEntry(ch));
    }
    const classes = new Map();
    const mark = (sq, cls) => classes.set(sq, [...(classes.get(sq) || []), cls]);
    const lastMove = historic ? historic.lastMove : lifted ? revealedLast : view.last_move;
    if (lastMove) {
      const cls = dark && !lifted && !historic ? "own-last" : "last";
      mark(lastMove.slice(0, 2), cls);
      mark(lastMove.slice(2, 4), cls);
    }
    if (!dark && view.check && !historic) {
      const king = view.turn === "white" ? "K" : "k";
      for (const [sq, ch] of placement) if (ch === king) mark(sq, "check");
    }
    board.setPosition(pieces, { fog, classes, fogNode: cloud });
    // while the other side is to move, a premove (promoting to a queen, as lichess does)
    const waiting = !historic && !!ctx.premoves && ctx.premoves();
    const premover = waiting
      ? { dests: (sq) => premoveDests(placement, sq, mySide === "white"), hints: true }
      : null;
    board.setMoves(
      (legal || []).map((t) => ({ text: t, from: t.slice(0, 2), to: t.slice(2, 4) })),
      premover,
    );
    if (historic) {
      prevPly = null;
      prevPieces = null;
      renderInfo(u, false, historic);
      return;
    }
    if (prevPly !== null && view.ply === prevPly + 1 && view.last_move && prevPieces) {
      const from = view.last_move.slice(0, 2);
      const to = view.last_move.slice(2, 4);
      const moved = prevPieces.get(from);
      if (moved && pieces.has(to)) board.animate([{ from, to, node: pieceEntry(moved).node }]);
    }
    prevPly = view.ply;
    prevPieces = placement;
    renderInfo(u, lifted);
  }

  function renderInfo(u, lifted, historic = null) {
    const view = u.view;
    const rows = [];
    if (historic) {
      rows.push(
        h("dt", {}, "Replay"),
        h(
          "dd",
          { dataset: { replayPly: historic.ply } },
          historic.ply === 0
            ? "the starting position"
            : `after ply ${historic.ply}${historic.lastMove ? ` (${historic.lastMove})` : ""}`,
        ),
      );
      info.replaceChildren(h("h2", {}, "Position"), h("dl", { class: "info-grid" }, rows));
      return;
    }
    if (!dark) {
      rows.push(h("dt", {}, "Move"), h("dd", {}, String(Math.floor(view.ply / 2) + 1)));
      if (view.last_san)
        rows.push(
          h("dt", {}, "Last move"),
          h("dd", { dataset: { lastSan: view.last_san } }, view.last_san),
        );
      if (view.check && u.status === "playing")
        rows.push(
          h("dt", {}, "Check"),
          h("dd", {}, `${view.turn === "white" ? "White" : "Black"} is in check`),
        );
    } else {
      rows.push(h("dt", {}, "Ply"), h("dd", {}, String(view.ply)));
      rows.push(
        h("dt", {}, "You see"),
        h(
          "dd",
          {},
          u.you === null
            ? lifted
              ? "the whole board (game over)"
              : "nothing: spectators watch the fog"
            : `${view.visible.length} of 64 squares`,
        ),
      );
      if (view.last_move)
        rows.push(h("dt", {}, "Your last move"), h("dd", {}, view.last_san || view.last_move));
    }
    const children = [
      h("h2", {}, dark ? "Fog of war" : "Position"),
      h("dl", { class: "info-grid" }, rows),
    ];
    if (dark && view.captured) {
      for (const side of ["white", "black"]) {
        const taken = Object.entries(view.captured[side] || {}).filter(([, n]) => n > 0);
        const items = taken.map(([t, n]) =>
          h(
            "span",
            {},
            chessIcon(t, side, `${n} ${side} ${chessPieceName(t)}${n > 1 ? "s" : ""}`),
            n > 1 ? `×${n}` : "",
          ),
        );
        children.push(
          h(
            "div",
            { class: "captured" },
            h("span", { class: "muted" }, `${side === "white" ? "White" : "Black"} lost:`),
            items.length ? items : h("span", {}, "nothing"),
          ),
        );
      }
    }
    if (lifted)
      children.push(
        h("p", { class: "muted" }, "Game over — the fog has lifted: this is the final position."),
      );
    info.replaceChildren(...children);
  }

  return { update, release: () => board.release(), board };
}

/** The log line for a move, from the view after it. */
export function describeChessMove(info, u, movers) {
  const seat = movers[0];
  const who = u.you === seat ? "You" : playerLabel(info, u, seat);
  if (info.name === "dark_chess") {
    if (u.view.last_move && u.you === seat)
      return `You played ${u.view.last_san || u.view.last_move}`;
    return `${who} moved (in the fog)`;
  }
  return `${who} played ${u.view.last_san || u.view.last_move}`;
}
