// The dealer's set-up checklist (the game adapter's `state.checklist`: El Grande's
// host/games/elgrande/checklist.py): what to lay out on the real table after a dealer-mode start.
// Shown on the table until the first player acts, or until the table ticks it off (per game,
// remembered on this device).

import { capitalise, h } from "/static/js/dom.js";
import { swatched } from "./colournames.js";

const doneKey = (gameId) => `castillo.checklist.${gameId}`;

function words(i18n, params) {
  const out = { ...params };
  if (params.colour) out.colour = i18n.colour(params.colour);
  if (params.area) out.area = i18n.area(params.area);
  if (params.cards) out.cards = params.cards.map((card) => i18n.card(card)).join(", ");
  return out;
}

/** The checklist panel, or null when there is none (or it was ticked off). */
export function checklistView(i18n, state, rerender) {
  const items = state.checklist;
  if (!items?.length || localStorage.getItem(doneKey(state.game_id))) return null;
  const done = () => {
    localStorage.setItem(doneKey(state.game_id), "1");
    rerender();
  };
  return h(
    "section.checklist",
    { id: "checklist", "aria-label": i18n.t("checklist.title") },
    // the question and the button answering it on one line: the board keeps its room
    h("div.checklist-head", {},
      h("h3", {}, i18n.t("checklist.title")),
      h("button.primary", { type: "button", id: "checklist-done", onclick: done }, i18n.t("checklist.done"))),
    h("ol", {}, items.map((item) => h("li", { "data-item": item.key }, swatched(i18n, (marked) => capitalise(marked.t(item.key, words(marked, item.params ?? {}))))))),
  );
}
