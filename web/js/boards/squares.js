// The squares of a GridBoard drawn: each square's group (its shade, the highlight and the
// ring that the game's classes light up) and the coordinates, on the edge squares or, on a
// board of points, in the frame beside the outer crossings.

import { s } from "../dom.js";

export const CELL = 100; // a square, in SVG units

/** Draw the squares of `board` (a GridBoard) in its layers and keep them in board.squares. */
export function drawSquares(board) {
  const checkered = board.o.checkered !== false;
  let first = true;
  for (let r = board.ranks - 1; r >= 0; r--) {
    for (let f = 0; f < board.files; f++) {
      const name = board.o.name(f, r);
      const [x, y] = board.xy(f, r);
      const shade = checkered ? ((f + r) % 2 === 0 ? "dark" : "light") : "light";
      const g = s("g", {
        class: "sq",
        role: "button",
        tabindex: first ? 0 : -1,
        dataset: { square: name },
        transform: `translate(${x} ${y})`,
      });
      first = false;
      // on a board of points the highlights are round, about the crossing
      const round = board.o.points
        ? { x: 6, y: 6, width: CELL - 12, height: CELL - 12, rx: CELL / 2 - 6 }
        : null;
      g.append(
        s("rect", { class: `bg ${shade}`, width: CELL, height: CELL }),
        s("rect", { class: "hl", width: CELL, height: CELL, ...round }),
        s("rect", {
          class: "ring",
          x: 4,
          y: 4,
          width: CELL - 8,
          height: CELL - 8,
          rx: 6,
          ...round,
        }),
      );
      const onLight = shade === "light" ? "on-light" : "on-dark";
      const col = x / CELL;
      const row = y / CELL;
      if (board.o.coords !== false && board.o.points) {
        // in the frame, beside the outer crossings
        const turned = board.bottom === "west" || board.bottom === "east";
        const [alongRow, alongCol] = turned ? [name.slice(1), name[0]] : [name[0], name.slice(1)];
        const edgeCoord = (attrs, text) => {
          const el = s(
            "text",
            { class: "coord edge-coord", "text-anchor": "middle", ...attrs },
            text,
          );
          el.style.fontSize = `${22 * board.scale}px`; // through the CSSOM: no inline style
          board.layerFrame.append(el);
        };
        if (row === board.rows - 1)
          edgeCoord({ x: x + CELL / 2, y: y + CELL + board.margin * 0.72 }, alongRow);
        if (col === 0) edgeCoord({ x: -board.margin / 2, y: y + CELL / 2, dy: "0.35em" }, alongCol);
      } else if (board.o.coords !== false) {
        // along the bottom row the file changes (ranks when the board is turned a quarter)
        const turned = board.bottom === "west" || board.bottom === "east";
        const [alongRow, alongCol] = turned ? [name.slice(1), name[0]] : [name[0], name.slice(1)];
        if (row === board.rows - 1) {
          g.append(
            s(
              "text",
              { class: `coord ${onLight}`, x: CELL - 6, y: CELL - 6, "text-anchor": "end" },
              alongRow,
            ),
          );
        }
        if (col === 0) {
          g.append(s("text", { class: `coord ${onLight}`, x: 5, y: 17 }, alongCol));
        }
      }
      g.addEventListener("focus", () => board.setRoving(name));
      board.layerSquares.append(g);
      board.squares.set(name, { g, f, r, x, y });
    }
  }
}
