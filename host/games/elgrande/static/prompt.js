// The prompt in plain words. The server's state table (host/games/<id>/prompts.py) sends a
// stable `key` with raw `params` (a seat's page gets its own prompt: its secret choice, or whom
// it waits for); this module only translates it.

import { capitalise } from "/static/js/dom.js";
import { verbsOf } from "/static/js/verbs.js";
import { swatched } from "./colournames.js";

/** The prompt to show: {key, params} with raw tokens as params. */
export function promptFor(state) {
  const server = state.prompt;
  if (!state.game || !server?.key) return { key: "none", params: {} };
  return { key: server.key, params: { actor: server.actors, ...server.params }, text: server.text };
}

/** A parameter's value in words, by the kind the game declares for it (the prompts' kinds in
 * host/games/elgrande/prompts.py, the refusals' in engine/elgrande/refusals.py; served with the
 * verb table): colours, areas and cards named in the current language, anything else as it is. */
export function paramWords(i18n, family, name, value) {
  const kind = verbsOf("elgrande").paramKind(family, name);
  if (kind === "colours") {
    const list = Array.isArray(value) ? value : [value];
    return list
      .filter((c) => c && c !== "chance")
      .map((c) => (c === "table" ? i18n.t("colour.table") : i18n.colour(c)))
      .join(", ");
  }
  if (!value) return value;
  if (kind === "colour") return i18n.colour(value);
  if (kind === "area") return i18n.area(value);
  if (kind === "card" || kind === "modifier") return i18n.card(value);
  return value;
}

/** The prompt's words: colour, area and card tokens named in the current language. */
export function promptText(i18n, prompt) {
  const words = {};
  for (const [name, value] of Object.entries(prompt.params ?? {})) words[name] = paramWords(i18n, "prompt", name, value);
  const key = `prompt.${prompt.key}`;
  return capitalise(i18n.has(key) ? i18n.t(key, words) : prompt.text ?? prompt.key);
}


/** The prompt as an element's children: its colour names capitalised, with their swatches. */
export function promptNodes(i18n, prompt) {
  return swatched(i18n, (words) => promptText(words, prompt));
}

// The phase badge follows the prompt (one source: the step the game waits for), e.g. a general
// scoring's secret discs come while the engine's phase is still the last turn's.
const BADGES = [
  ["setup.", "phase.setup_first"],
  ["dummy.", "phase.dummy_regions"],
  ["reveal", "phase.reveal"],
  ["power", "phase.power"],
  ["pass", "phase.setup_pass"],
  ["disc.general", "phase.scoring"],
  ["check.scoring", "phase.scoring"],
  ["check.", "phase.check"],
  ["over", "phase.over"],
];

/** The badge's key for the prompt the page shows (`promptFor(state)`'s key). */
export function badgeKey(state) {
  const key = promptFor(state).key;
  if (key === "none") return state.game ? `phase.${state.game.phase}` : "phase.main";
  for (const [start, badge] of BADGES) if (key === start || (start.endsWith(".") && key.startsWith(start))) return badge;
  return "phase.main"; // a player's turn: taking, choosing, placing, a special action's steps
}
