// What the seats agree on rather than play (docs/PROTOCOL.md, "Draws and aborts",
// "Rematch"): the draw offer and its answer, the abort before every seat has moved, the
// rematch once the game is over, claiming the game when the opponent left ("opponent_gone")
// — and, for spectators, the link to follow a rematch.
//
// offerControls() gives the buttons for the room's action bar and the boxes that ask a
// question (an open draw offer, a rematch offer); each button sends its message and the
// room's next update redraws them.

import { h } from "./dom.js";
import { playerLabel } from "./text.js";

/**
 * @param {object} ctx
 * @param {(msg: object) => Promise<object>} ctx.request   send a message (errors are toasted
 *        by the caller)
 * @param {object} ctx.u          the latest update for our seat (or the spectator view)
 * @param {object} ctx.info       the game's registry entry
 * @param {Set<number>|null} ctx.moved  seats that have made a move (null: unknown)
 * @param {string|null} ctx.followRoom  a rematch room to offer spectators
 * @param {boolean} ctx.tournament      a tournament game (no rematch)
 * @param {Map<number, number>|null} ctx.gone  seats gone -> when the game may be claimed (ms)
 * @returns {{controls: Node[], box: Node[]}}
 */
export function offerControls({ request, u, info, moved, followRoom, gone = null, tournament }) {
  const you = u.you;
  const controls = [];
  const box = [];
  const seated = you !== null && u.seats[you] && u.seats[you].kind === "person";
  const send = (type, extra = {}) => request({ type, room: u.room, seat: you, ...extra });
  const two = u.seats.length === 2;
  const other = two && you !== null ? 1 - you : null;

  if (u.status === "playing" && seated && gone && gone.has(other)) {
    const wait = Math.ceil((gone.get(other) - Date.now()) / 1000);
    if (wait > 0) {
      box.push(
        h(
          "p",
          { id: "opponent-gone" },
          `${playerLabel(info, u, other)} left the game. ` +
            `If they do not come back, you may claim the game in ${wait} s.`,
        ),
      );
    } else {
      box.push(
        h("p", { id: "opponent-gone" }, `${playerLabel(info, u, other)} left the game.`),
        h(
          "div",
          { class: "row" },
          h(
            "button",
            { type: "button", id: "claim-victory", onclick: () => send("claim_victory") },
            "Claim victory",
          ),
          h(
            "button",
            {
              type: "button",
              class: "secondary",
              id: "claim-draw",
              onclick: () => send("claim_victory", { draw: true }),
            },
            "Call it a draw",
          ),
        ),
      );
    }
  }
  if (u.status === "playing" && seated) {
    if (mayAbort(u, info, moved)) {
      controls.push(
        h(
          "button",
          { type: "button", class: "secondary", id: "abort", onclick: () => send("abort") },
          "Abort",
        ),
      );
    }
    if (two && (u.draw_offer === null || u.draw_offer === undefined)) {
      controls.push(
        h(
          "button",
          { type: "button", class: "secondary", id: "draw-offer", onclick: () => send("draw") },
          "Offer draw",
        ),
      );
    } else if (two && u.draw_offer === you) {
      box.push(h("p", { id: "draw-waiting" }, "You offered a draw — waiting for an answer."));
    } else if (two && u.draw_offer === other) {
      box.push(
        h("p", { id: "draw-offered" }, `${playerLabel(info, u, other)} offers a draw.`),
        h(
          "div",
          { class: "row" },
          h(
            "button",
            {
              type: "button",
              id: "draw-accept",
              onclick: () => send("draw_answer", { accept: true }),
            },
            "Accept",
          ),
          h(
            "button",
            {
              type: "button",
              class: "secondary",
              id: "draw-decline",
              onclick: () => send("draw_answer", { accept: false }),
            },
            "Decline",
          ),
        ),
      );
    }
  } else if (
    u.status === "playing" &&
    you === null &&
    two &&
    u.draw_offer !== null &&
    u.draw_offer !== undefined
  ) {
    box.push(h("p", {}, `${playerLabel(info, u, u.draw_offer)} offers a draw.`));
  }

  // a tournament pairs the next game itself: no rematch inside it (its rooms say so)
  const noRematch = tournament || (u.settings && u.settings.rematch === false);
  if (u.status === "over" && !noRematch) {
    const rm = u.rematch || null;
    const asked = rm ? rm.asked : [];
    if (rm && rm.new_room) {
      const label = you === null ? "Follow the rematch" : "Go to the rematch";
      box.push(
        h(
          "p",
          {},
          "A rematch has begun. ",
          h(
            "a",
            {
              class: "button small",
              href: `#room=${rm.new_room}`,
              id: you === null ? "follow-rematch" : "rematch-link",
            },
            label,
          ),
        ),
      );
    } else if (seated && asked.includes(you)) {
      box.push(
        h("p", { id: "rematch-waiting" }, "You asked for a rematch — waiting for an answer."),
        h(
          "div",
          { class: "row" },
          h(
            "button",
            {
              type: "button",
              class: "secondary",
              id: "rematch-cancel",
              onclick: () => send("rematch_decline"),
            },
            "Cancel",
          ),
        ),
      );
    } else if (seated && asked.length) {
      const who = asked.map((s) => playerLabel(info, u, s)).join(" and ");
      const text = two
        ? "Opponent offers a rematch"
        : `${who} ask${asked.length === 1 ? "s" : ""} for a rematch`;
      box.push(
        h("p", { id: "rematch-offered", title: who }, text),
        h(
          "div",
          { class: "row" },
          h(
            "button",
            { type: "button", id: "rematch-accept", onclick: () => send("rematch") },
            "Accept",
          ),
          h(
            "button",
            {
              type: "button",
              class: "secondary",
              id: "rematch-decline",
              onclick: () => send("rematch_decline"),
            },
            "Decline",
          ),
        ),
      );
    } else if (seated) {
      controls.push(
        h("button", { type: "button", id: "rematch", onclick: () => send("rematch") }, "Rematch"),
      );
    } else if (asked.length) {
      box.push(
        h(
          "p",
          {},
          `${asked.map((s) => playerLabel(info, u, s)).join(" and ")} asked for a rematch.`,
        ),
      );
    }
    if (!(rm && rm.new_room) && you === null && followRoom) {
      box.push(
        h(
          "p",
          {},
          "A rematch has begun. ",
          h(
            "a",
            { class: "button small", href: `#room=${followRoom}`, id: "follow-rematch" },
            "Follow the rematch",
          ),
        ),
      );
    }
  }
  return { controls, box };
}

/**
 * Abort is allowed before every seat has made its first move. `moved` (from the record)
 * says exactly who moved; without it: in a simultaneous game nobody has before the first
 * turn; with two seats taking turns, both have after two turns.
 */
export function mayAbort(u, info, moved) {
  if (u.status !== "playing") return false;
  if (moved) return moved.size < u.seats.length;
  if (info.simultaneous) return u.turn === 0;
  return u.turn < u.seats.length;
}

/** Has `seat` made a move yet (so it has one to take back)? */
export function hasMoved(u, seat, moved) {
  if (moved) return moved.has(seat);
  if (u.turn === 0) return false;
  if (u.turn >= u.seats.length) return true;
  // fewer turns than seats, seats taking turns: the seats still to act have not moved
  return u.seats.length === 2 ? !u.to_act.includes(seat) : u.turn > seat;
}
