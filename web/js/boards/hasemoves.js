// Hase und Igel's moves and what they cause, in words: the hare cards, the field a move
// leads to, a legal move as its button reads, and each event of a turn as a log line.

import { playerLabel, plural } from "../text.js";
import { KIND } from "./hasetrack.js";

export const CARDS = {
  refund: ["Free ride", "The carrots paid for this move come back."],
  take_give: ["Take or give", "Take 10 carrots, give 10 back, or do nothing."],
  fall_back: ["Fall back", "Drop back one place, behind the next runner."],
  move_up: ["Move up", "Move up one place, in front of the next runner."],
  miss_turn: ["Miss a turn", "Your next turn is skipped."],
  eat_salad: ["Eat a salad", "Next turn you eat a salad, as if you stood on a salad field."],
  next_carrot: ["Next carrot field", "Move free of charge to the next carrot field ahead."],
  prev_carrot: ["Previous carrot field", "Move free of charge back to the previous carrot field."],
  move_again: ["Move again", "Take another turn at once."],
  give_behind: ["Generous", "Give 10 carrots to every runner behind you."],
  behind_ahead: [
    "Count the field",
    "More runners behind than ahead: miss a turn; else move again.",
  ],
  set_65: ["Exactly 65", "Your carrots become exactly 65."],
  salad_carrots: ["Salad money", "10 carrots for every salad you still hold."],
  halve: ["Halved", "Lose half of your carrots."],
  show: ["Show your carrots", "No effect: carrots are open here."],
  shuffle: ["Shuffle", "The hare cards are shuffled; every other runner gives you 1 carrot."],
};

export function cardTitle(card) {
  return (CARDS[card] || [card])[0];
}

function prevHedgehog(board, pos) {
  for (let i = pos - 1; i > 0; i--) if (board[i] === "I") return i;
  return -1;
}

/** Legal move text -> the field it leads to (forward and back moves), else null. */
export function targetOf(board, pos, text) {
  const m = /^advance (\d+)$/.exec(text);
  if (m) return pos + Number(m[1]);
  if (text === "back") return prevHedgehog(board, pos);
  return null;
}

/** A legal move text as its button (and its field) reads. */
export function moveLabel(board, pos, text) {
  const m = /^advance (\d+)$/.exec(text);
  if (m) {
    const n = Number(m[1]);
    const to = pos + n;
    const kind = KIND[board[to]] ? KIND[board[to]].name : board[to];
    return (
      `Advance ${n} to field ${to} (${to === board.length - 1 ? "the goal" : kind}) ` +
      `for ${plural((n * (n + 1)) / 2, "carrot")}`
    );
  }
  if (text === "back") {
    const to = prevHedgehog(board, pos);
    return `Back to the hedgehog on field ${to} (+${plural(10 * (pos - to), "carrot")})`;
  }
  if (text === "carrots +10") return "Stay and take 10 carrots";
  if (text === "carrots -10") return "Stay and give back 10 carrots";
  if (text === "card take") return "Card: take 10 carrots";
  if (text === "card give") return "Card: give 10 carrots";
  if (text === "card none") return "Card: do nothing";
  return text;
}

/** One event of a turn (a run, a card, a salad eaten, ...) as a log line. */
export function eventLine(info, u, ev) {
  const who = u.you === ev.seat ? "You" : playerLabel(info, u, ev.seat);
  const c = ev.carrots || 0;
  const signed = `${c > 0 ? "+" : ""}${plural(c, "carrot")}`;
  switch (ev.kind) {
    case "advance":
      return `${who} ran to field ${ev.field} (${signed})`;
    case "back":
      return `${who} fell back to the hedgehog on field ${ev.field} (${signed})`;
    case "carrots":
      return `${who} ${c > 0 ? "took" : "gave back"} 10 carrots`;
    case "finish":
      return `${who} reached the goal — place ${ev.place}`;
    case "card":
      return `${who} drew a hare card: ${cardTitle(ev.card)}`;
    case "card_carrots":
      return `${who}: ${signed} (${cardTitle(ev.card)})`;
    case "card_move":
      return `${who} moved to field ${ev.field} by the card`;
    case "no_effect":
      return `${who}: the card ${cardTitle(ev.card)} has no effect`;
    case "skip_next":
      return `${who} will miss the next turn`;
    case "eat_next":
      return `${who} will eat a salad next turn`;
    case "again":
      return `${who} moves again`;
    case "shuffle":
      return `${who} shuffled the hare cards`;
    case "payout":
      return `${who} got ${signed} for place ${ev.place} on field ${ev.field}`;
    case "eat":
      return `${who} ate a salad (${signed})`;
    case "miss":
      return `${who} missed a turn`;
    case "lapse":
      return `${who}: the extra turn lapses`;
    case "stuck":
      return `${who} was stuck and went back to Start`;
    case "turn_cap":
      return `${who} reached the turn limit`;
    default:
      return `${who}: ${ev.kind}`;
  }
}
