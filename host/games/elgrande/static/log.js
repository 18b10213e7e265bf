// El Grande's lines of the game log (the shell's gamelog.js words undo, corrections, the tower
// and problems): each action as one plain sentence, a scoring, the secret discs revealed.

import { capitalise } from "/static/js/dom.js";
import { actorName } from "/static/js/gamelog.js";
import { swatched } from "./colournames.js";
import { logSentence, revealSentence } from "./notation.js";

/** Per entry, the card its actor took last (a card's choice is logged by its words). */
export function logContext(entries) {
  const taken = {};
  return entries.map((e) => {
    if (e.kind !== "undo" && e.key === "card") taken[e.actor] = e.params?.card;
    return { card: taken[e.actor] };
  });
}

/** One of El Grande's entries as a sentence (the colours it names capitalised, with their
 * swatches: an element's children); null for the kinds the shell words. */
export function logLine(i18n, e, ctx = {}) {
  const actor = actorName(i18n, e.actor);
  const line = swatched(i18n, (words) => sentence(words, e, ctx, actor));
  return line.length ? line : null;
}

function sentence(i18n, e, ctx, actor) {
  switch (e.kind) {
    case "scoring":
      return i18n.t("log.scoring", { text: e.text === "general" ? i18n.t("score.general", { round: e.round }) : i18n.card(e.text) });
    case "reveal":
      return revealSentence(i18n, e.text, e.discs, e.round);
    case undefined:
    case "action":
      return capitalise(logSentence(i18n, actor, e, ctx));
    default:
      return "";
  }
}
