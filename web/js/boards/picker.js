// The dialog a board opens when one gesture stands for several moves (a promotion): one
// button a choice, Cancel and Escape give null.

import { h } from "../dom.js";

/**
 * Resolves with the `value` of the chosen entry of `choices` ({value, node, attrs}: the
 * button's content and attributes), or null when cancelled.
 * @param {HTMLElement} wrap   where the dialog is put
 * @param {string} title       its heading ("Promote to")
 * @param {string} label       its accessible name
 */
export function pickOne(wrap, title, label, choices) {
  return new Promise((resolve) => {
    const close = (value) => {
      layer.remove();
      resolve(value);
    };
    const buttons = choices.map(({ value, node, attrs }) =>
      h("button", { type: "button", ...attrs, onclick: () => close(value) }, node),
    );
    const layer = h(
      "div",
      { class: "promo", role: "dialog", "aria-modal": "true", "aria-label": label },
      h(
        "div",
        { class: "box" },
        h("strong", {}, title),
        h("div", { class: "choices" }, buttons),
        h(
          "button",
          { type: "button", class: "secondary small", onclick: () => close(null) },
          "Cancel",
        ),
      ),
    );
    layer.addEventListener("keydown", (e) => {
      if (e.key === "Escape") close(null);
    });
    wrap.append(layer);
    buttons[0].focus();
  });
}
