// Table mode: the card turned up is entered at the tablet, as a tap on its picture (a
// catalogue's card, or one of the plain shapes when there is no catalogue).

import { h } from "/static/js/dom.js";
import { cardPicture } from "./map.js";
import { svgBox } from "./panels.js";

/** `chance`: the legal chance steps ("reveal ID"); `cardsById` the catalogue's descriptions. */
export function entryView(i18n, game, chance, cardsById, act) {
  const choices = chance.map((text) => {
    const arg = text.split(" ")[1];
    const description = cardsById.get(arg) ?? arg;
    return h("button.ec-entry-card", { type: "button", "data-action": text, title: arg, onclick: () => act(text) },
      svgBox("span.ec-pic", {}, cardPicture(description)), h("span.small", {}, arg));
  });
  return h("section.ec-entry", { id: "ec-entry" }, h("h3", {}, i18n.t(`ec.prompt.${game.phase}`)), h("div.ec-market-row", {}, choices));
}
