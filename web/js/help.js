// "How to play": a game's rules for a newcomer, from the game's own text (info.how_to_play,
// plain paragraphs), in a panel that opens and closes. The lobby shows it under the chosen
// game's description, the room beside the board.

import { h } from "./dom.js";

/** A collapsible "How to play <game>" panel (closed), or null when the game says nothing. */
export function howToPlay(info, id, { open = false } = {}) {
  const paragraphs = info && Array.isArray(info.how_to_play) ? info.how_to_play : [];
  if (!paragraphs.length) return null;
  return h(
    "details",
    { class: "how-to-play", id, open },
    h("summary", {}, `How to play ${info.title || info.name}`),
    paragraphs.map((p) => h("p", {}, p)),
  );
}
