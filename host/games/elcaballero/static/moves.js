// The acting player's legal actions (docs/elcaballero-notation.md) sorted by what a tap picks:
// market slot and cell for an area card, a cell for everything done on or at a caballero card.
// Which verbs are chance steps: the engine's verb table (GET /api/games/elcaballero/verbs).

import { verbsOf } from "/static/js/verbs.js";

const spotCell = (spot) => spot.slice(0, -1);
const spotSide = (spot) => spot.slice(-1);

function push(map, key, value) {
  if (!map.has(key)) map.set(key, []);
  map.get(key).push(value);
}

/** {areas: Map(slot → Map(cell → [{side, text}])), at: Map(cell → [move]), reinforce, done,
 * power: [value], chance: [text], all: [text]}; a move is {kind, text, side, number, to}. */
export function sortLegal(legal) {
  const out = { areas: new Map(), at: new Map(), reinforce: null, done: null, power: [], chance: [], all: legal };
  for (const text of legal) {
    const [kind, a, b] = text.split(" ");
    if (kind === "area") {
      if (!out.areas.has(a)) out.areas.set(a, new Map());
      push(out.areas.get(a), spotCell(b), { side: spotSide(b), text });
    } else if (kind === "knight" || kind === "raise") {
      push(out.at, spotCell(a), { kind, text, side: spotSide(a), number: Number(b) });
    } else if (["ship", "reship", "shipback"].includes(kind)) {
      push(out.at, spotCell(a), { kind, text, side: spotSide(a) });
    } else if (kind === "moveship") {
      push(out.at, spotCell(a), { kind, text, side: spotSide(a), to: b });
    } else if (kind === "castillo" || kind === "withdraw") {
      push(out.at, a, { kind, text });
    } else if (kind === "movecastillo") {
      push(out.at, a, { kind, text, to: b });
    } else if (kind === "reinforce") out.reinforce = text;
    else if (kind === "done") out.done = text;
    else if (kind === "power") out.power.push(Number(a));
    else if (verbsOf("elcaballero").isChance(kind)) out.chance.push(text);
  }
  return out;
}
