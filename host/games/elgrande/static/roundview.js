// What a Board Game Arena player expects to see of the round (issue 11), on the table and on
// each seat's page: the action card each player took this round (with its text, for the whole
// round), every player's remaining power cards (with the table option `open_power_cards`), and
// every player's score.

import { COLOURS } from "/static/js/colours.js";
import { swatched } from "./colournames.js";
import { capitalise, h } from "/static/js/dom.js";

/** The colours in play: the players and, with 2 players, the dummy. */
const inPlay = (game) => (game.dummy ? [...game.players, game.dummy] : game.players);
const swatch = (colour) => h("span.swatch", { style: { background: COLOURS[colour] } });

/**
 * The action cards taken this round, each with its text; the acting player's first.
 * `attr`: the attribute naming each card (the table: `data-taken-card`, as the acting player's
 * own card on the seat page).
 */
export function roundCards(i18n, game, attr = "data-taken-card") {
  const taken = game?.taken ?? {};
  const acting = game?.turn?.card ? game.turn.player : null;
  const order = inPlay(game).filter((c) => taken[c]);
  order.sort((a, b) => (b === acting) - (a === acting));
  if (!order.length) return null;
  return h("div.round-cards", { "aria-label": i18n.t("ui.round_cards") },
    order.map((colour) => h(
      `div.taken-card${colour === acting ? ".current" : ".earlier"}`,
      { [attr]: taken[colour], "data-colour": colour },
      h("span.card-name", {}, swatched(i18n, (words) => words.t("ui.taken_card", { colour: words.colour(colour) })), `: ${i18n.card(taken[colour])}`),
      h("span.card-text", {}, i18n.cardText(taken[colour])),
    )));
}

/** Every player's power cards: in hand, played this round, discarded (open discards only). */
export function powerCardsView(i18n, game) {
  const remaining = game?.remaining_power;
  if (!remaining) return null;
  const rows = inPlay(game).filter((c) => remaining[c]).map((colour) => {
    const held = new Set(remaining[colour]);
    const played = game.played?.[colour];
    const cells = [];
    for (let v = 1; v <= 13; v++) {
      const status = held.has(v) ? "held" : played === v ? "played" : "gone";
      cells.push(h(`span.pc.${status}`, { "data-power": v, "data-status": status }, String(v)));
    }
    return h("div.power-row", { "data-colour": colour, title: capitalise(i18n.colour(colour)) }, swatch(colour), cells);
  });
  return h("div.power-left", { id: "power-left" }, h("h3", {}, i18n.t("ui.power_left")), rows);
}

/** Every player's score, court, power card and action card this round (the seat page). */
export function scoresTable(i18n, game) {
  const rows = game.players.map((p) => h("tr", { "data-colour": p },
    h("th", { scope: "row" }, swatch(p), capitalise(i18n.colour(p))),
    h("td.score", {}, String(game.scores?.[p] ?? 0)),
    h("td.court", {}, String(game.court?.[p] ?? 0)),
    h("td.played", {}, game.played?.[p] ? String(game.played[p]) : "–"),
    h("td.taken", {}, game.taken?.[p] ? i18n.card(game.taken[p]) : "–"),
  ));
  return h("table.player-table.scores-table", {},
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, i18n.t("ui.players")),
      [["ui.score", "score"], ["ui.court", "court"], ["ui.played", "played"], ["ui.action_card", "taken"]]
        .map(([k, col]) => h(`th.${col}`, { scope: "col" }, i18n.t(k))))),
    h("tbody", {}, rows));
}
