// BanQi: 8 x 4 board of discs, face-down until flipped. Colours belong to seats once the
// first flip decides them. A face-down disc carries no identity anywhere in the page.

import { fill, h, s } from "../dom.js";
import { banqiBack, banqiPiece } from "../pieces.js";
import { playerLabel } from "../text.js";
import { GridBoard } from "./grid.js";
import { arrow, star, xmark } from "./marks.js";

const FILES = "abcdefgh";
const TYPES = ["general", "advisor", "elephant", "chariot", "horse", "cannon", "soldier"];
const LETTER_TYPE = {
  g: "general",
  a: "advisor",
  e: "elephant",
  r: "chariot",
  h: "horse",
  c: "cannon",
  s: "soldier",
};

function parseAction(text) {
  if (text.startsWith("flip ")) return { text, from: text.slice(5), to: null };
  return { text, from: text.slice(0, 2), to: text.slice(3, 5) };
}

function capturedIcon(letter) {
  const colour = letter === letter.toUpperCase() ? "red" : "black";
  const type = LETTER_TYPE[letter.toLowerCase()];
  const svg = s("svg", { viewBox: "0 0 100 100", role: "img", "aria-label": `${colour} ${type}` });
  svg.append(banqiPiece({ colour, type }));
  return svg;
}

export function colourOf(u, seat) {
  const colours = u.view.colours;
  return colours ? colours[String(seat)] : null;
}

export function createBanqiBoard(boardHost, infoHost, ctx) {
  const wrap = h("div", { class: "board-wrap wide" });
  const board = new GridBoard({
    files: 8,
    ranks: 4,
    name: (f, r) => FILES[f] + (r + 1),
    kind: "banqi",
    label: "BanQi board",
    checkered: false,
    flipped: !!ctx.flip, // the player turned the board
    onMove: ctx.send,
  });
  // the grid lines of the half Xiangqi board
  const lines = s("g", { class: "gridlines" });
  for (let i = 1; i < 8; i++)
    lines.append(s("line", { class: "gridline", x1: i * 100, y1: 0, x2: i * 100, y2: 400 }));
  for (let i = 1; i < 4; i++)
    lines.append(s("line", { class: "gridline", x1: 0, y1: i * 100, x2: 800, y2: i * 100 }));
  board.layerMarks.before(lines);
  wrap.append(board.svg);
  boardHost.append(wrap);
  const info = h("div", { class: "banqi-info" });
  infoHost.append(info);
  let prevPly = null;
  let prevSquares = null;

  function update(u, legal) {
    const view = u.view;
    const pieces = new Map();
    for (const [sq, p] of Object.entries(view.squares)) {
      if (p.hidden)
        pieces.set(sq, { node: banqiBack(), label: "face-down piece", cls: "face-down" });
      else
        pieces.set(sq, {
          node: banqiPiece(p),
          label: `${p.colour} ${p.type}`,
          cls: `face-up ${p.colour}`,
        });
    }
    const classes = new Map();
    const marks = [];
    const last = view.last_move;
    if (last) {
      const act = parseAction(last);
      classes.set(act.from, ["last"]);
      if (act.to) {
        classes.set(act.to, ["last"]);
        marks.push(arrow(board, act.from, act.to, "w"));
      }
      if (view.last_event && view.last_event.type === "capture")
        marks.push(xmark(board, view.last_event.square));
      if (view.last_event && view.last_event.type === "flip")
        marks.push(star(board, view.last_event.square));
    }
    board.setPosition(pieces, { classes });
    board.setMarks(marks);
    board.setMoves((legal || []).map(parseAction));
    if (prevPly !== null && view.ply === prevPly + 1 && last && prevSquares) {
      const act = parseAction(last);
      const was = prevSquares[act.from];
      if (act.to && was && !was.hidden)
        board.animate([{ from: act.from, to: act.to, node: banqiPiece(was) }]);
    }
    prevPly = view.ply;
    prevSquares = view.squares;
    renderInfo(u);
  }

  function renderInfo(u) {
    const view = u.view;
    const rows = [];
    if (view.colours) {
      for (const seat of [0, 1]) {
        rows.push(
          h("dt", {}, playerLabel(ctx.info, u, seat)),
          h("dd", { dataset: { colourOf: seat } }, colourOf(u, seat)),
        );
      }
    } else {
      rows.push(h("dt", {}, "Colours"), h("dd", {}, "decided by the first flip"));
    }
    rows.push(
      h("dt", {}, "Face-down"),
      h("dd", {}, String(view.counters.hidden)),
      h("dt", {}, "Quiet moves"),
      h(
        "dd",
        {},
        view.draw_plies
          ? `${view.counters.quiet} of ${view.draw_plies}`
          : String(view.counters.quiet),
      ),
      h("dt", {}, "Rules"),
      h("dd", {}, `${view.variant}, cannon ${view.cannon_quiet}`),
    );
    if (view.last_move)
      rows.push(
        h("dt", {}, "Last action"),
        h("dd", { class: "last-action" }, describeBanqiAction(view)),
      );
    const captured = ["red", "black"].map((colour) => {
      const letters = view.captured.filter((l) => (l === l.toUpperCase()) === (colour === "red"));
      letters.sort(
        (a, b) =>
          TYPES.indexOf(LETTER_TYPE[a.toLowerCase()]) - TYPES.indexOf(LETTER_TYPE[b.toLowerCase()]),
      );
      return h(
        "div",
        { class: "captured" },
        h("span", { class: "muted" }, `${colour === "red" ? "Red" : "Black"} lost:`),
        letters.length ? letters.map(capturedIcon) : h("span", {}, "nothing"),
      );
    });
    const mine = ctx.you === null ? null : colourOf(u, ctx.you);
    fill(
      info,
      h("h2", {}, "BanQi"),
      mine ? h("p", { class: "you-play" }, `You play ${mine}.`) : null,
      h("dl", { class: "info-grid" }, rows),
      ...captured,
    );
  }

  return { update, release: () => board.release(), board };
}

function describeBanqiAction(view) {
  const ev = view.last_event;
  if (!ev) return view.last_move;
  if (ev.type === "flip") return `flipped ${ev.square}: ${ev.piece.colour} ${ev.piece.type}`;
  if (ev.type === "capture")
    return `${view.last_move}: took the ${ev.piece.colour} ${ev.piece.type}`;
  return view.last_move;
}

export function describeBanqiMove(info, u, movers) {
  const seat = movers[0];
  const who = u.you === seat ? "You" : playerLabel(info, u, seat);
  return `${who}: ${describeBanqiAction(u.view)}`;
}
