// Pieces sliding across a GridBoard: a copy of a piece moves from one square to another (a
// captured one fades out on the way) while the real piece waits hidden on its square.

import { reducedMotion, s } from "../dom.js";

/**
 * Slide pieces: each {from, to, node} moves a copy of `node` from one square to another,
 * fading out when `vanish`. The real piece on `to` is hidden until the slide ends.
 */
export function slidePieces(board, slides, ms = 380) {
  if (reducedMotion() || !slides.length) return;
  for (const sl of slides) {
    const a = board.squares.get(sl.from);
    const b = board.squares.get(sl.to);
    if (!a || !b || !sl.node) continue;
    const real = board.pieces.get(sl.to);
    if (real && real.el && !sl.vanish) real.el.classList.add("hidden-until-anim");
    const ghost = s("g", { class: "piece ghost" });
    ghost.append(sl.node);
    board.layerPieces.append(ghost);
    const frames = [
      { transform: `translate(${a.x}px, ${a.y}px)`, opacity: 1 },
      { transform: `translate(${b.x}px, ${b.y}px)`, opacity: sl.vanish ? 0.15 : 1 },
    ];
    const anim = ghost.animate(frames, { duration: ms, easing: "ease-in-out", fill: "forwards" });
    const done = () => {
      ghost.remove();
      if (real && real.el) real.el.classList.remove("hidden-until-anim");
    };
    anim.onfinish = done;
    anim.oncancel = done;
  }
}
