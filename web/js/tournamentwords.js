// The words of tournaments, shared by the list (tournaments.js), a tournament's page
// (tournament.js), the create form (tournamentform.js) and the bar at the board
// (tournamentboard.js): the routes, a clock as lichess writes it, the system's name, how
// long it lasts, a countdown.

const ID = "[A-Za-z0-9_-]{1,64}";

/** The tournament route of the address: {list: true}, {id} or null (not a tournament page). */
export function tournamentRoute() {
  if (/^#\/tournaments\/?$/.test(location.hash)) return { list: true };
  const m = new RegExp(`^#/tournament/(${ID})$`).exec(location.hash);
  return m ? { id: m[1] } : null;
}

export const tournamentHref = (id) => `#/tournament/${id}`;

export const SYSTEMS = { arena: "Arena", swiss: "Swiss", round_robin: "Round robin" };

const FRACTIONS = { 0.25: "¼", 0.5: "½", 0.75: "¾" };

/**
 * A clock as lichess writes it: "3+2", "½+0", "1½+1" (base and increment in seconds); a base
 * that is no such part of a minute in seconds: "10s+0".
 */
export function clockText(clock) {
  if (!clock) return "";
  const minutes = Number(clock.base) / 60;
  const whole = Math.floor(minutes);
  const part = FRACTIONS[Math.round((minutes - whole) * 100) / 100];
  const exact =
    part && Math.abs(minutes - whole - Math.round((minutes - whole) * 100) / 100) < 1e-9;
  let m;
  if (minutes === whole) m = String(whole);
  else if (exact) m = `${whole || ""}${part}`;
  else m = `${Math.round(Number(clock.base))}s`;
  return `${m}+${clock.increment || 0}`;
}

/** How long a tournament lasts: "45 minutes", "7 rounds", "everyone plays everyone". */
export function lengthText(t) {
  if (t.system === "arena" && t.minutes) return `${t.minutes} minute${t.minutes === 1 ? "" : "s"}`;
  if (t.system === "round_robin")
    return t.rounds ? `${t.rounds} rounds, everyone plays everyone` : "everyone plays everyone";
  if (t.rounds) return `${t.rounds} round${t.rounds === 1 ? "" : "s"}`;
  return "";
}

/** "04:59", "1:02:03", "2 d 3 h": the time left until `seconds` from now. */
export function countdownText(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  const d = Math.floor(s / 86400);
  if (d > 0) return `${d} d ${Math.floor((s % 86400) / 3600)} h`;
  const hh = Math.floor(s / 3600);
  const mm = Math.floor((s % 3600) / 60);
  const ss = s % 60;
  const two = (n) => String(n).padStart(2, "0");
  return hh ? `${hh}:${two(mm)}:${two(ss)}` : `${two(mm)}:${two(ss)}`;
}

/** The fields of a tournament as every page reads them: a list's summary or a view's spec. */
export function specOf(t) {
  const spec = (t && t.spec) || t || {};
  const clock =
    spec.clock || (spec.base !== undefined ? { base: spec.base, increment: spec.increment } : null);
  return { ...spec, clock, id: spec.id || (t && (t.id || t.tournament)) };
}

/** The times and rounds of a view ({times, rounds: {current, total}}) as timeText reads them. */
export function timesOf(v) {
  const spec = specOf(v);
  const times = v.times || {};
  const rounds = v.rounds && typeof v.rounds === "object" ? v.rounds : {};
  return {
    ...spec,
    status: v.status,
    players: v.players,
    starts_at: times.starts_at ?? spec.starts_at,
    ends_at: times.ends_at,
    next_round_at: times.next_round_at,
    round: rounds.current,
    rounds: rounds.total ?? spec.rounds,
  };
}

/** "Chess · 3+2 · Arena · 45 minutes": what a tournament is, in one line. */
export function describe(app, t) {
  const spec = specOf(t);
  const info = app.info(spec.game);
  return [
    info.title || spec.game,
    clockText(spec.clock),
    SYSTEMS[spec.system] || spec.system,
    lengthText(spec),
    spec.seats > 2 ? `tables of ${spec.seats}` : null,
    spec.rated ? "rated" : "casual",
  ]
    .filter(Boolean)
    .join(" · ");
}

/** When it starts, ends, or ended, as a sentence (seconds since the epoch, server time). */
export function timeText(t, now) {
  const status = t.status;
  if (status === "upcoming") {
    if (t.starts_at) return `Starts in ${countdownText(t.starts_at - now)}`;
    const n = t.players;
    return `Starts when full${n !== null && n !== undefined ? ` (${n} of ${t.max_players})` : ""}`;
  }
  if (status === "running") {
    if (t.ends_at) return `Ends in ${countdownText(t.ends_at - now)}`;
    const of = t.rounds ? ` of ${t.rounds}` : "";
    if (t.round && t.next_round_at && t.next_round_at > now)
      return `Round ${t.round}${of} starts in ${countdownText(t.next_round_at - now)}`;
    if (t.round) return `Round ${t.round}${t.rounds ? ` of ${t.rounds}` : ""}`;
    return "Running";
  }
  if (status === "cancelled") return "Cancelled";
  return "Finished";
}
