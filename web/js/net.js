// The connection to the server: one WebSocket speaking JSON frames (docs/PROTOCOL.md).
//
// * request(msg) sends a message with a fresh id and resolves with the reply that echoes it
//   (or rejects with {code, message} on an `error`);
// * every `update` is dispatched as an "update" event; the `welcome` as "welcome"; protocol 2:
//   a `delta` is applied to the room's state held per recipient and dispatched as the
//   `update` it stands for (a delta that does not follow the state held: resync);
// * when the socket closes (server restart, network loss, a dead peer found by our own
//   ping), it reconnects with exponential backoff and says hello again with the session
//   secret and the last version seen per room, so the server resumes the session exactly.

const PROTOCOL = 2;

export class RequestError extends Error {
  constructor(code, message) {
    super(message || code);
    this.code = code;
  }
}

export class Connection extends EventTarget {
  /**
   * @param {object} opts
   * @param {string} opts.url              ws:// URL of /ws
   * @param {() => object} opts.hello      the fields of the next hello (session, since)
   */
  constructor({ url, hello }) {
    super();
    this.url = url;
    this.helloFields = hello;
    this.ws = null;
    this.state = "idle"; // idle | connecting | online | offline
    this.nextId = 1;
    this.pending = new Map();
    this.attempt = 0;
    this.retryTimer = null;
    this.pingTimer = null;
    this.pongDeadline = null;
    this.lastHeard = 0;
    this.stopped = false;
    this.rooms = new Map(); // "room/you" -> the room as that recipient holds it
    this.deltas = 0; // deltas applied (tests look)
    this.gaps = 0; // deltas dropped for a gap, each followed by a resync
    window.addEventListener("online", () => this.reconnectNow());
  }

  start() {
    this.stopped = false;
    this.open();
  }

  /** Close for good (tests, page unload). */
  stop() {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    this.clearPing();
    if (this.ws) this.ws.close(1000, "bye");
  }

  setState(state) {
    if (this.state === state) return;
    this.state = state;
    this.dispatchEvent(new CustomEvent("status", { detail: state }));
  }

  open() {
    clearTimeout(this.retryTimer);
    this.setState("connecting");
    let ws;
    try {
      ws = new WebSocket(this.url);
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.ws = ws;
    ws.addEventListener("open", () => this.onOpen(ws));
    ws.addEventListener("message", (ev) => this.onMessage(ws, ev));
    ws.addEventListener("close", () => this.onClose(ws));
    ws.addEventListener("error", () => {
      /* a close event follows */
    });
  }

  async onOpen(ws) {
    if (ws !== this.ws) return;
    try {
      const welcome = await this.send(
        { type: "hello", protocol: PROTOCOL, ...this.helloFields() },
        ws,
      );
      this.attempt = 0;
      this.setState("online");
      this.startPing(ws);
      this.dispatchEvent(new CustomEvent("welcome", { detail: welcome }));
    } catch (err) {
      if (err && err.code === "bad_request") {
        // a session secret the server will not take: start afresh
        this.dispatchEvent(new CustomEvent("session-refused"));
      }
      ws.close();
    }
  }

  onMessage(ws, ev) {
    if (ws !== this.ws || typeof ev.data !== "string") return;
    let msg;
    try {
      msg = JSON.parse(ev.data);
    } catch {
      return;
    }
    this.pongDeadline = null;
    this.lastHeard = Date.now();
    if (msg.id !== undefined && this.pending.has(msg.id)) {
      const { resolve, reject, timer } = this.pending.get(msg.id);
      this.pending.delete(msg.id);
      clearTimeout(timer);
      if (msg.type === "error") reject(new RequestError(msg.code, msg.message));
      else resolve(msg);
      return;
    }
    if (msg.type === "update") {
      this.hold(msg);
      this.dispatchEvent(new CustomEvent("update", { detail: msg }));
    } else if (msg.type === "delta") {
      const update = this.patch(msg);
      if (update) this.dispatchEvent(new CustomEvent("update", { detail: update }));
    } else if (msg.type === "error")
      this.dispatchEvent(new CustomEvent("server-error", { detail: msg }));
    // accounts: paired, seeks, ...
    else this.dispatchEvent(new CustomEvent("push", { detail: msg }));
  }

  /** Keep a full update as the state its recipient holds (the base of its next delta). */
  hold(update) {
    const key = `${update.room}/${update.you}`;
    const held = this.rooms.get(key);
    if (held && held.version > update.version) return;
    const { type, events, id, ...state } = update;
    this.rooms.set(key, state);
  }

  /** The update a delta makes of the state held, or null (stale, or a gap: resync). */
  patch(delta) {
    const key = `${delta.room}/${delta.you}`;
    const held = this.rooms.get(key);
    if (held && held.version === delta.base) {
      const state = applyDelta(held, delta.set || [], delta.del || []);
      this.rooms.set(key, state);
      this.deltas += 1;
      return { type: "update", events: delta.events, ...state };
    }
    if (held && held.version >= delta.version) return null;
    this.gaps += 1;
    this.request({
      type: "resync",
      room: delta.room,
      since: held ? held.version : undefined,
    }).catch(() => {});
    return null;
  }

  onClose(ws) {
    if (ws !== this.ws) return;
    this.ws = null;
    this.clearPing();
    for (const { reject, timer } of this.pending.values()) {
      clearTimeout(timer);
      reject(new RequestError("disconnected", "the connection was lost"));
    }
    this.pending.clear();
    if (this.stopped) {
      this.setState("idle");
      return;
    }
    this.setState("offline");
    this.scheduleReconnect();
  }

  scheduleReconnect() {
    if (this.stopped) return;
    clearTimeout(this.retryTimer);
    const base = Math.min(10000, 250 * 2 ** this.attempt);
    const delay = base * (0.75 + Math.random() * 0.5);
    this.attempt = Math.min(this.attempt + 1, 10);
    this.retryTimer = setTimeout(() => this.open(), delay);
  }

  reconnectNow() {
    if (this.stopped || this.state === "online" || this.state === "connecting") return;
    this.attempt = 0;
    this.open();
  }

  // Our own keep-alive: the browser answers the server's pings, but only we can notice a
  // silently dead network. Ping every 25 s; no frame for 10 s after it means reconnect.
  startPing(ws) {
    this.clearPing();
    this.lastHeard = Date.now();
    this.pingTimer = setInterval(() => {
      if (ws !== this.ws) return;
      if (this.pongDeadline !== null && Date.now() > this.pongDeadline) {
        ws.close();
        this.onClose(ws);
        return;
      }
      if (this.pongDeadline === null && Date.now() - this.lastHeard > 25000) {
        this.pongDeadline = Date.now() + 10000;
        this.send({ type: "ping" }, ws).catch(() => {});
      }
    }, 5000);
  }

  clearPing() {
    clearInterval(this.pingTimer);
    this.pingTimer = null;
    this.pongDeadline = null;
  }

  get online() {
    return this.state === "online";
  }

  /** Send a request once the session is up; resolves with the reply. */
  request(msg, { timeout = 15000 } = {}) {
    if (!this.online) {
      return Promise.reject(new RequestError("offline", "not connected — reconnecting…"));
    }
    return this.send(msg, this.ws, timeout);
  }

  send(msg, ws, timeout = 15000) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new RequestError("timeout", "the server did not answer"));
      }, timeout);
      this.pending.set(id, { resolve, reject, timer });
      try {
        ws.send(JSON.stringify({ ...msg, id }));
      } catch {
        clearTimeout(timer);
        this.pending.delete(id);
        reject(new RequestError("disconnected", "the connection was lost"));
      }
    });
  }
}

/**
 * ``state`` with a delta applied (docs/PROTOCOL.md, `delta`): delete every `del` path, then
 * set every `set` pair. Containers on the changed paths are copied, so updates handed out
 * earlier never change under their readers.
 */
export function applyDelta(state, sets, dels) {
  let out = { ...state };
  const parentOf = (path) => {
    let node = out;
    for (const step of path.slice(0, -1)) {
      const child = node[step];
      node[step] = Array.isArray(child) ? [...child] : { ...child };
      node = node[step];
    }
    return node;
  };
  for (const path of dels) {
    const parent = parentOf(path);
    if (Array.isArray(parent)) parent.splice(path[path.length - 1], 1);
    else delete parent[path[path.length - 1]];
  }
  for (const [path, value] of sets) {
    if (path.length === 0) {
      out = { ...value };
      continue;
    }
    parentOf(path)[path[path.length - 1]] = value;
  }
  return out;
}
