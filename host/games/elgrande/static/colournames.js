// Colour names in El Grande's text: a player's colour is their name at the table, so wherever a
// sentence names one (a prompt, the log, a scoring's notes, the checklist) it is shown
// capitalised with its swatch. `marked(i18n)` is `i18n` whose colour() leaves a marker in the
// text instead of the name; `withSwatches(i18n, text)` turns the markers into named swatches.
// Every sentence is built by the same translation as before, only the names are drawn.

import { COLOURS } from "/static/js/colours.js";
import { capitalise, h } from "/static/js/dom.js";

const OPEN = "\uE000"; // private-use characters: never in a translation or a name
const CLOSE = "\uE001";
const MARKS = /\uE000([a-z_]*)\uE001/g;

/** A colour's name, capitalised, after its swatch. */
export function colourName(i18n, colour) {
  const name = capitalise(i18n.colour(colour));
  if (!COLOURS[colour]) return name;
  return h(
    "span.colour-name",
    { "data-colour": colour },
    h("span.swatch", { style: { background: COLOURS[colour] }, "aria-hidden": "true" }),
    name,
  );
}

/** `i18n` whose colour names are markers (read back by withSwatches). */
export function marked(i18n) {
  const words = Object.create(i18n);
  words.colour = (colour) => `${OPEN}${colour ?? ""}${CLOSE}`;
  return words;
}

/** A text with markers as a list of strings and named swatches (an element's children). */
export function withSwatches(i18n, text) {
  const out = [];
  let last = 0;
  const value = String(text);
  for (const match of value.matchAll(MARKS)) {
    if (match.index > last) out.push(value.slice(last, match.index));
    out.push(colourName(i18n, match[1]));
    last = match.index + match[0].length;
  }
  if (last < value.length) out.push(value.slice(last));
  return out;
}

/** A text with markers as plain words (for a title or an aria-label): names capitalised. */
export function plainText(i18n, text) {
  return String(text).replace(MARKS, (_, colour) => capitalise(i18n.colour(colour)));
}

/** `build(marked i18n)` → a string; the same sentence with named swatches. */
export function swatched(i18n, build) {
  return withSwatches(i18n, build(marked(i18n)));
}
