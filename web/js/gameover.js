// A room's game over box: the result and its reason, the places of a game of more than two
// seats, and a rated game's rating changes (room.js shows it beside or under the board).

import { h } from "./dom.js";
import { outcomeText, playerLabel, reasonText, signed } from "./text.js";

/**
 * Fill `el` for the latest update (hidden while the game is not over); it takes the focus
 * when it first shows, unless something else holds it.
 * @param {HTMLElement} el
 * @param {object} u         the latest update
 * @param {object} info      the game's registry entry
 * @param {number|null} flagged  the seat whose flag fell (null: none)
 */
export function renderGameOver(el, u, info, flagged) {
  if (u.status !== "over" || !u.outcome) {
    el.hidden = true;
    return;
  }
  const wasHidden = el.hidden;
  const o = u.outcome;
  const ranking =
    o.ranks.length > 2
      ? h(
          "ol",
          {},
          o.ranks
            .map((r, seat) => ({ r, seat }))
            .sort((a, b) => a.r - b.r)
            .map(({ r, seat }) => h("li", { value: r }, playerLabel(info, u, seat))),
        )
      : null;
  const ratings = ratingChanges(u, info);
  el.replaceChildren(
    h("h2", {}, "Game over"),
    h("p", { class: "result", dataset: { reason: o.reason } }, outcomeText(info, u, flagged)),
    h("p", { class: "muted" }, `Reason: ${reasonText(o.reason)}.`),
    ...(ranking ? [ranking] : []),
    ...(ratings ? [ratings] : []),
  );
  el.hidden = false;
  if (wasHidden && document.activeElement === document.body) el.focus();
}

/** A rated game's changes, one line per seat (or why there are none yet); null: unrated. */
function ratingChanges(u, info) {
  const changes = u.rated && u.rated.changes;
  if (changes) {
    return h(
      "ul",
      { class: "rating-changes", id: "rating-changes" },
      u.seats
        .map((s, seat) => {
          const c = changes[seat];
          if (!c) return null;
          const dir = c.change > 0 ? "up" : c.change < 0 ? "down" : "same";
          return h(
            "li",
            { dataset: { seat } },
            `${playerLabel(info, u, seat)}: ` +
              `${Math.round(c.rating)} → ${Math.round(c.new_rating)} `,
            h("span", { class: `rating-diff ${dir}` }, signed(c.change)),
          );
        })
        .filter(Boolean),
    );
  }
  if (!u.rated) return null;
  const why =
    u.outcome.reason === "aborted"
      ? "Aborted: the ratings do not change."
      : "Rated game: the rating changes are on their way…";
  return h("p", { class: "muted", id: "rating-changes" }, why);
}
