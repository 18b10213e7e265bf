// Tiny DOM helpers: build elements without innerHTML for anything that carries text.

/** h("button.big", {onclick, "data-action": "x"}, "label", child…) → an element. */
export function h(spec, attrs = {}, ...children) {
  const [tag, ...classes] = spec.split(".");
  const el = document.createElement(tag || "div");
  if (classes.length) el.className = classes.join(" ");
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2), value);
    } else if (key === "style" && typeof value === "object") {
      Object.assign(el.style, value);
    } else if (value === true) {
      el.setAttribute(key, "");
    } else {
      el.setAttribute(key, String(value));
    }
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === undefined || child === null || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replace the children of `el`. */
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

export const $ = (selector, root = document) => root.querySelector(selector);

/** Escape text for an SVG/HTML string built by hand (the board). */
export function esc(text) {
  return String(text)
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;");
}

/** A short message at the bottom of the screen. */
export function toast(text, kind = "info") {
  let box = document.getElementById("toasts");
  if (!box) {
    box = h("div", { id: "toasts", role: "status", "aria-live": "polite" });
    document.body.append(box);
  }
  const item = h(`div.toast.${kind}`, {}, text);
  box.append(item);
  setTimeout(() => item.remove(), kind === "error" ? 6000 : 2500);
}

// The last 50 render times, read by the UI benchmark.
const renderTimes = [];
window.castilloRenderTimes = renderTimes;

/** Render, time it, and mark the page with its state revision (and as ready, the first time). */
export function renderTimed(render, rev) {
  const started = performance.now();
  render();
  renderTimes.push(performance.now() - started);
  if (renderTimes.length > 50) renderTimes.shift();
  document.body.dataset.rev = String(rev);
  if (!document.body.dataset.ready) performance.mark("castillo-interactive"); // the UI benchmark
  document.body.dataset.ready = "1";
}

/** "green" → "Green": a name at the start of a line or a heading. */
export const capitalise = (s) => (s ? s.charAt(0).toUpperCase() + s.slice(1) : s);

const stylesheets = new Map();

/** Add a stylesheet to the page once; resolves when it is loaded (or failed: unstyled beats
 * not shown). A plugin awaits its own in `prepare`, so its first drawing is styled. */
export function stylesheet(href) {
  if (!stylesheets.has(href)) {
    stylesheets.set(href, new Promise((resolve) => {
      const link = h("link", { rel: "stylesheet", href });
      link.addEventListener("load", resolve);
      link.addEventListener("error", resolve);
      document.head.append(link);
    }));
  }
  return stylesheets.get(href);
}
