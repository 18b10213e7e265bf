// El Caballero's log in sentences (every language): who did what, where on the map by the names
// the map shows (labels.js), never a catalogue id or a coordinate. The facts a sentence needs
// beyond the step's `key` and `params` (which island, which sea, the card turned up) come with the
// log line (the adapter's log_fields: `facts`, for the line whose text is `facts.about`).

import { capitalise } from "/static/js/dom.js";
import { parseCard, SIDES, LAND } from "./map.js";

const sideName = (i18n, side) => i18n.t(`ec.side.${side}`);

/** The card turned up, in words: each region's kind, its edges (or a lake, an islet), its gold
 * or fish ("land north and south, 2 gold; sea east; sea west"). */
export function cardWords(i18n, description) {
  if (!/^[LS][NESW]*([gf]\d+)?(\+[LS][NESW]*([gf]\d+)?)*$/.test(String(description ?? ""))) return null;
  return parseCard(description).map((r) => {
    const land = r.kind === LAND;
    const sides = [0, 1, 2, 3].filter((d) => r.mask >> d & 1).map((d) => sideName(i18n, SIDES[d]));
    let where = i18n.t(land ? "ec.card_islet" : "ec.card_lake");
    if (sides.length === 4) where = i18n.t(land ? "ec.card_land_all" : "ec.card_sea_all");
    else if (sides.length) where = i18n.t(land ? "ec.card_land" : "ec.card_sea", { edges: sides.join(i18n.t("ec.and")) });
    return r.treasure ? `${where}, ${i18n.t(land ? "ec.gold_n" : "ec.fish_n", { n: r.treasure })}` : where;
  }).join("; ");
}

/** Islands and seas named as on the map ("island B, sea 2"); null when there are none. */
function places(i18n, islands = [], seas = []) {
  const names = [...islands.map((n) => i18n.t("ec.island", { n })), ...seas.map((n) => i18n.t("ec.sea", { n }))];
  return names.length ? names.join(", ") : null;
}

/** What each entry's sentence may use: its own facts (a line logged with later steps gets
 * none of theirs). */
export function logContext(entries) {
  return entries.map((e) => ((e.kind ?? "action") === "action" && e.facts && e.facts.about === e.text ? { facts: e.facts } : {}));
}

/** A step (a log line's `key`, `params`) as a phrase without its actor (an undo line: "Red
 * took back: a caballero card"). */
export function logText(i18n, line, ctx = {}, cardsById = new Map()) {
  const verb = line.key;
  const p = line.params ?? {};
  const key = `ec.log.${verb}`;
  if (!i18n.has(key)) return line.text;
  const card = p.card ? cardWords(i18n, ctx.facts?.card ?? cardsById.get(p.card) ?? p.card) ?? "" : "";
  return i18n.t(key, { n: (verb === "power" ? p.value : p.number) ?? "", card });
}

const WHERE = new Set(["area", "knight", "knightgrande", "raise", "castillo", "withdraw", "grande", "governor", "lakeship"]);
const SEA = new Set(["ship", "reship", "shipback"]);
const MOVE = new Set(["moveship", "movecastillo", "movegrande"]);

/** An action's sentence ("Red placed a caballero card next to island B (5 towards north)")
 * from its step's `key` and `params`; null for what the shell words (undo, corrections, the
 * tower). */
export function actionSentence(i18n, e, ctx = {}, cardsById = new Map()) {
  const verb = e.key;
  const p = e.params ?? {};
  const facts = ctx.facts ?? {};
  const who = e.actor === "chance" ? "" : capitalise(i18n.colour(e.actor));
  const where = places(i18n, facts.islands, facts.seas);
  const sea = (label) => (label ? i18n.t("ec.sea", { n: label }) : null);
  const params = { who, n: "", where, side: "", card: "", sea: sea(facts.sea), from: null, to: null };
  switch (verb) {
    case "start":
    case "reveal":
      params.card = cardWords(i18n, facts.card ?? cardsById.get(p.card) ?? p.card);
      if (!params.card) return i18n.t(`ec.say.${verb}_unknown`);
      break;
    case "power":
      params.n = p.value ?? "";
      if (!p.value) return i18n.t("ec.say.power_hidden", { who });
      break;
    case "reinforce":
      if (facts.n === undefined) return i18n.t("ec.say.reinforce_some", { who });
      params.n = facts.n;
      break;
    case "knight":
    case "knightgrande":
    case "raise":
      params.n = p.number ?? "";
      params.side = sideName(i18n, String(p.spot ?? "").slice(-1).toUpperCase());
      break;
    case "moveship":
      params.from = sea(facts.sea);
      params.to = sea(facts.to_sea);
      break;
    case "movecastillo":
    case "movegrande":
      params.from = places(i18n, facts.islands);
      params.to = places(i18n, facts.to_islands);
      break;
    default:
      break;
  }
  const key = `ec.say.${verb}`;
  if (!i18n.has(key)) return null;
  // a sentence whose place is unknown (a line logged with later steps) says less, never a
  // coordinate
  const unknown = (WHERE.has(verb) && !where) || (SEA.has(verb) && !params.sea) || (MOVE.has(verb) && (!params.from || !params.to));
  if (unknown) return i18n.t(`ec.say.${verb}_plain`, params);
  return i18n.t(key, params);
}
