// Words for people: seat names, outcomes, events.

const REASONS = {
  checkmate: "checkmate",
  stalemate: "stalemate",
  king_captured: "the king was captured",
  resignation: "resignation",
  timeout: "out of time",
  repetition: "threefold repetition",
  fifty_moves: "the fifty-move rule",
  insufficient_material: "insufficient material",
  horsemen_lost: "all horsemen lost",
  no_moves: "no legal move left",
  all_captured: "all pieces captured",
  no_progress: "no capture or flip for too long",
  goal: "first to the goal",
  turn_cap: "the turn limit",
  agreement: "by agreement",
  aborted: "aborted before both sides moved",
  abandoned: "a player left the game",
};

/** A rating change as lichess shows it: "+8", "−162" (a real minus sign), "0". */
export function signed(change) {
  const n = Math.round(change);
  if (n > 0) return `+${n}`;
  return n < 0 ? `\u2212${-n}` : "0";
}

//: what the "?" of a provisional rating means, told where it is shown (a tooltip)
export const PROVISIONAL =
  "Provisional: the rating is still uncertain (its deviation is over 110), " +
  "so each game moves it a lot — often by 100 or more in a first game";

/** A rating as shown beside a name: "1500", "1500?" while provisional. */
export function ratingText(seat) {
  return `${seat.rating}${seat.provisional ? "?" : ""}`;
}

/** "1 carrot", "3 carrots" (also "-1 carrot"). */
export function plural(n, word, many = `${word}s`) {
  return `${n} ${Math.abs(n) === 1 ? word : many}`;
}

// games whose turns are plies of a chess-like game: a take-back is told in move numbers,
// as their position panel counts them
const MOVE_NUMBERED = new Set(["chess"]);

export function reasonText(reason) {
  return REASONS[reason] || String(reason || "").replaceAll("_", " ");
}

/** "White" (seat name of the game) or "Seat 3". */
export function seatName(info, seat) {
  if (seat === null || seat === undefined) return "Spectator";
  const names = (info && info.seat_names) || [];
  return names[seat] || `Seat ${seat + 1}`;
}

/** "Ada (White)", "Ada" in a game without seat names, or "White" when nobody sits there. */
export function playerLabel(info, update, seat) {
  const holder = update && update.seats && update.seats[seat];
  const role = seatName(info, seat);
  const named = info && info.seat_names && info.seat_names[seat];
  if (holder && holder.name) return named ? `${holder.name} (${role})` : holder.name;
  return role;
}

/** "Ada (White) ran out of time" / "you ran out of time" (null: unknown seat). */
export function flagText(info, update, flagged) {
  if (flagged === null || flagged === undefined) return null;
  return `${update.you === flagged ? "you" : playerLabel(info, update, flagged)} ran out of time`;
}

/**
 * A one-line summary of an outcome, from the point of view of `you` when seated;
 * `flagged` is the seat whose time ran out, when the game ended that way and it is known.
 */
export function outcomeText(info, update, flagged = null) {
  const o = update.outcome;
  if (!o) return "";
  const reason = reasonText(o.reason);
  const n = o.ranks.length;
  if (o.reason === "aborted") return "Aborted — no result";
  const hasWinner = o.winner !== null && o.winner !== undefined;
  if (o.reason === "timeout") {
    const flag = flagText(info, update, flagged);
    if (hasWinner) {
      const who =
        update.you === o.winner
          ? "You win on time"
          : `${playerLabel(info, update, o.winner)} wins on time`;
      return flag ? `${who} — ${flag}` : who;
    }
    if (flag) return `${flag[0].toUpperCase()}${flag.slice(1)}`;
  }
  if (hasWinner) {
    const who = update.you === o.winner ? "You win" : `${playerLabel(info, update, o.winner)} wins`;
    return `${who} — ${reason}`;
  }
  if (o.ranks.every((r) => r === 1)) return `Draw — ${reason}`;
  const firsts = o.ranks
    .map((r, i) => (r === 1 ? playerLabel(info, update, i) : null))
    .filter(Boolean);
  return `${firsts.join(" and ")} share first place of ${n} — ${reason}`;
}

/** One log line for a protocol event (rendered for this recipient). */
export function eventText(info, update, ev) {
  const who = (seat) => (update.you === seat ? "You" : playerLabel(info, update, seat));
  switch (ev.kind) {
    case "seat": {
      const holder = ev.holder && ev.holder.name ? ev.holder.name : "Someone";
      const named = info && info.seat_names && info.seat_names[ev.seat];
      return named ? `${holder} sat down as ${named}` : `${holder} took seat ${ev.seat + 1}`;
    }
    case "unseat":
      return `${seatName(info, ev.seat)} is free again`;
    case "sealed":
      return ev.move ? `You sealed your move ${ev.move}` : `${who(ev.seat)} has moved (sealed)`;
    case "move":
      return null; // the board module describes moves from the view
    case "resign":
      if (ev.reason === "abandoned") return `${who(ev.seat)} left the game: the win was claimed`;
      return `${who(ev.seat)} resigned`;
    case "timeout":
      return `${who(ev.seat)} ran out of time`;
    case "undo_request":
      return `${who(ev.seat)} asked to take back a move`;
    case "undo_answer":
      return `${who(ev.seat)} ${ev.accept ? "accepted" : "declined"} the take-back`;
    case "undo":
      if (MOVE_NUMBERED.has(update.game)) {
        const side = ev.turn % 2 === 0 ? "White" : "Black";
        return `Moves taken back: back at move ${Math.floor(ev.turn / 2) + 1}, ${side} to move`;
      }
      return `Moves taken back: the game is back after ${plural(ev.turn, "turn")}`;
    case "draw_offer":
      return `${who(ev.seat)} offered a draw`;
    case "draw_answer":
      return `${who(ev.seat)} ${ev.accept ? "accepted" : "declined"} the draw`;
    case "draw":
      return `Draw — ${reasonText(ev.reason)}`;
    case "abort":
      if (ev.reason === "no_first_move") {
        const whose = update.you === ev.seat ? "You" : playerLabel(info, update, ev.seat);
        return `${whose} did not make a first move in time: the game is aborted, unrated`;
      }
      return `${who(ev.seat)} aborted the game`;
    case "ratings": {
      const parts = (ev.changes || [])
        .map((c, seat) =>
          c ? `${who(seat)} ${signed(c.change)} (${Math.round(c.new_rating)})` : null,
        )
        .filter(Boolean);
      return parts.length ? `Ratings: ${parts.join(", ")}` : null;
    }
    case "rematch_offer":
      return `${who(ev.seat)} asked for a rematch`;
    case "rematch_declined":
      return `${who(ev.seat)} declined the rematch`;
    case "rematch":
      return "The rematch has begun";
    default:
      return null;
  }
}
