'use strict';
/*
 * Dagaz oracle for Ming-Mang (server/engine/ming_mang): plays seeded random games with Dagaz's
 * own models (games/custodian/ming-mang.zrf compiled to ming-mang-small.js, 9x9 with its ko
 * "situation", and ming-mang.js, 17x17 without ko; both with ming-mang-extension.js, which
 * turns the enemy stones a move closes) and writes, for every position, the legal moves in our
 * notation and the stones each move turns. Regenerate the fixture with
 *   node scripts/dagaz/ming_mang.js DAGAZ_SRC_DEBUG_DIR tests/engine/oracle/ming_mang_dagaz.json \
 *        --underscore /tmp/dagaz-node
 * (see scripts/dagaz/README.md). Dagaz's Black moves first, as our seat 0.
 *
 * The fixture is compact (a 17x17 position has some 450 moves): per position
 *   n      the number of legal moves,
 *   sha    the first 16 hex digits of sha1 of the sorted texts joined by spaces,
 *   conv   {"a1-a5": ["c5", "d5"], ...} for every move that turns stones,
 *   corner [texts]: the moves among them whose turned stones include one off the moved
 *          stone's file and rank: Dagaz's extra capture around a 90-degree corner (a line of
 *          two or more enemy stones from the moved stone that bends and is closed further on),
 *          which is not in the game: the test checks only that we turn a subset there;
 *   legal  the sorted texts themselves, only with --full (for a diagnosis).
 * The random games never play a corner move (one is chosen among the others; a game stops,
 * result {winner: null, reason: "corner_only"}, if only corner moves are left), so Dagaz's
 * games stay games of ours. --games K: K games on each board (9x9 seeds S.., 17x17 seeds
 * S+1000..), --plies N: at most N plies each (17x17: N/2).
 */
const crypto = require('crypto');
const fs = require('fs');
const path = require('path');
const h = require('./harness');

const MODELS = {
  9: ['kernel/dagaz.js', 'kernel/model/zrf-model.js', 'kernel/model/zobrist.js',
    'kernel/model/ko.js', 'games/custodian/ming-mang-extension.js',
    'games/custodian/ming-mang-small.js'],
  17: ['kernel/dagaz.js', 'kernel/model/zrf-model.js', 'kernel/model/zobrist.js',
    'games/custodian/ming-mang-extension.js', 'games/custodian/ming-mang.js'],
};

// our text for a Dagaz move, and the points it turns (actions whose from is their to)
function translate(move, o) {
  const acts = o.actions(move);
  const slide = acts.filter((a) => a.from !== a.to);
  if (slide.length !== 1 || slide[0].from === null || slide[0].to === null) {
    throw new Error('unexpected Ming-Mang move ' + o.text(move));
  }
  const turned = acts.filter((a) => a.from === a.to).map((a) => a.from).sort();
  return {text: slide[0].from + '-' + slide[0].to, dst: slide[0].to, turned};
}

const sameLine = (a, b) => a[0] === b[0] || a.slice(1) === b.slice(1);

function play(size, seed, plies, full, underscore, src) {
  const o = h.load({src, files: MODELS[size], underscore, seed});
  const pick = h.rng(seed * 7919 + 17);
  let board = o.initial();
  const rec = {seed, size, moves: [], positions: [], result: null};
  for (let ply = 0; ; ply++) {
    const moves = o.moves(board);
    const res = o.result(board, moves);
    const infos = moves.map((m) => translate(m, o));
    const texts = infos.map((i) => i.text).sort();
    for (let i = 1; i < texts.length; i++) {
      if (texts[i] === texts[i - 1]) throw new Error('two Dagaz moves translate to ' + texts[i]);
    }
    const pos = {n: texts.length,
      sha: crypto.createHash('sha1').update(texts.join(' ')).digest('hex').slice(0, 16),
      conv: {}, corner: []};
    for (const i of infos) {
      if (i.turned.length) pos.conv[i.text] = i.turned;
      if (i.turned.some((sq) => !sameLine(sq, i.dst))) pos.corner.push(i.text);
    }
    pos.corner.sort();
    if (full) pos.legal = texts;
    rec.positions.push(pos);
    if (res) {
      rec.result = res;
      break;
    }
    if (ply >= plies) break;
    const ok = infos.map((inf, k) => k).filter((k) => !pos.corner.includes(infos[k].text));
    if (ok.length === 0) {
      rec.result = {winner: null, reason: 'corner_only'};
      break;
    }
    const k = ok[Math.floor(pick() * ok.length)];
    rec.moves.push(infos[k].text);
    board = o.apply(board, moves[k]);
  }
  return rec;
}

const argv = process.argv.slice(2);
const full = argv.includes('--full');
let args;
try {
  args = h.parseArgs(argv.filter((a) => a !== '--full'), {games: 6, plies: 160, seed: 1});
} catch (e) {
  console.error(e.message);
  process.exit(2);
}
const [src, out] = args.pos;
const games = [];
for (let g = 0; g < args.games; g++) {
  games.push(play(9, args.seed + g, args.plies, full, args.underscore, src));
}
for (let g = 0; g < args.games; g++) {
  games.push(play(17, args.seed + 1000 + g, Math.floor(args.plies / 2), full, args.underscore,
    src));
}
const doc = {game: 'ming_mang',
  source: 'GlukKazan/Dagaz src/debug: ' + MODELS[9].join(' ') + ' | ' + MODELS[17].join(' '),
  generator: 'scripts/dagaz/ming_mang.js --games ' + args.games + ' --plies ' + args.plies +
    ' --seed ' + args.seed + (full ? ' --full' : ''),
  games};
fs.writeFileSync(out, JSON.stringify(doc) + '\n');
const positions = games.reduce((n, g) => n + g.positions.length, 0);
const corners = games.reduce((n, g) => n + g.positions.filter((p) => p.corner.length).length, 0);
console.log('ming_mang: ' + games.length + ' games, ' + positions + ' positions (' + corners +
  ' with a corner move) -> ' + path.normalize(out));
