// What an analysis (docs/ANALYSIS.md, its stored form) plots and marks, for one of its views:
// "true" (what was there: `evals`, seat 0's side, or `values`, each seat's) or "seen" (what
// each mover saw: each ply's `seen`, a hidden-information game's). Only the data's shape
// decides: evaluations become seat 0's winning chances (one line), a list of values per
// position one line per seat.

export const MARKS = { inaccuracy: "?!", mistake: "?", blunder: "??" };
export const JUDGEMENTS = ["inaccuracy", "mistake", "blunder"];
const RANK = { inaccuracy: 1, mistake: 2, blunder: 3 };
// lichess's scale: centipawns clamped, then winning chances between -1 and 1
const CEILING = 1000;
const K = 0.00368208;

/** A stored evaluation ({cp} | {mate} | {over}, seat 0's side) as winning chances. */
export function chances(score) {
  if (!score) return null;
  if ("over" in score) return Math.sign(score.over);
  if ("mate" in score) return Math.sign(score.mate);
  if (!("cp" in score)) return null;
  const cp = Math.max(-CEILING, Math.min(CEILING, score.cp));
  return 2 / (1 + Math.exp(-K * cp)) - 1;
}

/** The views an analysis holds: ["true"], or ["seen", "true"] for a hidden game. */
export function viewsOf(a) {
  return a && a.views === "seen" ? ["seen", "true"] : ["true"];
}

/** A ply's judgement and better move in a view. */
function judgedIn(ply, view) {
  if (view === "seen") {
    const seen = ply.seen || {};
    return { judgement: seen.judgement || null, best: seen.best || null };
  }
  return { judgement: ply.judgement || null, best: ply.best || null };
}

/** The value of a ply's move as its mover saw it, as seat 0's winning chances. */
function seenChances(ply) {
  const seen = ply.seen;
  if (!seen || typeof seen.played !== "number") return null;
  const mine = 2 * seen.played - 1;
  return ply.seat === 0 ? mine : -mine;
}

/**
 * The graph's data: {lines: [[value | null, ...] per position], low, high, seats, plies,
 * marks: Map ply -> {judgement, seat, best: [moves]}} — `lines` one per plotted seat (one:
 * seat 0's winning chances), position 0 the start.
 */
export function series(a, view) {
  const plies = a.plies || [];
  const last = plies.reduce((m, p) => Math.max(m, p.ply), 0);
  let lines;
  let low = -1;
  let high = 1;
  if (view === "seen") {
    const line = new Array(last + 1).fill(null);
    for (const p of plies) line[p.ply] = seenChances(p);
    lines = [line];
  } else if (Array.isArray(a.evals)) {
    lines = [a.evals.map(chances)];
  } else {
    const values = a.values || [];
    const n = Math.max(0, ...values.map((v) => (v ? v.length : 0)));
    lines = Array.from({ length: n }, (_, seat) =>
      values.map((v) => (v && typeof v[seat] === "number" ? v[seat] : null)),
    );
    const all = lines.flat().filter((v) => v !== null);
    low = Math.min(0, ...all);
    high = Math.max(1, ...all);
  }
  const marks = new Map();
  for (const p of plies) {
    const { judgement, best } = judgedIn(p, view);
    const had = marks.get(p.ply) || { judgement: null, seat: p.seat, best: [] };
    if (best) had.best.push(best);
    if (judgement && (!had.judgement || RANK[judgement] > RANK[had.judgement])) {
      had.judgement = judgement;
      had.seat = p.seat;
    }
    marks.set(p.ply, had);
  }
  return { lines, low, high, last, marks, seats: lines.length };
}

/** Each player's counts in a view: {inaccuracy, mistake, blunder} (the stored summary's, or
 *  its `seen` counts). */
export function countsIn(player, view) {
  return view === "seen" && player.seen ? player.seen : player;
}
