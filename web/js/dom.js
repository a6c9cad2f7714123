// Tiny DOM helpers: build HTML and SVG elements from attributes and children.
// No innerHTML anywhere: every text reaches the page as a text node.

export const SVGNS = "http://www.w3.org/2000/svg";

function setAttrs(el, attrs) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2), value);
    } else if (key === "dataset") {
      for (const [k, v] of Object.entries(value)) el.dataset[k] = String(v);
    } else if (key === "text") {
      el.textContent = String(value);
    } else if (key === "value" && "value" in el) {
      el.value = value;
    } else if (key === "checked" && "checked" in el) {
      el.checked = !!value;
    } else {
      el.setAttribute(key, value === true ? "" : String(value));
    }
  }
}

function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** An HTML element: h("button", {class: "x", onclick: f}, "Label"). */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

/** An SVG element. */
export function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVGNS, tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

/** Show a short message for a few seconds (errors, confirmations). */
export function toast(text, ms = 4000) {
  const box = document.getElementById("toasts");
  if (!box) return;
  const item = h("div", { class: "toast" }, text);
  box.append(item);
  setTimeout(() => item.remove(), ms);
}

export function reducedMotion() {
  return window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** Replace an element's children (null/false children are skipped, arrays flattened). */
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}
