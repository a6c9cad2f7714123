// The move texts of a game described as data (server/engine/grid.py is the contract): its
// square names (file letter, rank number) and the gesture each legal move text stands for:
// a1-a2, a1xa2, a7-a8=Q, P*c3, c3, "flip c3" (an act named), a1a2 and a7a8q (squares alone).

export const FILES = "abcdefghijklmnopqrstuvwxyz";
const SQUARE = "[a-z](?:[1-9]|1[0-9]|2[0-6])";
const MOVE = new RegExp(`^(${SQUARE})([-x])(${SQUARE})(?:=([A-Za-z+]{1,3}))?$`);
const DROP = new RegExp(`^([A-Za-z+]{1,3})\\*(${SQUARE})$`);
const ACT = new RegExp(`^${SQUARE}$`);
const NAMED_ACT = new RegExp(`^[a-z]+ (${SQUARE})$`); // "flip c3"
const UCI = new RegExp(`^(${SQUARE})(${SQUARE})([a-z])?$`); // "e2e4", "e7e8q"

/**
 * A move text read as a gesture: {text, kind: move|drop|act|pass|other, from, to, capture,
 * choice, letter}. A drop's `from` is "*" + its letter (the hand piece the board selects).
 */
export function parseGesture(text) {
  if (text === "pass") return { text, kind: "pass", from: null, to: null };
  let m = MOVE.exec(text);
  if (m)
    return {
      text,
      kind: "move",
      from: m[1],
      to: m[3],
      capture: m[2] === "x",
      choice: m[4] || null,
    };
  m = DROP.exec(text);
  if (m) return { text, kind: "drop", from: `*${m[1]}`, to: m[2], letter: m[1] };
  if (ACT.test(text)) return { text, kind: "act", from: text, to: null };
  m = NAMED_ACT.exec(text);
  if (m) return { text, kind: "act", from: m[1], to: null };
  m = UCI.exec(text);
  if (m) return { text, kind: "move", from: m[1], to: m[2], capture: false, choice: m[3] || null };
  return { text, kind: "other", from: null, to: null };
}
