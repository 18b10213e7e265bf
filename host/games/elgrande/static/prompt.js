// The prompt in plain words. The server's state table (host/games/<id>/prompts.py) sends a
// stable `key` with raw `params` (a seat's page gets its own prompt: its secret choice, or whom
// it waits for); this module only translates it.

import { capitalise } from "/static/js/dom.js";

/** The prompt to show: {key, params} with raw tokens as params. */
export function promptFor(state) {
  const server = state.prompt;
  if (!state.game || !server?.key) return { key: "none", params: {} };
  return { key: server.key, params: { actor: server.actors, ...server.params }, text: server.text };
}

const COLOUR_PARAMS = new Set(["colour", "against"]);
const COLOUR_LISTS = new Set(["actor", "waiting_for", "who"]);
const AREA_PARAMS = new Set(["from", "area", "region", "king"]);

/** The prompt's words: colour, area and card tokens named in the current language. */
export function promptText(i18n, prompt) {
  const words = {};
  for (const [name, value] of Object.entries(prompt.params ?? {})) {
    if (COLOUR_LISTS.has(name)) {
      const list = Array.isArray(value) ? value : [value];
      words[name] = list
        .filter((c) => c && c !== "chance")
        .map((c) => (c === "table" ? i18n.t("colour.table") : i18n.colour(c)))
        .join(", ");
    } else if (COLOUR_PARAMS.has(name) && value) {
      words[name] = i18n.colour(value);
    } else if (AREA_PARAMS.has(name) && value) {
      words[name] = i18n.area(value);
    } else if (name === "card" && value) {
      words[name] = i18n.card(value);
    } else {
      words[name] = value;
    }
  }
  const key = `prompt.${prompt.key}`;
  return capitalise(i18n.has(key) ? i18n.t(key, words) : prompt.text ?? prompt.key);
}

