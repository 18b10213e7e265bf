// The legal choices as tap targets, grouped under headings (power cards, action cards, placements,
// each step of a special action …). Each button carries its notation in data-action.

import { h, fill } from "/static/js/dom.js";
import { COLOURS } from "/static/js/colours.js";
import { swatched } from "./colournames.js";
import { areasOf, groupOf, isQuiet, label, namesColour, parse } from "./notation.js";

/** The action card the acting player took this turn, with its effect: shown for the whole turn. */
export function takenCard(i18n, game) {
  const id = game?.turn?.card;
  if (!id) return null;
  return h(
    "div.taken-card",
    { "data-taken-card": id },
    h("span.card-name", {}, swatched(i18n, (words) => words.t("ui.taken_card", { colour: words.colour(game.turn.player) })), `: ${i18n.card(id)}`),
    h("span.card-text", {}, i18n.cardText(id)),
  );
}

/**
 * Render `legal` into `root`. ctx: { i18n, game, data, onPick(text), focusArea, onClearFocus,
 * disabled (a throw check stops play) }.
 * With `focusArea`, only the actions naming that area are shown (a tap on the map with several
 * possible actions there).
 */
export function renderChoices(root, legal, ctx) {
  const { i18n, game, data, onPick } = ctx;
  let actions = legal.map(parse);
  if (ctx.focusArea) {
    const focused = actions.filter((a) => areasOf(a).includes(ctx.focusArea));
    if (focused.length) actions = focused;
  }
  const groups = new Map();
  for (const action of actions) {
    const key = groupOf(action.verb);
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(action);
  }
  const sections = [];
  for (const [key, list] of groups) {
    const buttons = list.map((action) => button(action, { i18n, game, data, onPick, disabled: ctx.disabled }));
    // a card turned up at the table: the heading names the card the prompt asks for
    const own = `group.chance.${list[0].verb}`;
    const heading = key === "chance" && i18n.has(own) ? i18n.t(own) : i18n.t(`group.${key}`);
    sections.push(
      h(`section.choice-group.g-${key}`, {}, h("h3", {}, heading), h("div.buttons", {}, buttons)),
    );
  }
  if (ctx.focusArea && actions.length !== legal.length) {
    sections.push(
      h("button.secondary", { type: "button", onclick: ctx.onClearFocus }, i18n.t("ui.more")),
    );
  }
  fill(root, sections);
}

function swatch(colour) {
  return h("span.swatch", { style: { background: COLOURS[colour] ?? "#888" }, "aria-hidden": "true" });
}

function button(action, { i18n, game, data, onPick, disabled }) {
  const attrs = {
    type: "button",
    "data-action": action.text,
    disabled: Boolean(disabled),
    onclick: () => onPick(action.text),
  };
  const { verb, args } = action;
  if (verb === "power") {
    const value = Number(args[0]);
    const takes = data?.power?.caballeros?.[value - 1];
    return h(
      "button.choice.power-card",
      attrs,
      h("span.big", {}, String(value)),
      takes !== undefined ? h("span.small", {}, i18n.t("ui.power_takes", { k: takes })) : null,
    );
  }
  if (verb === "card") {
    const card = data?.cards?.[args[0]];
    return h(
      "button.choice.action-card",
      attrs,
      h("span.card-name", {}, i18n.card(args[0])),
      card ? h("span.card-text", {}, i18n.cardText(args[0])) : null,
      card ? h("span.card-place", {}, `▲ ${card.place}`) : null,
    );
  }
  const text = label(i18n, action, { card: game?.turn?.card });
  const colour = namesColour(verb) ? args[0] : null;
  const kind = isQuiet(verb) ? "button.choice.quiet" : "button.choice";
  return h(kind, attrs, colour ? swatch(colour) : null, text);
}
