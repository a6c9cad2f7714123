// The chat of a room (docs/PROTOCOL.md, "Chat"): what this connection may read (the App
// keeps it per room from `chat_history` and pushed `chat`), a line to write, and a mute
// switch per name kept in localStorage ("kibitz.muted"). Every text reaches the page as a
// text node, never as HTML.

import { h } from "./dom.js";

const MUTED_KEY = "kibitz.muted";
const MAX_TEXT = 500;

export function mutedNames() {
  try {
    const list = JSON.parse(window.localStorage.getItem(MUTED_KEY) || "[]");
    return new Set(Array.isArray(list) ? list.map(String) : []);
  } catch {
    return new Set();
  }
}

function saveMuted(names) {
  try {
    window.localStorage.setItem(MUTED_KEY, JSON.stringify([...names].sort()));
  } catch {
    /* storage disabled: muting lasts for this page only */
  }
}

const CHANNEL = { players: "players", spectators: "spectators" };

export class ChatPanel {
  constructor(app, id) {
    this.app = app;
    this.id = id;
    this.muted = mutedNames();
    this.list = h("ol", {
      class: "chat-list",
      id: "chat-list",
      "aria-label": "Chat messages",
      "aria-live": "polite",
    });
    this.empty = h("p", { class: "muted", id: "chat-empty" }, "No messages yet.");
    this.hiddenNote = h("p", { class: "muted small", id: "chat-muted-note", hidden: true });
    this.input = h("input", {
      id: "chat-input",
      type: "text",
      maxlength: MAX_TEXT,
      autocomplete: "off",
      "aria-label": "Message",
      placeholder: "Say something…",
    });
    this.channelNote = h("small", { class: "muted", id: "chat-channel" });
    const form = h(
      "form",
      { class: "chat-form", novalidate: true },
      this.input,
      h("button", { type: "submit", class: "small", id: "chat-send" }, "Send"),
    );
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      this.send();
    });
    this.el = h(
      "section",
      { class: "panel chat", id: "chat", "aria-labelledby": "chat-h" },
      h("h2", { id: "chat-h" }, "Chat"),
      this.empty,
      this.list,
      this.hiddenNote,
      form,
      this.channelNote,
    );
    this.onChat = (e) => {
      if (e.detail === this.id) this.render();
    };
    this.onStorage = (e) => {
      if (e.key === MUTED_KEY) {
        this.muted = mutedNames();
        this.render();
      }
    };
    app.addEventListener("chat", this.onChat);
    window.addEventListener("storage", this.onStorage);
    this.render();
  }

  destroy() {
    this.app.removeEventListener("chat", this.onChat);
    window.removeEventListener("storage", this.onStorage);
  }

  async send() {
    const text = this.input.value.trim();
    if (!text) return;
    try {
      await this.app.request({ type: "chat", room: this.id, text });
      this.input.value = "";
    } catch (err) {
      this.app.fail(err);
    }
  }

  toggleMute(name) {
    this.muted = mutedNames();
    if (this.muted.has(name)) this.muted.delete(name);
    else this.muted.add(name);
    saveMuted(this.muted);
    this.render();
  }

  /** Called by the room with its latest update (who we are decides our channel). */
  update(u) {
    const seated = this.app.heldSeats(this.id).length > 0;
    const playing = u && u.status !== "over";
    this.channelNote.textContent = seated
      ? "You write in the players' channel: everybody reads it."
      : playing
        ? "You write in the spectators' channel: the players do not read it until the game is over."
        : "You write in the spectators' channel.";
  }

  render() {
    const messages = this.app.chats.get(this.id) || [];
    let hidden = 0;
    const items = [];
    for (const m of messages) {
      const from = String(m.from);
      if (this.muted.has(from)) {
        hidden += 1;
        continue;
      }
      const at = typeof m.at === "number" ? new Date(m.at * 1000) : null;
      items.push(
        h(
          "li",
          {
            class: `chat-msg ${CHANNEL[m.channel] || "players"}`,
            dataset: { channel: m.channel, from },
          },
          h("span", { class: "chat-from" }, from),
          m.account === false
            ? h("span", { class: "badge-guest", title: "a guest, not an account" }, "guest")
            : null,
          h("span", { class: "tag chat-channel" }, CHANNEL[m.channel] || String(m.channel)),
          at
            ? h(
                "time",
                { class: "muted small", datetime: at.toISOString() },
                at.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" }),
              )
            : null,
          h("span", { class: "chat-text" }, String(m.text)),
          h(
            "button",
            {
              type: "button",
              class: "link small mute",
              dataset: { mute: from },
              "aria-label": `Mute ${from}`,
              onclick: () => this.toggleMute(from),
            },
            "mute",
          ),
        ),
      );
    }
    this.list.replaceChildren(...items);
    this.empty.hidden = messages.length > 0;
    const mutedHere = [...this.muted].filter((n) => messages.some((m) => String(m.from) === n));
    this.hiddenNote.hidden = !mutedHere.length;
    this.hiddenNote.replaceChildren(
      `${hidden} message${hidden === 1 ? "" : "s"} from muted names hidden. `,
      ...mutedHere.map((n) =>
        h(
          "button",
          {
            type: "button",
            class: "link small",
            dataset: { unmute: n },
            onclick: () => this.toggleMute(n),
          },
          `Unmute ${n}`,
        ),
      ),
    );
    this.list.scrollTop = this.list.scrollHeight;
  }
}
