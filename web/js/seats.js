// A room's seats: one line per seat (its chip, name, rating and its change, tags, clock, the
// "Sit here" button) and the chip of a seat's colour, which the board's clocks show too.

import { h } from "./dom.js";
import { PROVISIONAL, ratingText, seatName, signed } from "./text.js";

/** The chip of a seat: the colour of its seat on a described board, else a class. */
function seatChip(u, info, seat) {
  const grid = u.view && u.view.grid;
  if (grid && grid.seats && grid.seats[seat])
    return { cls: "chip", colour: grid.seats[seat].colour };
  return { cls: `chip c${seat % 6}` };
}

export function chipFor(u, info, seat) {
  const { cls, colour } = seatChip(u, info, seat);
  const chip = h("span", { class: cls, "aria-hidden": "true" });
  if (colour) chip.style.backgroundColor = colour; // CSSOM: no inline style attribute (CSP)
  return chip;
}

/**
 * The seats' list items.
 * @param {object} u        the latest update
 * @param {object} info     the game's registry entry
 * @param {object} ctx
 * @param {Set<number>} ctx.held        the seats this tab holds
 * @param {number|null} ctx.flagged     the seat whose flag fell
 * @param {boolean} ctx.spectatorOnly   this tab only watches
 * @param {(seat: number) => HTMLElement|null} ctx.clockEl  a seat's clock (null: by the board)
 * @param {(seat: number) => void} ctx.take  take an open seat
 */
export function seatItems(u, info, { held, flagged, spectatorOnly, clockEl, take }) {
  return u.seats.map((s, seat) => {
    const acting = u.status === "playing" && u.to_act.includes(seat);
    const tags = [];
    if (held.has(seat)) tags.push("you");
    if (s.kind === "bot") tags.push("bot");
    if (u.sealed.includes(seat)) tags.push("has moved");
    else if (acting) tags.push(info.simultaneous && u.to_act.length > 1 ? "choosing" : "to move");
    if (u.outcome && seat === flagged) tags.push("out of time");
    if (u.outcome) tags.push(resultTag(u.outcome, seat));
    const right = [];
    const clock = clockEl(seat);
    if (clock) right.push(clock);
    if (s.kind === "empty" && !held.size && !spectatorOnly && u.status === "waiting") {
      right.push(
        h(
          "button",
          {
            type: "button",
            class: "small",
            dataset: { takeSeat: seat },
            onclick: () => take(seat),
          },
          `Sit here`,
        ),
      );
    }
    return h(
      "li",
      {
        class: `seat${acting ? " acting" : ""}${held.has(seat) ? " me" : ""}`,
        dataset: { seat },
      },
      chipFor(u, info, seat),
      h(
        "span",
        {},
        s.kind === "empty" ? `${seatName(info, seat)}: open seat` : `${s.name} `,
        ...ratingParts(u, seat),
        s.account === false
          ? h("span", { class: "badge-guest", title: "a guest, not an account" }, "guest")
          : null,
        s.kind === "empty"
          ? null
          : h(
              "span",
              { class: "tag" },
              `${seatName(info, seat)}${tags.length ? ` · ${tags.join(" · ")}` : ""}`,
            ),
      ),
      h("span", { class: "seat-right" }, right),
    );
  });
}

/** A seat's rating as its own field beside the name ("1500?"), and once a rated game
 * has ended its change and the rating after ("+8", "→ 1508"). */
function ratingParts(u, seat) {
  const s = u.seats[seat];
  if (!s || s.rating === undefined || s.rating === null) return [];
  const parts = [
    h(
      "span",
      {
        class: "rating",
        dataset: { rating: s.rating },
        title: s.provisional ? PROVISIONAL : null,
      },
      ratingText(s),
    ),
  ];
  const change = u.rated && u.rated.changes && u.rated.changes[seat];
  if (change) {
    const dir = change.change > 0 ? "up" : change.change < 0 ? "down" : "same";
    parts.push(
      " ",
      h(
        "span",
        { class: `rating-diff ${dir}`, dataset: { change: Math.round(change.change) } },
        signed(change.change),
      ),
      " ",
      h("span", { class: "new-rating muted" }, `→ ${Math.round(change.new_rating)}`),
    );
  }
  parts.push(" ");
  return parts;
}

/** A seat's result: won / lost / drew in a two-seat game, else its place. */
function resultTag(o, seat) {
  const rank = o.ranks[seat];
  if (o.reason === "aborted") return "aborted";
  if (o.ranks.length === 2) {
    if (o.ranks[0] === o.ranks[1]) return "drew";
    return rank === 1 ? "won" : "lost";
  }
  if (rank === 1) return o.winner === null || o.winner === undefined ? "shared first" : "winner";
  return `place ${rank}`;
}
