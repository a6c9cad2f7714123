// Game clocks: one per seat, counting down live for the seats whose time is running.
//
// An update's `clock` says how much time each seat had at `clock.since` (server time) and
// which seats are running; a running seat shows `left[s] - (serverNow - since)`. The
// browser's clock may be off, so "server now" is estimated by the App (see App.serverNow).
//
// Screen readers: each clock is a `timer` (not live, so it never chatters); a separate
// polite live region says only when one of *our* clocks crosses 60, 30 or 10 seconds.
//
// As on lichess, no clock runs until each side has made its first move (`clock.started`
// false); until then `clock.abort_at` says when the game is aborted if the seat to move
// makes no first move, and `notice` counts that down.

import { h } from "./dom.js";
import { playerLabel, seatName } from "./text.js";

const THRESHOLDS = [60, 30, 10];

/** "04:59", "00:09.4", "1:02:03" — time left, never negative. */
export function formatClock(seconds) {
  const v = Math.max(0, seconds);
  const tenths = Math.ceil(v * 10 - 1e-6) / 10;
  if (tenths < 10) return `00:0${tenths.toFixed(1)}`;
  const whole = Math.ceil(v - 1e-6);
  const hrs = Math.floor(whole / 3600);
  const min = Math.floor((whole % 3600) / 60);
  const sec = whole % 60;
  const pad = (n) => String(n).padStart(2, "0");
  return hrs ? `${hrs}:${pad(min)}:${pad(sec)}` : `${pad(min)}:${pad(sec)}`;
}

/** "4 minutes 59 seconds" for the accessible name of a clock. */
export function spokenTime(seconds) {
  const whole = Math.max(0, Math.ceil(seconds - 1e-6));
  const min = Math.floor(whole / 60);
  const sec = whole % 60;
  const parts = [];
  if (min) parts.push(`${min} minute${min === 1 ? "" : "s"}`);
  if (sec || !min) parts.push(`${sec} second${sec === 1 ? "" : "s"}`);
  return parts.join(" ");
}

function amount(seconds) {
  if (seconds >= 60 && seconds % 60 === 0) return `${seconds / 60} min`;
  if (seconds > 60) return `${Math.round((seconds / 60) * 100) / 100} min`;
  return `${seconds} s`;
}

/** "5 min + 2 s", "30 s per move" — what a clock setting means, in a few words. */
export function clockSummary(spec) {
  if (!spec) return "";
  if (spec.type === "per_move") return `${amount(spec.seconds)} per move`;
  if (spec.type === "fischer")
    return spec.increment
      ? `${amount(spec.base)} + ${spec.increment} s per move`
      : amount(spec.base);
  return "";
}

function startingTime(spec) {
  return spec.type === "per_move" ? spec.seconds : spec.base;
}

export class ClockView {
  /**
   * @param {object} opts
   * @param {() => number} opts.serverNow   the server's time now (Unix seconds)
   * @param {() => number[]} opts.mine      the seats this browser holds
   */
  constructor({ serverNow, mine, onLow = null }) {
    this.serverNow = serverNow;
    this.mine = mine;
    this.onLow = onLow; // called with the seat when one of ours crosses a threshold
    this.u = null;
    this.info = null;
    this.flagged = null;
    this.boxes = [];
    this.shown = [];
    this.spoken = [];
    this.previous = [];
    this.frame = null;
    this.announcer = h("p", {
      class: "visually-hidden",
      id: "clock-announce",
      "aria-live": "polite",
    });
    this.summary = h("p", { class: "clock-summary muted", id: "clock-summary", hidden: true });
    this.notice = h("p", { class: "first-move", id: "first-move", hidden: true });
  }

  destroy() {
    if (this.frame !== null) cancelAnimationFrame(this.frame);
    this.frame = null;
  }

  /** The clock element of `seat` (kept across renders, so it can tick between them). */
  el(seat) {
    if (!this.u || !this.u.clock) return null;
    if (!this.boxes[seat]) {
      this.boxes[seat] = h("span", {
        class: "clock",
        id: `clock-${seat}`,
        role: "timer",
        dataset: { seat },
      });
    }
    return this.boxes[seat];
  }

  update(u, info, flagged) {
    const turnChanged = !this.u || this.u.version !== u.version;
    this.u = u;
    this.info = info;
    this.flagged = flagged;
    const clock = u.clock;
    this.summary.hidden = !clock;
    const waits = clock && u.status === "playing" && clock.started === false;
    this.summary.textContent = clock
      ? `Clock: ${clockSummary(clock)}${waits ? " · starts after each side's first move" : ""}`
      : "";
    if (!clock) {
      this.notice.hidden = true;
      this.destroy();
      return;
    }
    if (turnChanged) this.previous = [];
    this.destroy(); // at most one pending frame
    this.tick();
  }

  running() {
    const u = this.u;
    return !!(
      u &&
      u.clock &&
      u.status === "playing" &&
      u.clock.since !== null &&
      u.clock.running.length
    );
  }

  /** Seconds left for `seat` now. */
  left(seat) {
    const c = this.u.clock;
    const base = c.left[seat];
    if (this.u.status === "over" && seat === this.flagged) return 0;
    if (!this.running() || !c.running.includes(seat)) return Math.max(0, base);
    return Math.max(0, base - (this.serverNow() - c.since));
  }

  tick() {
    this.frame = null;
    const u = this.u;
    if (!u || !u.clock) return;
    const c = u.clock;
    const low = Math.min(20, startingTime(c) * 0.25);
    const mine = new Set(this.mine());
    u.seats.forEach((_, seat) => {
      const box = this.el(seat);
      const left = this.left(seat);
      const running = this.running() && c.running.includes(seat);
      const text = formatClock(left);
      if (this.shown[seat] !== text) {
        box.textContent = text;
        this.shown[seat] = text;
      }
      const state =
        u.status === "over" && seat === this.flagged ? "out of time" : `${spokenTime(left)} left`;
      const spoken = `${seatName(this.info, seat)} clock: ${state}${running ? ", running" : ""}`;
      if (this.spoken[seat] !== spoken) {
        box.setAttribute("aria-label", spoken);
        this.spoken[seat] = spoken;
      }
      box.classList.toggle("running", running);
      box.classList.toggle("low", left <= low && u.status !== "waiting");
      box.classList.toggle("flagged", u.status === "over" && seat === this.flagged);
      if (running && mine.has(seat)) this.announce(seat, left, mine.size > 1);
      this.previous[seat] = left;
    });
    const waiting = this.firstMove(mine);
    if ((this.running() || waiting) && this.frame === null)
      this.frame = requestAnimationFrame(() => this.tick());
  }

  /** The first-move countdown (true while it runs): who must move, and in how long. */
  firstMove(mine) {
    const u = this.u;
    const due =
      u.status === "playing" && u.clock.abort_at ? u.clock.abort_at - this.serverNow() : null;
    this.notice.hidden = due === null;
    if (due === null) return false;
    const secs = Math.max(0, Math.ceil(due));
    const waited = u.to_act.filter((s) => !u.sealed.includes(s));
    const ours = waited.some((s) => mine.has(s));
    const who = waited.map((s) => playerLabel(this.info, u, s)).join(", ");
    const text = ours
      ? `Make your first move within ${secs} s, or the game is aborted`
      : `${who || "The player to move"} has ${secs} s to make a first move, or the game is aborted`;
    if (this.notice.textContent !== text) this.notice.textContent = text;
    this.notice.dataset.seconds = String(secs);
    this.notice.classList.toggle("yours", ours);
    return due > 0;
  }

  announce(seat, left, named) {
    const before = this.previous[seat];
    if (before === undefined) return;
    const crossed = THRESHOLDS.find((t) => before > t && left <= t);
    if (crossed === undefined) return;
    const whose = named ? `${seatName(this.info, seat)}: ` : "";
    this.announcer.textContent = `${whose}${crossed} seconds left on your clock`;
    if (this.onLow) this.onLow(seat, crossed);
  }
}
