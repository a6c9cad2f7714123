'use strict';
/*
 * Dagaz oracle for Jungle (server/engine/jungle, variant "dagaz"): plays seeded random games
 * with Dagaz's own model (games/breakthrough/jungle.zrf compiled to jungle.js, with
 * jungle-extension.js in its "strict" mode and kernel/model/ko.js with ko "situation": a move
 * may not recreate a board already seen with the same side to move) and writes the legal move
 * sets in our notation. Regenerate the fixture with
 *   node scripts/dagaz/jungle.js DAGAZ_SRC_DEBUG_DIR tests/engine/oracle/jungle_dagaz.json \
 *        --underscore /tmp/dagaz-node
 * (see scripts/dagaz/README.md). Our texts: "a1-a2" for a step or a leap onto an empty square,
 * "a1xa2" when it takes (Dagaz writes both as "a1 - a2"). Dagaz's Red is our seat 0 (Red),
 * its Green our seat 1 (Blue).
 */
const h = require('./harness');

h.main({
  game: 'jungle',
  // seeds 24..32: two of them reach a den within 200 plies; the fixture stays < 300 KB
  games: 9,
  plies: 200,
  seed: 24,
  files: [
    'kernel/dagaz.js',
    'kernel/model/zrf-model.js',
    'kernel/model/zobrist-v2.js',
    'kernel/model/common-setup-v2.js',
    'kernel/model/ko.js',
    'games/breakthrough/jungle-extension.js',
    'games/breakthrough/jungle.js',
  ],
  translate(move, board, o) {
    const acts = o.actions(move);
    if (acts.length !== 1 || acts[0].from === null || acts[0].to === null) {
      throw new Error('unexpected Jungle move ' + o.text(move));
    }
    const {from, to} = acts[0];
    return from + (o.piece(board, to) === null ? '-' : 'x') + to;
  },
});
