// The Bot API on a profile page (docs/BOT_API.md): on your own, "API tokens" (create — the
// token is shown once —, list, revoke); on another player's, "Challenge" (the clock, rated,
// your colour), answered by the other side over the API; an accepted challenge lands you in
// the room by itself ("paired", account.js).

import { account } from "./account.js";
import { h, toast } from "./dom.js";

const SCOPES = ["bot:play", "board:play", "challenge:read", "challenge:write"];

async function call(method, path, body, type = "application/json") {
  const res = await fetch(path, {
    method,
    headers: body ? { "Content-Type": type } : {},
    body: body ? (type === "application/json" ? JSON.stringify(body) : body) : undefined,
    credentials: "same-origin",
  });
  let data = {};
  try {
    data = await res.json();
  } catch {
    /* empty */
  }
  return { status: res.status, data };
}

/** The panels the profile of `name` shows the logged-in user (none for a guest). */
export function botApiPanels(name) {
  if (!account.user) return [];
  return account.user.toLowerCase() === name.toLowerCase()
    ? [tokensPanel()]
    : [challengePanel(name)];
}

function tokensPanel() {
  const list = h("ul", { class: "api-tokens" });
  const shown = h("p", { class: "api-token-new", hidden: true });
  const description = h("input", {
    name: "token-description",
    maxlength: 60,
    placeholder: "what it is for",
    value: "my bot",
  });
  const boxes = SCOPES.map((s) =>
    h(
      "label",
      {},
      h("input", { type: "checkbox", name: "token-scope", value: s, checked: s === "bot:play" }),
      ` ${s} `,
    ),
  );
  const refresh = async () => {
    const { status, data } = await call("GET", "api/tokens");
    if (status !== 200) return;
    list.replaceChildren(
      ...data.tokens.map((t) =>
        h(
          "li",
          { dataset: { token: t.id } },
          `${t.description} — ${t.scopes.join(", ")} `,
          h(
            "button",
            {
              type: "button",
              class: "small secondary",
              dataset: { action: "revoke" },
              onclick: async () => {
                await call("POST", `api/tokens/${t.id}/revoke`);
                refresh();
              },
            },
            "Revoke",
          ),
        ),
      ),
    );
  };
  const create = async () => {
    const scopes = boxes
      .map((b) => b.querySelector("input"))
      .filter((i) => i.checked)
      .map((i) => i.value);
    const { status, data } = await call("POST", "api/tokens", {
      description: description.value,
      scopes,
    });
    if (status !== 200) {
      toast(data.error || "The token could not be made.");
      return;
    }
    shown.hidden = false;
    shown.replaceChildren(
      "Your new token (copy it now: it is not shown again): ",
      h("code", {}, data.token),
    );
    refresh();
  };
  refresh();
  return h(
    "section",
    { class: "panel", "aria-labelledby": "tokens-h" },
    h("h2", { id: "tokens-h" }, "API tokens"),
    h(
      "p",
      { class: "muted" },
      "For bots and other clients of the lichess-compatible API: give lichess-bot, berserk " +
        "or kibitz bot this server's address and a token.",
    ),
    list,
    description,
    ...boxes,
    h(
      "button",
      { type: "button", dataset: { action: "create-token" }, onclick: create },
      "Create a token",
    ),
    shown,
  );
}

function challengePanel(name) {
  const minutes = h("input", {
    name: "challenge-minutes",
    type: "number",
    min: 0,
    max: 180,
    value: 3,
  });
  const increment = h("input", {
    name: "challenge-increment",
    type: "number",
    min: 0,
    max: 180,
    value: 2,
  });
  const rated = h("input", { name: "challenge-rated", type: "checkbox", checked: true });
  const color = h(
    "select",
    { name: "challenge-color" },
    ["random", "white", "black"].map((c) => h("option", { value: c }, c)),
  );
  const send = async () => {
    const form = new URLSearchParams({
      rated: rated.checked ? "true" : "false",
      "clock.limit": String(Math.round(Number(minutes.value) * 60)),
      "clock.increment": String(Number(increment.value)),
      color: color.value,
    });
    const { status, data } = await call(
      "POST",
      `api/challenge/${encodeURIComponent(name)}`,
      form.toString(),
      "application/x-www-form-urlencoded",
    );
    toast(
      status === 200
        ? `Challenge sent to ${name}: the game opens when it is accepted.`
        : data.error || "Refused.",
    );
  };
  return h(
    "section",
    { class: "panel", "aria-labelledby": "challenge-h" },
    h("h2", { id: "challenge-h" }, `Challenge ${name}`),
    h("label", {}, "Minutes ", minutes),
    h("label", {}, " + seconds ", increment),
    h("label", {}, " ", rated, " rated"),
    h("label", {}, " your colour ", color),
    " ",
    h("button", { type: "button", dataset: { action: "challenge" }, onclick: send }, "Challenge"),
  );
}
