// What survives a reload, in localStorage: the session secret, the player's name, and per
// room the last version seen, the seat tokens, and the last legal list of a sealed simultaneous
// turn. One key per room, so two tabs of the same browser do not overwrite each other's rooms.

const PREFIX = "kibitz.";
const MAX_ROOMS = 60;

let backend = window.localStorage;

/** A spectator-only tab keeps its own session in sessionStorage (see main.js). */
export function useTabStorage() {
  backend = window.sessionStorage;
}

function read(key, fallback) {
  try {
    const raw = backend.getItem(PREFIX + key);
    return raw === null ? fallback : JSON.parse(raw);
  } catch {
    return fallback;
  }
}

function write(key, value) {
  try {
    if (value === null || value === undefined) backend.removeItem(PREFIX + key);
    else backend.setItem(PREFIX + key, JSON.stringify(value));
  } catch {
    /* storage full or disabled: the client still works, it just forgets on reload */
  }
}

export const storage = {
  get session() {
    return read("session", null);
  },
  set session(v) {
    write("session", v);
  },
  get name() {
    return read("name", "");
  },
  set name(v) {
    write("name", v);
  },

  /** A preference of this browser (the quick-pairing game, board flipped, coordinates). */
  pref(key, fallback) {
    return read("pref." + key, fallback);
  },
  setPref(key, value) {
    write("pref." + key, value);
  },

  room(id) {
    return read("room." + id, {});
  },
  updateRoom(id, change) {
    const data = read("room." + id, {});
    change(data);
    data.t = Date.now();
    write("room." + id, data);
    return data;
  },
  forgetRoom(id) {
    write("room." + id, null);
  },

  /** Every room we remember, newest first (trimmed to MAX_ROOMS). */
  rooms() {
    const out = [];
    for (let i = 0; i < backend.length; i++) {
      const key = backend.key(i);
      if (key && key.startsWith(PREFIX + "room.")) {
        out.push({ id: key.slice(PREFIX.length + 5), ...read(key.slice(PREFIX.length), {}) });
      }
    }
    out.sort((a, b) => (b.t || 0) - (a.t || 0));
    for (const old of out.slice(MAX_ROOMS)) write("room." + old.id, null);
    return out.slice(0, MAX_ROOMS);
  },

  /** room -> last version seen, for hello.since */
  sinceMap() {
    const since = {};
    for (const r of this.rooms()) if (Number.isInteger(r.since)) since[r.id] = r.since;
    return since;
  },
};
