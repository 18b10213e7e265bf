// The placement preview: before an area card is placed, which caballero cards it would knock off
// (touching land on more than one side) and how each island it touches would rank afterwards.

import { h } from "/static/js/dom.js";
import { buildMap, LAND, landRootsAround, neighbour, ranking, SIDES } from "./map.js";
import { dot } from "./panels.js";

function islandOf(map, root) {
  const region = map.roots.get(root);
  return { cards: region?.cells.size ?? 0, gold: region?.treasure ?? 0, ranking: ranking(region?.totals ?? {}) };
}

/** The land region of `map`'s card at `cell` across its side `side` (null: none or sea). */
function landAcross(map, cell, side) {
  const card = map.cards.get(neighbour(cell, side));
  if (!card) return null;
  const back = (side + 2) % 4;
  const i = card.regions.findIndex((r) => r.mask >> back & 1);
  return card.regions[i].kind === LAND ? map.find(card.ids[i]) : null;
}

/** Market card `slot` tried at `cell` with its printed north facing `side`: {ghost, lost: cells
 * of caballero cards knocked off, changes: [{now, was: [island]}]} (EC-9: the option
 * remove_on_same_island decides whether two sides on one island count). */
export function tryPlacement(state, slot, cell, side) {
  const game = state.game;
  const ghost = { cell, card: game.market[Number(slot) - 1].card, rotation: SIDES.indexOf(side) };
  const areas = [...game.areas, ghost];
  const before = buildMap(game.areas, game.caballeros);
  const placed = buildMap(areas, game.caballeros);
  const sameIsland = state.options?.remove_on_same_island ?? true;
  const lost = [];
  for (let s = 0; s < 4; s++) {
    const at = neighbour(cell, s);
    const card = game.caballeros.find((c) => c.cell === at);
    if (!card || card.grande) continue;
    const roots = landRootsAround(placed, at);
    if (roots.length > 1 && (sameIsland || new Set(roots).size > 1)) lost.push(at);
  }
  const after = lost.length ? buildMap(areas, game.caballeros.filter((c) => !lost.includes(c.cell))) : placed;
  const changes = [];
  const seen = new Set();
  const mine = after.cards.get(cell);
  mine.regions.forEach((region, i) => {
    const root = after.find(mine.ids[i]);
    if (region.kind !== LAND || seen.has(root)) return;
    seen.add(root);
    const was = [];
    for (let s = 0; s < 4; s++) {
      if (!(region.mask >> s & 1)) continue;
      const old = landAcross(before, cell, s);
      if (old !== null && !was.includes(old)) was.push(old);
    }
    changes.push({ now: islandOf(after, root), was: was.map((old) => islandOf(before, old)) });
  });
  for (const at of lost) {
    for (const root of landRootsAround(after, at)) {
      if (seen.has(root)) continue;
      seen.add(root);
      changes.push({ now: islandOf(after, root), was: [islandOf(before, root)] });
    }
  }
  return { ghost, lost, changes };
}

function rankingText(i18n, island) {
  const order = island.ranking.map(([colours, n]) => h("span.ec-chip", {}, colours.map((c) => dot(c)), String(n)));
  return [i18n.t("ec.island_size", { cards: island.cards, gold: island.gold }), " ", order.length ? order : i18n.t("ec.nobody")];
}

export function previewView(i18n, game, trial) {
  const owner = (cell) => game.caballeros.find((c) => c.cell === cell)?.owner;
  return h("div.ec-preview", { id: "ec-preview" },
    trial.lost.length
      ? h("p.ec-lost-list", {}, i18n.t("ec.knocks_off"), " ", trial.lost.map((cell) => h("span.ec-chip", { "data-knocked": cell }, dot(owner(cell)), cell)))
      : h("p.muted", { "data-knocked": "" }, i18n.t("ec.knocks_none")),
    trial.changes.map((change) => h("p.ec-change", {},
      h("strong", {}, i18n.t("ec.after")), " ", rankingText(i18n, change.now),
      change.was.length ? [" · ", h("em", {}, i18n.t("ec.before")), " ", change.was.map((w, i) => [i ? " + " : "", rankingText(i18n, w)])] : null)));
}
