// Sounds at the board: short tones made with WebAudio (no sound files). A move, a capture,
// a check, low time on our clock, the end of a game. The mute switch is kept in
// localStorage ("kibitz.sound": "off"), for every tab of this browser.
//
// Browsers start audio only after the person has touched the page, so the AudioContext is
// made on the first pointer or key press; sounds before that are skipped (but counted in
// `played`, which tests read through window.kibitz.sounds()).

const KEY = "kibitz.sound";

// name -> [[frequency Hz, start s, length s, type], ...]
const TONES = {
  move: [[520, 0, 0.07, "triangle"]],
  capture: [
    [330, 0, 0.06, "square"],
    [220, 0.06, 0.09, "square"],
  ],
  check: [
    [880, 0, 0.08, "sawtooth"],
    [880, 0.12, 0.08, "sawtooth"],
  ],
  low_time: [
    [1040, 0, 0.05, "sine"],
    [1040, 0.1, 0.05, "sine"],
    [1040, 0.2, 0.05, "sine"],
  ],
  game_end: [
    [523, 0, 0.15, "triangle"],
    [659, 0.15, 0.15, "triangle"],
    [784, 0.3, 0.3, "triangle"],
  ],
};

class Sounds extends EventTarget {
  constructor() {
    super();
    this.ctx = null;
    this.played = []; // names played (the last 50), for tests and curious people
    const wake = () => this.wake();
    window.addEventListener("pointerdown", wake, { capture: true });
    window.addEventListener("keydown", wake, { capture: true });
    window.addEventListener("storage", (e) => {
      if (e.key === KEY) this.dispatchEvent(new CustomEvent("change"));
    });
  }

  get muted() {
    try {
      return window.localStorage.getItem(KEY) === "off";
    } catch {
      return false;
    }
  }

  set muted(value) {
    try {
      if (value) window.localStorage.setItem(KEY, "off");
      else window.localStorage.removeItem(KEY);
    } catch {
      /* storage disabled: the switch lasts for this page only */
    }
    this.dispatchEvent(new CustomEvent("change"));
  }

  wake() {
    if (this.ctx || this.muted) return;
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return;
    try {
      this.ctx = new Ctx();
    } catch {
      this.ctx = null;
    }
  }

  play(name) {
    if (this.muted || !TONES[name]) return;
    this.played.push(name);
    if (this.played.length > 50) this.played.shift();
    const ctx = this.ctx;
    if (!ctx || ctx.state !== "running") return;
    const now = ctx.currentTime;
    for (const [freq, start, length, type] of TONES[name]) {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.type = type;
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, now + start);
      gain.gain.exponentialRampToValueAtTime(0.15, now + start + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + start + length);
      osc.connect(gain).connect(ctx.destination);
      osc.start(now + start);
      osc.stop(now + start + length + 0.02);
    }
  }
}

export const sounds = new Sounds();

/**
 * The sound for the change from `prev` to `u` (two updates of one room for one recipient),
 * or null: the end of the game, else check, else a capture, else a move.
 */
export function soundFor(prev, u) {
  if (!prev || !u || u.version <= prev.version) return null;
  if (u.status === "over" && prev.status !== "over") return "game_end";
  const moved = (u.events || []).some((e) => e.kind === "move");
  if (!moved) return null;
  const v = u.view || {};
  if (v.check === true) return "check";
  if (typeof v.last_san === "string" && v.last_san.includes("x")) return "capture";
  if (pieceCount(u) < pieceCount(prev)) return "capture";
  return "move";
}

/** Pieces on a board held as a FEN without fog (chess); else NaN. */
function pieceCount(u) {
  const v = (u && u.view) || {};
  if (typeof v.fen === "string" && v.fen.includes("?")) return NaN; // the fog hides captures
  if (typeof v.fen === "string") return (v.fen.split(" ")[0].match(/[a-zA-Z]/g) || []).length;
  return NaN;
}
