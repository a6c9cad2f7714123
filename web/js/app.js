// The client's state: the connection, the game registry, what we hold and what we heard.
//
// Views (lobby, room) read from here and listen to its events:
//   "ready"   a session is up (after every (re)connect), games are known
//   "update"  an update for a room arrived (detail: the update)
//   "held"    the seats we hold changed
//   "chat"    the chat of a room changed (detail: the room id)
//   "rematch" a rematch of a room began (detail: {room, new_room, seat?, token?})
//   "gone"    a seated player left or came back, or the countdown to claim passed (detail: {room})

import { describeMove } from "./boards/index.js";
import { toast } from "./dom.js";
import { Connection } from "./net.js";
import { storage } from "./storage.js";
import { eventText } from "./text.js";

const LOG_LIMIT = 80;

export class App extends EventTarget {
  constructor({ spectatorOnly = false } = {}) {
    super();
    this.spectatorOnly = spectatorOnly;
    this.games = [];
    this.gameInfo = new Map();
    this.rooms = new Map(); // room id -> {updates: Map(key -> update), log: [{version, text}]}
    this.held = new Map(); // room id -> Set of seats this session holds
    this.watching = new Set();
    this.chats = new Map(); // room id -> chat messages we may read, oldest first
    this.rematches = new Map(); // old room id -> new room id (a rematch began)
    this.rematched = new Set(); // "new_room/seat" handled already
    this.gone = new Map(); // room id -> Map(seat -> when the game may be claimed, ms): players gone
    this.ready = false;
    // The server's clock, as seen from ours (seconds; see serverNow)
    this.wallOffset = Date.now() / 1000 - performance.now() / 1000;
    this.lowerOffset = -Infinity;
    this.liveOffset = null;
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    this.conn = new Connection({
      url: `${scheme}://${location.host}/ws`,
      hello: () => this.helloFields(),
    });
    this.conn.addEventListener("welcome", (e) => this.onWelcome(e.detail));
    this.conn.addEventListener("update", (e) => this.onUpdate(e.detail));
    this.conn.addEventListener("push", (e) => this.onPush(e.detail));
    this.conn.addEventListener("status", (e) => {
      if (e.detail !== "online") this.ready = false;
      this.dispatchEvent(new CustomEvent("status", { detail: e.detail }));
    });
    this.conn.addEventListener("session-refused", () => {
      storage.session = null;
    });
  }

  start() {
    this.conn.start();
  }

  helloFields() {
    const fields = {};
    const session = storage.session;
    if (session) fields.session = session;
    const since = storage.sinceMap();
    if (Object.keys(since).length) fields.since = since;
    return fields;
  }

  async onWelcome(w) {
    storage.session = w.session;
    this.held.clear();
    this.watching.clear();
    for (const r of w.rooms) {
      if (r.seats.length) this.held.set(r.room, new Set(r.seats));
      else this.watching.add(r.room);
    }
    try {
      const reply = await this.conn.request({ type: "list_games" });
      this.setGames(reply.games);
    } catch (err) {
      if (err.code === "disconnected" || err.code === "offline") return; // the next welcome retries
      try {
        // the same registry over plain HTTP (without the bot list)
        const res = await fetch("api/games", { headers: { Accept: "application/json" } });
        this.setGames(await res.json());
      } catch {
        this.setGames([]);
      }
    }
    this.gone.clear(); // told again on joining (opponent_gone)
    if (!w.resumed && !this.spectatorOnly) await this.rejoinWithTokens();
    this.ready = true;
    this.dispatchEvent(new CustomEvent("held"));
    this.dispatchEvent(new CustomEvent("ready"));
  }

  setGames(games) {
    this.games = Array.isArray(games) ? games : [];
    this.gameInfo = new Map(this.games.map((g) => [g.name, g]));
  }

  /** The session was not resumed (expired): reclaim our seats with their tokens. */
  async rejoinWithTokens() {
    const current = currentRoomId();
    for (const r of storage.rooms()) {
      if (!r.tokens || (r.status === "over" && r.id !== current)) continue;
      for (const [seat, token] of Object.entries(r.tokens)) {
        try {
          await this.conn.request({
            type: "join",
            room: r.id,
            seat: Number(seat),
            token,
            since: r.since,
          });
          this.addHeld(r.id, Number(seat));
        } catch (err) {
          if (err.code === "no_such_room" || err.code === "bad_token") {
            storage.updateRoom(r.id, (d) => {
              delete d.tokens;
            });
          }
        }
      }
    }
  }

  info(game) {
    return (
      this.gameInfo.get(game) || {
        name: game,
        title: game,
        seat_names: [],
        hidden_information: false,
        simultaneous: false,
        options: {},
      }
    );
  }

  room(id) {
    let r = this.rooms.get(id);
    if (!r) {
      // views: turn -> the update we were sent at that turn (the replay of what we saw)
      r = { updates: new Map(), log: readLog(id), version: null, flagged: null, views: new Map() };
      this.rooms.set(id, r);
    }
    return r;
  }

  heldSeats(id) {
    return [...(this.held.get(id) || [])].sort((a, b) => a - b);
  }

  addHeld(id, seat) {
    if (!this.held.has(id)) this.held.set(id, new Set());
    this.held.get(id).add(seat);
    this.dispatchEvent(new CustomEvent("held"));
  }

  /** The seat whose eyes the room is shown through: the one that must act, else the first. */
  perspective(id) {
    const seats = this.heldSeats(id);
    if (!seats.length) return null;
    const r = this.room(id);
    for (const seat of seats) {
      const u = r.updates.get(String(seat));
      if (u && u.status === "playing" && u.to_act.includes(seat) && !u.your_move) return seat;
    }
    return seats[0];
  }

  /** The latest update for the perspective seat (or the spectator view). */
  latest(id) {
    const r = this.rooms.get(id);
    if (!r) return null;
    const p = this.perspective(id);
    return r.updates.get(p === null ? "spectator" : String(p)) || null;
  }

  onUpdate(u) {
    const received = performance.now() / 1000;
    const r = this.room(u.room);
    const key = u.you === null ? "spectator" : String(u.you);
    const prev = r.updates.get(key);
    if (prev && u.version < prev.version) return;
    // pushed right after its event (not a resync of older news): its `at` is "now"
    const live =
      !!u.events &&
      u.events.length > 0 &&
      r.version !== null &&
      (u.version === r.version + 1 || u.version === r.version);
    r.version = Math.max(r.version || 0, u.version);
    if (typeof u.at === "number") this.observeServerTime(u.at, received, live);
    r.updates.set(key, u);
    if (u.events) {
      for (const ev of u.events) {
        if (ev.kind === "timeout") r.flagged = ev.seat;
        if (ev.kind === "rematch") this.onRematch({ room: u.room, ...ev });
      }
    }
    if (u.you !== null && !this.held.has(u.room)) this.addHeld(u.room, u.you);
    const logKey = this.heldSeats(u.room).length ? String(this.heldSeats(u.room)[0]) : "spectator";
    if (key === logKey && u.events) this.log(u, r);
    if (key === logKey && u.status !== "waiting") {
      for (const t of r.views.keys()) if (t > u.turn) r.views.delete(t); // taken back
      r.views.set(u.turn, u);
    }
    const info = this.info(u.game);
    storage.updateRoom(u.room, (d) => {
      d.since = Math.max(d.since || 0, u.version);
      d.game = u.game;
      d.status = u.status;
      if (info.simultaneous && u.legal && u.you !== null)
        d.legal = { turn: u.turn, seat: u.you, moves: u.legal };
    });
    this.dispatchEvent(new CustomEvent("update", { detail: u }));
  }

  log(u, r) {
    u = plainView(u);
    const info = this.info(u.game);
    const moves = u.events.filter((e) => e.kind === "move");
    const lastMove = moves[moves.length - 1];
    for (const ev of u.events) {
      let text;
      if (ev.kind === "move") {
        text = ev === lastMove ? describeMove(info, u, ev.seats) : null;
        if (!text || (Array.isArray(text) && !text.length))
          text = `${ev.seats.map((s) => movedName(u, s)).join(" and ")} moved`;
      } else {
        text = eventText(info, u, ev);
      }
      // a move may say several things (one line per runner in a race)
      for (const line of Array.isArray(text) ? text : [text]) {
        if (line) r.log.unshift({ version: u.version, text: line });
      }
    }
    r.log.length = Math.min(r.log.length, LOG_LIMIT);
    writeLog(u.room, r.log);
  }

  /** Pushed messages that are not updates: chat, chat history, rematch. */
  onPush(msg) {
    if (msg.type === "chat" && typeof msg.room === "string") {
      const list = this.chats.get(msg.room) || [];
      list.push(msg);
      if (list.length > 100) list.shift();
      this.chats.set(msg.room, list);
      this.dispatchEvent(new CustomEvent("chat", { detail: msg.room }));
    } else if (msg.type === "chat_history" && Array.isArray(msg.messages)) {
      this.chats.set(msg.room, msg.messages.slice());
      this.dispatchEvent(new CustomEvent("chat", { detail: msg.room }));
    } else if (msg.type === "rematch" && msg.new_room) {
      this.onRematch(msg);
    } else if (
      msg.type === "opponent_gone" &&
      typeof msg.room === "string" &&
      Number.isInteger(msg.seat)
    ) {
      this.onGone(msg);
    }
  }

  /** A seated player left (`gone`, claimable in `claim_in` s) or came back. */
  onGone(msg) {
    const seats = this.gone.get(msg.room) || new Map();
    this.gone.set(msg.room, seats);
    const tell = () => this.dispatchEvent(new CustomEvent("gone", { detail: { room: msg.room } }));
    if (!msg.gone) {
      seats.delete(msg.seat);
    } else {
      const at = Date.now() + Math.max(0, Number(msg.claim_in) || 0) * 1000;
      seats.set(msg.seat, at);
      const tick = () => {
        // the countdown, told every second while it runs
        if (seats.get(msg.seat) !== at) return;
        tell();
        if (Date.now() < at) setTimeout(tick, Math.min(1000, at - Date.now() + 50));
      };
      if (Date.now() < at) setTimeout(tick, Math.min(1000, at - Date.now() + 50));
    }
    tell();
  }

  /**
   * A rematch of `room` began in `new_room`. A seat of ours comes with its seat and token
   * there: keep the token as a `seated` one, join with it and, when the old room is on
   * screen, go to the new one. Spectators are only told (the room offers a link).
   */
  async onRematch(m) {
    const key = `${m.new_room}/${m.seat}`;
    if (this.rematched.has(key)) return;
    this.rematched.add(key);
    this.rematches.set(m.room, m.new_room);
    const seated = m.token && Number.isInteger(m.seat) && !this.spectatorOnly;
    if (seated) {
      const game = storage.room(m.room).game;
      storage.updateRoom(m.new_room, (d) => {
        d.tokens = { ...(d.tokens || {}), [m.seat]: m.token };
        if (game) d.game = game;
      });
      try {
        await this.conn.request({ type: "join", room: m.new_room, seat: m.seat, token: m.token });
        this.watching.delete(m.new_room);
        this.addHeld(m.new_room, m.seat);
      } catch (err) {
        this.fail(err);
      }
    }
    this.dispatchEvent(new CustomEvent("rematch", { detail: m }));
    if (seated && currentRoomId() === m.room) location.hash = `#room=${m.new_room}`;
  }

  /** The legal moves to offer: the update's, or (after sealing) the sealed turn's. */
  legalFor(u) {
    if (!u || u.you === null || u.status !== "playing") return [];
    if (u.legal) return u.legal;
    if (u.your_move) {
      const cached = storage.room(u.room).legal;
      if (cached && cached.turn === u.turn && cached.seat === u.you) return cached.moves;
    }
    return [];
  }

  /** Take-backs allowed in this room? Every update carries the room's settings. */
  undoAllowed(u) {
    return !!(u && u.settings && u.settings.undo === true);
  }

  /**
   * An update about an event at server time `at` arrived at `received` (our monotonic
   * seconds). The server's clock was then at least `at` (it sends after the event), so
   * `at - received` is a lower bound of the offset from our monotonic clock to the server's;
   * for an update pushed live it is the offset itself, less the network delay — the largest
   * such sample is the best. Until a live one arrives we trust the browser's wall clock, as
   * far as no sample contradicts it.
   */
  observeServerTime(at, received, live) {
    const sample = at - received;
    this.lowerOffset = Math.max(this.lowerOffset, sample);
    if (live)
      this.liveOffset = this.liveOffset === null ? sample : Math.max(this.liveOffset, sample);
  }

  /** The server's time now (Unix seconds), corrected for a browser clock that is off. */
  serverNow() {
    const base = this.liveOffset === null ? this.wallOffset : this.liveOffset;
    return performance.now() / 1000 + Math.max(base, this.lowerOffset);
  }

  /** The seat whose flag fell in a room over by timeout, when we know it. */
  flaggedSeat(id) {
    const r = this.rooms.get(id);
    if (r && r.flagged !== null && r.flagged !== undefined) return r.flagged;
    const u = this.latest(id);
    const o = u && u.outcome;
    if (
      o &&
      o.reason === "timeout" &&
      o.ranks.length === 2 &&
      o.winner !== null &&
      o.winner !== undefined
    )
      return 1 - o.winner;
    return null;
  }

  request(msg) {
    return this.conn.request(msg);
  }

  /** Start hearing a room (seat, token, or as a spectator). */
  async listen(id) {
    if (!this.ready) return;
    const known = this.rooms.get(id);
    const since = storage.room(id).since;
    if (this.held.has(id)) {
      if (!known || !known.updates.size)
        await this.request({ type: "resync", room: id, since: null }).catch(() => {});
      return;
    }
    if (this.watching.has(id) && known && known.updates.size) return; // the resume pushed it
    const tokens = storage.room(id).tokens;
    if (tokens && !this.spectatorOnly) {
      for (const [seat, token] of Object.entries(tokens)) {
        try {
          await this.request({ type: "join", room: id, seat: Number(seat), token, since });
          this.addHeld(id, Number(seat));
        } catch {
          /* fall back to watching */
        }
      }
      if (this.held.has(id)) return;
    }
    try {
      await this.request({
        type: "watch",
        room: id,
        since: known && known.updates.size ? since : undefined,
      });
      this.watching.add(id);
    } catch (err) {
      this.fail(err);
      if (err.code === "no_such_room") {
        storage.forgetRoom(id);
        this.dispatchEvent(new CustomEvent("missing", { detail: id }));
      }
    }
  }

  /** Stop hearing a room we only watch. */
  unwatch(id) {
    if (this.held.has(id) || !this.watching.has(id)) return;
    this.watching.delete(id);
    this.request({ type: "leave", room: id }).catch(() => {});
  }

  async takeSeat(id, seat, name) {
    const reply = await this.request({ type: "take_seat", room: id, seat, name });
    this.heldSeat(id, reply);
    return reply;
  }

  // a seat the server gave us (`seated`, or `room_created` with `sit`): keep its token
  heldSeat(id, reply) {
    storage.updateRoom(id, (d) => {
      d.tokens = { ...(d.tokens || {}), [reply.seat]: reply.token };
    });
    this.watching.delete(id);
    this.addHeld(id, reply.seat);
  }

  fail(err) {
    toast(err && err.message ? err.message : String(err));
  }
}

/** Who made a move, in the room's log: "You", the seat's name, or "Seat N". */
function movedName(u, s) {
  return u.you === s ? "You" : (u.seats[s] && u.seats[s].name) || `Seat ${s + 1}`;
}

// The log of a room survives a reload of the tab (sessionStorage): the server resends only
// what we missed, so what we already heard is kept here.
function readLog(id) {
  try {
    const log = JSON.parse(sessionStorage.getItem(`kibitz.log.${id}`) || "[]");
    return Array.isArray(log) ? log : [];
  } catch {
    return [];
  }
}

function writeLog(id, log) {
  try {
    sessionStorage.setItem(`kibitz.log.${id}`, JSON.stringify(log));
  } catch {
    /* storage full: the log just starts over after a reload */
  }
}

/**
 * An update whose view a board can draw. A spectator of a room with a spectator delay gets
 * the view wrapped ({delayed, turn, public} or {delayed, turn, seats: [every seat's view]}):
 * the public view, else the first seat's, stands in for it.
 */
export function plainView(u) {
  const v = u && u.view;
  if (!v || v.delayed === undefined || (v.public === undefined && !Array.isArray(v.seats)))
    return u;
  return { ...u, view: v.public !== undefined ? v.public : v.seats[0], delayed: v.delayed };
}

export function currentRoomId() {
  const m = /^#room=([A-Za-z0-9_-]{1,64})/.exec(location.hash);
  return m ? m[1] : null;
}
