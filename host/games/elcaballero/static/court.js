// What a step would cost a court beyond its price: the caballeros lost above the court's
// capacity (EC-10, the option court_capacity: 8 per caballero card off the map; EC-21: with none
// left the court empties, unless last_card_empties_court is off). The engine trims the court
// after reinforcements, a new caballero card (one card fewer off the map) and a card knocked off
// (one more, its castillo's caballeros back); a page shows the loss before the tap that confirms.
// What an area card's placement costs the courts comes from the engine's preview (preview.js).

import { landRegionsAround, landSides, mapOf } from "./map.js";

/** The court's capacity with `cards` caballero cards off the map (Infinity: no capacity). */
export function courtCap(cards, options = {}, rules = {}) {
  if (options.court_capacity === false) return Infinity;
  const per = rules?.court_per_card ?? 8;
  return per * (options.last_card_empties_court === false ? Math.max(cards, 1) : cards);
}

function player(game, colour) {
  return (game.players ?? []).find((p) => p.colour === colour) ?? { court: 0, cards_off_map: 0 };
}

/** Caballeros lost when `colour`'s court gains `n` (reinforcements). */
export function reinforceLoss(state, rules, colour, n) {
  const p = player(state.game, colour);
  return Math.max(0, p.court + n - courtCap(p.cards_off_map, state.options, rules));
}

const GRANDE_PRICE = 2; // engine/elcaballero/extended.py
const GRANDE_MOVE_PRICE = 1;

/** The highest number of a caballero card facing land (0 when none: EC-22's returned count). */
function highestLand(map, card) {
  return Math.max(0, ...landSides(map, card.cell).map((side) => card.numbers[side]));
}

/** Caballeros lost by the acting `colour` placing a new caballero card ("knight x,yD N", or
 * "knightgrande x,yD N" with the Grande): its price paid, one card fewer off the map. */
export function knightLoss(state, rules, colour, text) {
  const game = state.game;
  const [kind, spot, number] = text.split(" ");
  const cell = spot.slice(0, -1);
  const n = Number(number);
  const map = mapOf(game);
  const p = player(game, colour);
  let court = p.court;
  let cards = p.cards_off_map - 1;
  if (kind === "knight") {
    court -= landSides(map, cell).length ? n : 1; // next to sea only: the front side for 1
  } else if (kind === "knightgrande") {
    const pays = state.options?.grande_pays_its_price !== false;
    const from = p.grande && p.grande !== "court" ? p.grande : null;
    court -= n + (pays ? (from ? GRANDE_MOVE_PRICE : GRANDE_PRICE) : 0);
    const left = from ? (game.caballeros ?? []).find((c) => c.cell === from) : null;
    if (left) {
      // the card the Grande leaves goes when it touches land on several sides (EC-9's option)
      const roots = landRegionsAround(map, from);
      const sameIsland = state.options?.remove_on_same_island ?? true;
      if (roots.length > 1 && (sameIsland || new Set(roots).size > 1)) {
        cards += 1;
        if (left.castillo) court += highestLand(map, left);
      }
    }
  } else return 0;
  return Math.max(0, court - courtCap(cards, state.options, rules));
}
