// Apocalypse: 5 x 5, both sides move at once. A move is sealed until both are in; then the
// joint move is shown (arrows for both sides, the pieces slide, collisions and captures
// marked).

import { h } from "../dom.js";
import { chessPiece } from "../pieces.js";
import { playerLabel, seatName } from "../text.js";
import { GridBoard } from "./grid.js";
import { arrow, burst, star, xmark } from "./marks.js";

const FILES = "abcde";
const SIDES = ["white", "black"];

function entry(ch) {
  const side = ch === ch.toUpperCase() ? "white" : "black";
  const horseman = ch.toLowerCase() === "n";
  return {
    node: chessPiece(horseman ? "n" : "p", side),
    label: `${side} ${horseman ? "horseman" : "footman"}`,
  };
}

function eventText(ev) {
  switch (ev.type) {
    case "capture":
      return `capture on ${ev.square}`;
    case "evaded":
      return `the piece on ${ev.square} got away`;
    case "collision":
      return (
        `collision on ${ev.square} ` +
        `(${ev.removed.map((p) => entry(p).label).join(" and ")} removed)`
      );
    case "promotion":
      return `promotion on ${ev.square}`;
    case "promotion_refused":
      return `no promotion on ${ev.square} (two horsemen already)`;
    default:
      return `${ev.type} on ${ev.square}`;
  }
}

export function createApocalypseBoard(boardHost, infoHost, ctx) {
  const wrap = h("div", { class: "board-wrap" });
  const board = new GridBoard({
    files: 5,
    ranks: 5,
    name: (f, r) => FILES[f] + (r + 1),
    kind: "apocalypse",
    label: `Apocalypse board${ctx.you === null ? "" : `, you play ${SIDES[ctx.you]}`}`,
    flipped: (ctx.you === 1) !== !!ctx.flip, // ctx.flip: the player turned the board
    onMove: ctx.send,
  });
  wrap.append(board.svg);
  boardHost.append(wrap);
  const info = h("div", { class: "apocalypse-info" });
  infoHost.append(info);
  let prevPly = null;
  let prevPieces = null;

  function update(u, legal) {
    const view = u.view;
    const pieces = new Map();
    for (const [sq, ch] of Object.entries(view.pieces)) pieces.set(sq, entry(ch));
    const classes = new Map();
    const marks = [];
    for (const [seat, mv] of Object.entries(view.last_moves || {})) {
      if (!mv) continue;
      marks.push(arrow(board, mv.slice(0, 2), mv.slice(2, 4), seat === "0" ? "w" : "b"));
    }
    for (const ev of view.last_events || []) {
      if (ev.type === "collision") marks.push(burst(board, ev.square));
      else if (ev.type === "capture") marks.push(xmark(board, ev.square));
      else if (ev.type === "promotion") marks.push(star(board, ev.square));
    }
    if (u.your_move) {
      marks.push(arrow(board, u.your_move.slice(0, 2), u.your_move.slice(2, 4), "mine"));
      classes.set(u.your_move.slice(0, 2), ["own-last"]);
      classes.set(u.your_move.slice(2, 4), ["own-last"]);
    }
    board.setPosition(pieces, { classes });
    board.setMarks(marks);
    board.setMoves((legal || []).map((t) => ({ text: t, from: t.slice(0, 2), to: t.slice(2, 4) })));
    if (prevPly !== null && view.ply === prevPly + 1 && prevPieces) {
      const slides = [];
      for (const [seat, mv] of Object.entries(view.last_moves || {})) {
        if (!mv) continue;
        const from = mv.slice(0, 2);
        const to = mv.slice(2, 4);
        const was = prevPieces[from];
        if (!was) continue;
        const now = view.pieces[to];
        const same = now && (now === now.toUpperCase()) === (seat === "0");
        slides.push({ from, to, node: entry(was).node, vanish: !same });
      }
      board.animate(slides, 450);
    }
    prevPly = view.ply;
    prevPieces = view.pieces;
    renderInfo(u);
  }

  function renderInfo(u) {
    const view = u.view;
    const rows = [
      h("dt", {}, u.status === "over" ? "Turns played" : "Turn"),
      h("dd", {}, String(u.status === "over" ? view.ply : view.ply + 1)),
      h("dt", {}, "Horsemen"),
      h("dd", {}, `White ${view.horsemen[0]} · Black ${view.horsemen[1]}`),
    ];
    const last = Object.entries(view.last_moves || {}).filter(([, m]) => m);
    if (last.length) {
      rows.push(
        h("dt", {}, "Last turn"),
        h(
          "dd",
          { class: "last-turn" },
          last.map(([seat, m]) => `${seatName(ctx.info, Number(seat))} ${m}`).join(", "),
        ),
      );
    }
    if ((view.last_events || []).length) {
      rows.push(
        h("dt", {}, "What happened"),
        h("dd", { class: "last-events" }, view.last_events.map(eventText).join("; ")),
      );
    }
    if (u.your_move)
      rows.push(h("dt", {}, "Your sealed move"), h("dd", { class: "your-move" }, u.your_move));
    info.replaceChildren(h("h2", {}, "Apocalypse"), h("dl", { class: "info-grid" }, rows));
  }

  return { update, release: () => board.release(), board };
}

export function describeApocalypseMove(info, u) {
  const view = u.view;
  const parts = Object.entries(view.last_moves || {})
    .filter(([, m]) => m)
    .map(
      ([seat, m]) => `${u.you === Number(seat) ? "you" : playerLabel(info, u, Number(seat))} ${m}`,
    );
  let text = `Turn ${view.ply}: ${parts.join(", ")}`;
  if ((view.last_events || []).length) text += ` — ${view.last_events.map(eventText).join("; ")}`;
  return text;
}
