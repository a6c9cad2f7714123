'use strict';
/*
 * Dagaz oracle for Four-field Kono (server/engine/kono): plays seeded random games with Dagaz's
 * own model (games/elimination/kono.zrf compiled to kono.js, plus kono-extension.js) and writes
 * the legal move sets in our notation. Regenerate the fixture with
 *   node scripts/dagaz/kono.js DAGAZ_SRC_DEBUG_DIR tests/engine/oracle/kono_dagaz.json \
 *        --underscore /tmp/dagaz-node
 * (see scripts/dagaz/README.md). Our texts: "a1-a2" for a step, "a1xa3" for the jump capture
 * (the mover lands on the captured piece's square; Dagaz writes both as "a1 - a3").
 */
const h = require('./harness');

h.main({
  game: 'kono',
  games: 40,
  plies: 120,
  files: [
    'kernel/dagaz.js',
    'kernel/model/zrf-model.js',
    'kernel/model/zobrist.js',
    'games/elimination/kono-extension.js',
    'games/elimination/kono.js',
  ],
  translate(move, board, o) {
    const acts = o.actions(move);
    if (acts.length !== 1 || acts[0].from === null || acts[0].to === null) {
      throw new Error('unexpected Kono move ' + o.text(move));
    }
    const {from, to} = acts[0];
    return from + (o.piece(board, to) === null ? '-' : 'x') + to;
  },
});
