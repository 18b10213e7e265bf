// Why a tap on the map does nothing now (an unlit region, France or Portugal, the sea): one short
// sentence near the prompt, in the page's language. Where the public state says which of the
// engine's refusals applies (engine/elgrande/explain.py), its words are used (the refusal keys
// of refusals.json, with the same parameters); else the page says what the map offers now.

import { areasOf, notKingRegion, parse } from "./notation.js";
import { paramWords, promptFor } from "./prompt.js";

const legalOf = (state) => state.legal ?? state.game?.legal ?? [];

/** The engine's refusal `key` (without its prefix) in the page's language. */
function refusal(i18n, key, params) {
  const words = {};
  for (const [name, value] of Object.entries(params)) words[name] = paramWords(i18n, "refusal", name, value);
  return i18n.t(`elgrande.refuse.${key}`, words);
}

/** The refusal the engine would give for `verb area`, when the public state tells it. */
function engineReason(i18n, state, verb, area) {
  const game = state.game;
  const king = game.king;
  if (area === "France" || area === "Portugal") return refusal(i18n, "not_a_region", { region: area });
  if (verb === "king") {
    if (area === king) return refusal(i18n, "king_already_there", { region: area });
    if (area === "castillo") return refusal(i18n, "king_not_castillo", {});
    return null;
  }
  if (area === "castillo") {
    if (["pick", "recall", "return"].includes(verb)) {
      return refusal(i18n, game.phase === "scoring" ? "castillo_by_discs" : "castillo_closed", {});
    }
    if (["grande", "movegrande"].includes(verb)) return refusal(i18n, "grande_not_castillo", {});
    if (verb === "disc") return refusal(i18n, "disc_not_castillo", {});
    return null;
  }
  if (notKingRegion(verb) && area === king) {
    return refusal(i18n, "king_region_closed", { region: area });
  }
  // the turn's placement (not a special action's): next to the King's region or the castillo
  if (verb === "place" && String(promptFor(state).key).startsWith("main.") && king && king !== "castillo") {
    return refusal(i18n, "not_next_to_king", { region: area, king_region: king });
  }
  return null;
}

/** Why tapping `area` (null: the sea) does nothing now. */
export function whyNotOffered(i18n, state, area) {
  const onMap = legalOf(state).map(parse).filter((action) => areasOf(action).length);
  if (!area) return i18n.t(onMap.length ? "ui.map_lit_only" : "ui.map_not_now");
  const verbs = new Set(onMap.map((action) => action.verb));
  for (const verb of verbs) {
    const why = engineReason(i18n, state, verb, area);
    if (why) return why;
  }
  if (area === "France" || area === "Portugal") return engineReason(i18n, state, "", area);
  const name = i18n.area(area);
  return i18n.t(onMap.length ? "ui.not_offered" : "ui.not_offered_now", { area: name.charAt(0).toUpperCase() + name.slice(1) });
}
