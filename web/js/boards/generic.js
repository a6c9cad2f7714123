// Any other game: its view as a readable list and its legal moves as buttons.

import { h } from "../dom.js";

function describe(value) {
  if (value === null || value === undefined) return "—";
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

export function createGenericBoard(boardHost, infoHost, ctx) {
  const box = h("div", { class: "panel generic-view" });
  const actions = h("div", { class: "hase-actions", role: "group", "aria-label": "Your choices" });
  boardHost.append(box, actions);
  let busy = false;

  function update(u, legal) {
    busy = false;
    const rows = Object.entries(u.view || {}).flatMap(([k, v]) => [
      h("dt", {}, k),
      h("dd", {}, describe(v)),
    ]);
    box.replaceChildren(
      h("h2", {}, ctx.info.title || u.game),
      h("dl", { class: "info-grid" }, rows),
    );
    actions.replaceChildren(
      ...(legal || []).map((t) =>
        h(
          "button",
          {
            type: "button",
            class: "secondary small",
            dataset: { move: t },
            onclick: async () => {
              if (busy) return;
              busy = true;
              try {
                await ctx.send(t);
              } catch {
                busy = false;
              }
            },
          },
          t,
        ),
      ),
    );
  }

  return {
    update,
    release: () => {
      busy = false;
    },
  };
}

export function describeGenericMove(info, u, movers) {
  const names = movers.map((s) =>
    u.you === s ? "You" : (u.seats[s] && u.seats[s].name) || `Seat ${s + 1}`,
  );
  return `${names.join(" and ")} moved`;
}
