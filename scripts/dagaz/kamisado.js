'use strict';
/*
 * Dagaz oracle for Kamisado (server/engine/kamisado): plays seeded random games with Dagaz's
 * own model (games/breakthrough/kamisado.zrf compiled to kamisado.js, plus
 * kamisado-extension.js, which picks the tower that must move) and writes the legal move sets
 * in our notation. Regenerate the fixture with
 *   node scripts/dagaz/kamisado.js DAGAZ_SRC_DEBUG_DIR tests/engine/oracle/kamisado_dagaz.json \
 *        --underscore /tmp/dagaz-node
 * (see scripts/dagaz/README.md). Dagaz's White (first, on rank 1) is our Black, seat 0; its
 * Black is our Gold, seat 1. Our texts: "h1-g2" for a move ("h1 - g2" in Dagaz), "pass" for
 * the forced pass (Dagaz's empty move).
 *
 * Dagaz's bug: after a pass, kamisado-extension.js (CheckInvariants) looks up the blocked tower
 * by a position taken from _.keys(board.pieces), a string; design.inZone compares positions
 * with ===, so the tower's square has no colour, and every move is then forbidden: both sides
 * pass for ever and the controller calls it a draw. So the fixture holds two batches:
 *
 *   - K games of Dagaz as it is; a game stops at the first position after a pass, with
 *     result {winner: null, reason: "after_pass"} (its legal set is [] and is not compared);
 *   - K more games (seeds S+1000...) with that one key-type bug fixed (inZone reads its
 *     position as a number), marked "keyfix": true, of which only the games with a pass are
 *     kept. There Dagaz answers one pass right (the opponent must move the tower of the
 *     colour under the blocked tower), but not two in a row (it goes back to the colour of
 *     the last real move's square, and loops), so such a game stops at the first position
 *     after two consecutive passes ({winner: null, reason: "after_two_passes"}).
 *
 * Dagaz has no deadlock rule (every deadlock is an endless pass loop, a draw); ours ends the
 * round at once, the mover losing: the test knows where to expect Dagaz's pass instead.
 */
const fs = require('fs');
const path = require('path');
const h = require('./harness');

const FILES = [
  'kernel/dagaz.js',
  'kernel/model/zrf-model.js',
  'kernel/model/zobrist.js',
  'games/breakthrough/kamisado-extension.js',
  'games/breakthrough/kamisado.js',
];

const isPass = (move) => move.actions.length === 0;

function translate(move, board, o) {
  if (isPass(move)) return 'pass';
  const acts = o.actions(move);
  if (acts.length !== 1 || acts[0].from === null || acts[0].to === null) {
    throw new Error('unexpected Kamisado move ' + o.text(move));
  }
  return acts[0].from + '-' + acts[0].to;
}

// whether `board` was reached by a pass (nothing moved)
function passed(board, o) {
  const parent = board.parent;
  return Boolean(parent) && JSON.stringify(o.position(parent)) === JSON.stringify(o.position(board));
}

function over(limit, keyfix) {
  return (board, moves, o) => {
    if (keyfix && !o.design.harnessKeyfix) {
      // the fix: positions as numbers (o.moves of the initial board ran before this, but
      // its check asks no zone: there is no last move yet)
      const inZone = o.design.inZone;
      o.design.inZone = function (zone, player, pos) {
        return inZone.call(this, zone, player, typeof pos === 'string' ? +pos : pos);
      };
      o.design.harnessKeyfix = true;
    }
    const res = o.result(board, moves);
    if (res) return res;
    let passes = 0;
    for (let b = board; passes < limit && passed(b, o); b = b.parent) passes++;
    if (passes >= limit) return {winner: null, reason: limit === 1 ? 'after_pass' : 'after_two_passes'};
    return null;
  };
}

let args;
try {
  args = h.parseArgs(process.argv.slice(2), {games: 100, plies: 200, seed: 1});
} catch (e) {
  console.error(e.message);
  process.exit(2);
}
args.src = args.pos[0];
const spec = {game: 'kamisado', files: FILES, translate};
const plain = h.playGames(Object.assign({over: over(1, false)}, spec), args);
const fixed = h.playGames(Object.assign({over: over(2, true)}, spec),
  Object.assign({}, args, {seed: args.seed + 1000}))
  .filter((g) => g.moves.includes('pass'))
  .map((g) => Object.assign({keyfix: true}, g));
const games = plain.concat(fixed);
const doc = {game: 'kamisado',
  source: 'GlukKazan/Dagaz src/debug: ' + FILES.join(' '),
  generator: 'scripts/dagaz/kamisado.js --games ' + args.games + ' --plies ' + args.plies +
    ' --seed ' + args.seed,
  games};
fs.writeFileSync(args.pos[1], JSON.stringify(doc) + '\n');
const positions = games.reduce((n, g) => n + g.legal.length, 0);
console.log('kamisado: ' + plain.length + ' games + ' + fixed.length + ' with the key fix, ' +
  positions + ' positions -> ' + path.normalize(args.pos[1]));
