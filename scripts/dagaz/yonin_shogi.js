'use strict';
/*
 * Dagaz oracle for Yonin Shogi (server/engine/yonin_shogi): plays seeded random games with
 * Dagaz's own model (games/shogi-family/yonin-shogi.zrf compiled to yonin-shogi.js, with the
 * shogi extensions its page loads: captures to the hand, promotion, the drop rules) and writes
 * the legal move sets in our notation. Regenerate the fixture with
 *   node scripts/dagaz/yonin_shogi.js DAGAZ_SRC_DEBUG_DIR \
 *        tests/engine/oracle/yonin_shogi_dagaz.json --underscore /tmp/dagaz-node
 * (see scripts/dagaz/README.md). Our texts: "c1-b2" a move, "c1xb2" a capture, "=+" appended
 * when the piece promotes (Dagaz offers promoting and not promoting as two moves), "P*e5" a drop
 * (letters P S G R; Dagaz keeps every hand piece on a square of its own, so two Pawns in hand
 * give the same drop twice: `unique` keeps one). Dagaz's players South, West, North, East are
 * our seats 0..3.
 *
 * The end differs on purpose: Dagaz plays on until South's King is gone (a player without a
 * King may only drop one); ours ends when the first King is taken, the taker winning. So a
 * game here stops right after the first King capture, with the taker as the winner.
 */
const h = require('./harness');

const LETTERS = {Pawn: 'P', Silver: 'S', Gold: 'G', Rook: 'R', King: 'K', Knight: 'N',
  Lance: 'L', Bishop: 'B'};
const SQUARE = /^[a-i][1-9]$/;

function kingless(board, o) {
  const kings = new Set();
  for (const p of Object.values(o.position(board))) {
    if (p !== null && p.type === 'King') kings.add(p.owner);
  }
  return o.design.playerNames.slice(1).filter((n) => !kings.has(n));
}

h.main({
  game: 'yonin_shogi',
  games: 8,
  plies: 400,
  seed: 1,
  unique: true,
  files: [
    'kernel/dagaz.js',
    'kernel/model/zrf-model.js',
    'kernel/model/zobrist.js',
    'kernel/model/common-setup.js',
    'games/shogi-family/yonin-shogi-goal.js',
    'games/shogi-family/yonin-shogi-invariant.js',
    'games/shogi-family/common-shogi-invariant.js',
    'games/shogi-family/shogi-extension.js',
    'games/shogi-family/shogi-promotion.js',
    'games/shogi-family/yonin-shogi.js',
  ],
  over(board, moves, o) {
    const lost = kingless(board, o);
    if (lost.length > 0) {
      return {winner: o.design.playerNames[board.parent.player], reason: 'king_captured',
        lost};
    }
    return null;
  },
  translate(move, board, o) {
    if (move.isPass()) return 'pass';
    const acts = o.actions(move);
    const {from, to, piece} = acts[0];
    if (from === null || to === null || !SQUARE.test(to)) {
      throw new Error('unexpected Yonin Shogi move ' + o.text(move));
    }
    if (!SQUARE.test(from)) return LETTERS[piece.type] + '*' + to;
    const before = o.piece(board, from);
    const text = from + (o.piece(board, to) === null ? '-' : 'x') + to;
    return before.type === piece.type ? text : text + '=+';
  },
});
