// The board sized to the window (lichess's layout): the whole board and the clock below it
// on screen at scroll 0, at any window size. On a wide screen the status, banners and the
// end of the game stand beside the board (kibitz.css: .room's grid areas), so the board
// takes the height under the room's head; on a phone they stand above it and the board
// takes what is left, never less than MIN px wide. Refitted when the window is resized and
// when anything above the board changes height (a banner, the status, the head wrapping).

const MIN = 200; // px: a board is never drawn narrower than this
const MARGIN = 8; // px kept free under the board (or under the clock below it)

export class BoardFit {
  constructor(host, { below = [], watch = [] } = {}) {
    this.host = host; // holds the board's .board-wrap
    this.below = below; // what must stay on screen under the board (the clock below it)
    this.frame = 0;
    this.onResize = () => this.schedule();
    window.addEventListener("resize", this.onResize);
    this.observer = new ResizeObserver(this.onResize);
    for (const el of watch) this.observer.observe(el);
  }

  destroy() {
    window.removeEventListener("resize", this.onResize);
    this.observer.disconnect();
    if (this.frame) cancelAnimationFrame(this.frame);
  }

  schedule() {
    if (!this.frame)
      this.frame = requestAnimationFrame(() => {
        this.frame = 0;
        this.fit();
      });
  }

  fit() {
    const wrap = this.host.querySelector(".board-wrap");
    if (!wrap) return;
    const rect = wrap.getBoundingClientRect();
    if (!rect.width || !rect.height) return;
    const aspect = rect.height / rect.width; // a board's height for its width, hands and all
    const top = rect.top + window.scrollY; // where the board stands on the page
    const under = this.below.reduce(
      (sum, el) => sum + (el.offsetHeight ? el.offsetHeight + MARGIN : 0),
      0,
    );
    const room = window.innerHeight - top - under - MARGIN;
    const size = Math.max(MIN, Math.floor(room / aspect));
    wrap.style.setProperty("--fit", `${size}px`);
  }
}
