'use strict';
/*
 * Dagaz as a headless rules oracle (Node.js >= 18, CommonJS, no dependencies of its own).
 *
 * Dagaz (https://github.com/GlukKazan/Dagaz) is NOT vendored: every script here takes the path of
 * a Dagaz checkout's src/debug folder. Its game pages are browser scripts sharing globals; we
 * load the model files of one game (never its view, controller or AI files) into one vm context
 * with the few globals they touch (window.location, localStorage, console, underscore's `_`) and
 * drive the model as the browser controller (kernel/controller/app-v2.js) does.
 *
 * Underscore: Dagaz needs underscore 1.x as the global `_`. Pass the folder of an npm install
 * (`npm install --prefix /tmp/dagaz-node underscore@1.13`, then /tmp/dagaz-node or its
 * node_modules/underscore) with --underscore, or set DAGAZ_UNDERSCORE; otherwise the harness
 * tries require.resolve('underscore'). Its UMD file is run INSIDE the context, so `_.random`
 * (Zobrist keys, setup selectors) uses the context's Math.random, which is seeded: runs are
 * reproducible.
 *
 * API
 *   const h = require('./harness');
 *   const o = h.load({src, files, underscore?, seed?, pathname?, search?, globals?});
 *     src       the src/debug folder; files are relative to it, loaded in order, e.g.
 *               ['kernel/dagaz.js', 'kernel/model/zrf-model.js', 'kernel/model/zobrist.js',
 *                'games/elimination/kono-extension.js', 'games/elimination/kono.js']
 *               (copy the model part of the game's .htm <script> list, in its order).
 *     pathname  window.location.pathname seen by the scripts (default '/<last file>.htm').
 *     globals   extra globals to put into the context before loading.
 *   o.ctx, o.Dagaz, o.design      the vm context, its Dagaz object, the game design
 *   o.initial()                   the initial board (a Dagaz ZrfBoard; boards are persistent:
 *                                 apply returns a new board)
 *   o.moves(board)                legal moves (ZrfMove[]), generated as Dagaz.AI.generate does
 *                                 (generate, Determinate, PostProcessing)
 *   o.apply(board, move)          the board after the move
 *   o.toMove(board)               name of the player to move ('White', 'Black', ...)
 *   o.position(board)             {squareName: {owner, type} | null} for every position
 *   o.piece(board, name)          {owner, type} or null
 *   o.actions(move)               [{from, to, piece: {owner,type}|null, part}] with square
 *                                 names (from null = drop, to null = capture)
 *   o.text(move)                  Dagaz's own move text, e.g. 'a1 - a3'
 *   o.result(board, moves?)       null while the game goes on, else {winner: name|null,
 *                                 reason: 'goal'|'stalemate'}: the goal test of the player who
 *                                 just moved (checkGoals, as app-v2.js), then "no legal move =
 *                                 the side to move loses" (draw if Dagaz.Model.stalemateDraw).
 *   h.rng(seed)                   the seeded PRNG used (mulberry32, floats in [0,1))
 *
 * CLI helper: a per-game script is
 *   require('./harness').main({game: 'kono', files: [...], translate(move, board, o) {...}});
 * and is run as
 *   node scripts/dagaz/kono.js DAGAZ_SRC_DEBUG_DIR OUT.json [--games K] [--plies N]
 *        [--seed S] [--underscore DIR]
 * It plays K seeded random games of at most N plies and writes
 *   {"game": ..., "source": ..., "games": [{"seed": s, "moves": [our texts...],
 *     "legal": [[sorted our texts]...], "result": {...}|null}]}
 * legal[i] is the legal set of the position before moves[i]; legal has one more entry than
 * moves: the last position's set ([] when the game is over there). result is o.result() of the
 * last position (null if the ply limit stopped the game). Optional main() hooks:
 *   translate(move, board, o) -> our move text (required)
 *   over(board, moves, o)     -> a result object or null (default o.result)
 *   games, plies, seed        defaults for the CLI flags
 *   unique                    true: Dagaz moves that translate to the same text are one move
 *                             (the first is kept and played; e.g. Yonin Shogi drops the same
 *                             piece kind from several hand slots); default: such twins throw
 *   load                      extra options for load() (pathname, globals, ...)
 * Translated texts must be distinct in a position (checked), or the fixture would be ambiguous.
 */

const fs = require('fs');
const path = require('path');
const vm = require('vm');

function rng(seed) {
  let a = seed >>> 0;
  return function () {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function underscoreFile(where) {
  const candidates = [];
  if (where) {
    candidates.push(where, path.join(where, 'underscore-umd.js'),
      path.join(where, 'node_modules', 'underscore', 'underscore-umd.js'),
      path.join(where, 'underscore.js'));
  }
  try {
    candidates.push(path.join(path.dirname(require.resolve('underscore/package.json')),
      'underscore-umd.js'));
  } catch (e) { /* not installed globally */ }
  for (const c of candidates) {
    if (fs.existsSync(c) && fs.statSync(c).isFile()) return c;
  }
  throw new Error('underscore not found (looked at: ' + candidates.join(', ') +
    '); install it with `npm install --prefix /tmp/dagaz-node underscore@1.13` and pass ' +
    '--underscore /tmp/dagaz-node');
}

function load(opts) {
  const src = opts.src;
  const files = opts.files;
  const last = path.basename(files[files.length - 1], '.js');
  const store = {};
  const quiet = !process.env.DAGAZ_VERBOSE;
  const sandbox = {
    window: {location: {search: opts.search || '', pathname: opts.pathname || '/' + last + '.htm',
      href: ''}},
    localStorage: {
      getItem: (k) => (k in store ? store[k] : null),
      setItem: (k, v) => { store[k] = String(v); },
      removeItem: (k) => { delete store[k]; },
    },
    console: quiet ? {log() {}, warn() {}, error: console.error, info() {}, debug() {}} : console,
  };
  Object.assign(sandbox, opts.globals || {});
  const ctx = vm.createContext(sandbox);
  ctx.harnessRandom = rng(opts.seed === undefined ? 1 : opts.seed);
  vm.runInContext('Math.random = harnessRandom;', ctx);
  const us = underscoreFile(opts.underscore || process.env.DAGAZ_UNDERSCORE);
  vm.runInContext(fs.readFileSync(us, 'utf8'), ctx, {filename: us});
  for (const f of files) {
    const full = path.join(src, f);
    vm.runInContext(fs.readFileSync(full, 'utf8'), ctx, {filename: full});
  }
  const Dagaz = ctx.Dagaz;
  Dagaz.Model.InitGame();
  const design = Dagaz.Model.getDesign();
  const init = Dagaz.Model.getInitBoard();
  if (typeof Dagaz.Model.setup === 'function') Dagaz.Model.setup(init);

  const name = (pos) => Dagaz.Model.posToString(pos, design);
  const pieceInfo = (p) => (p === null || p === undefined ? null
    : {owner: design.playerNames[p.player], type: design.pieceNames[p.type]});

  const o = {
    ctx, Dagaz, design,
    initial: () => init,
    moves(board) {
      if (board.harnessMoves === undefined) {
        board.generate(design);
        let ms = Dagaz.Model.Determinate(board.moves);
        if (Dagaz.Model.PostProcessing !== undefined) Dagaz.Model.PostProcessing(board, ms);
        board.harnessMoves = ms;
      }
      return board.harnessMoves;
    },
    apply: (board, move) => board.apply(move),
    toMove: (board) => design.playerNames[board.player],
    piece: (board, sq) => pieceInfo(board.getPiece(Dagaz.Model.stringToPos(sq, design))),
    position(board) {
      const r = {};
      for (const pos of design.allPositions()) r[name(pos)] = pieceInfo(board.getPiece(pos));
      return r;
    },
    actions: (move) => move.actions.map((a) => ({
      from: a[0] === null ? null : name(a[0][0]),
      to: a[1] === null ? null : name(a[1][0]),
      piece: a[2] === null ? null : pieceInfo(a[2][0]),
      part: a[3],
    })),
    text: (move) => move.toString(),
    result(board, moves) {
      if (board.parent) {
        let g = board.checkGoals(design, board.parent.player);
        if (g !== null && typeof g === 'object') g = g.result;
        if (g !== null && g !== undefined) {
          const mover = design.playerNames[board.parent.player];
          const other = design.playerNames[design.nextPlayer(board.parent.player)];
          return {winner: g > 0 ? mover : g < 0 ? other : null, reason: 'goal'};
        }
      }
      const ms = moves || o.moves(board);
      if (ms.length === 0) {
        if (Dagaz.Model.stalemateDraw) return {winner: null, reason: 'stalemate'};
        return {winner: design.playerNames[design.nextPlayer(board.player)], reason: 'stalemate'};
      }
      return null;
    },
  };
  return o;
}

function parseArgs(argv, defaults) {
  const a = {games: defaults.games || 20, plies: defaults.plies || 200,
    seed: defaults.seed || 1, underscore: undefined, pos: []};
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i];
    if (k === '--games' || k === '--plies' || k === '--seed') a[k.slice(2)] = +argv[++i];
    else if (k === '--underscore') a.underscore = argv[++i];
    else if (k.startsWith('--')) throw new Error('unknown flag ' + k);
    else a.pos.push(k);
  }
  if (a.pos.length !== 2) {
    throw new Error('usage: node ' + path.basename(process.argv[1]) +
      ' DAGAZ_SRC_DEBUG_DIR OUT.json [--games K] [--plies N] [--seed S] [--underscore DIR]');
  }
  return a;
}

function legalTexts(o, board, moves, translate, unique) {
  let texts = moves.map((m) => translate(m, board, o));
  if (unique) {
    const keep = texts.map((t, i) => texts.indexOf(t) === i);
    moves = moves.filter((m, i) => keep[i]);
    texts = texts.filter((t, i) => keep[i]);
  }
  const sorted = texts.slice().sort();
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i] === sorted[i - 1]) throw new Error('two Dagaz moves translate to ' + sorted[i]);
  }
  return {texts, sorted, moves};
}

function playGames(spec, args) {
  const out = [];
  for (let g = 0; g < args.games; g++) {
    const seed = args.seed + g;
    const o = load(Object.assign({src: args.src, files: spec.files, underscore: args.underscore,
      seed}, spec.load || {}));
    const pick = rng(seed * 7919 + 17);
    const over = spec.over || ((b, ms) => o.result(b, ms));
    let board = o.initial();
    const rec = {seed, moves: [], legal: [], result: null};
    for (let ply = 0; ; ply++) {
      const moves = o.moves(board);
      const res = over(board, moves, o);
      if (res) {
        rec.legal.push([]);
        rec.result = res;
        break;
      }
      const t = legalTexts(o, board, moves, spec.translate, spec.unique);
      rec.legal.push(t.sorted);
      if (ply >= args.plies) break;
      const i = Math.floor(pick() * t.moves.length);
      rec.moves.push(t.texts[i]);
      board = o.apply(board, t.moves[i]);
    }
    out.push(rec);
  }
  return out;
}

function main(spec) {
  let args;
  try {
    args = parseArgs(process.argv.slice(2), spec);
  } catch (e) {
    console.error(e.message);
    process.exit(2);
  }
  args.src = args.pos[0];
  const games = playGames(spec, args);
  const doc = {game: spec.game,
    source: 'GlukKazan/Dagaz src/debug: ' + spec.files.join(' '),
    generator: 'scripts/dagaz/' + path.basename(process.argv[1]) + ' --games ' + args.games +
      ' --plies ' + args.plies + ' --seed ' + args.seed,
    games};
  fs.writeFileSync(args.pos[1], JSON.stringify(doc) + '\n');
  const positions = games.reduce((n, g) => n + g.legal.length, 0);
  console.log(spec.game + ': ' + games.length + ' games, ' + positions + ' positions -> ' +
    args.pos[1]);
}

module.exports = {load, rng, main, playGames, parseArgs};
