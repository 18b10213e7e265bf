// El Caballero's public panels: the round, the market, the power cards played this round, every
// court, and each scoring's breakdown per region and per ship.

import { capitalise, h } from "/static/js/dom.js";
import { COLOURS } from "/static/js/colours.js";
import { cardPicture } from "./map.js";
import { labelsOfRegions, regionName as labelName } from "./labels.js";

export const dot = (colour) => h("span.ec-dot", { style: { background: COLOURS[colour] ?? "#888" } });
const who = (i18n, colour) => h("span.ec-who", {}, dot(colour), capitalise(i18n.colour(colour)));

/** An element holding SVG markup built by map.js (numbers and escaped names only). */
export function svgBox(spec, attrs, markup) {
  const el = h(spec, attrs);
  el.innerHTML = markup;
  return el;
}

/** The label shown wherever the shipped made-up cards are used. */
export function syntheticBadge(i18n, game) {
  if (!String(game.catalogue ?? "").startsWith("SYNTHETIC")) return null;
  return h("p.ec-synthetic", { "data-synthetic": "1" }, i18n.t("ec.synthetic"));
}

export function roundLine(i18n, game) {
  const scoring = new Set(game.scoring_rounds ?? []);
  return h("div.ec-rounds", {}, h("span", {}, i18n.t("ec.round", { round: game.round, rounds: game.rounds })),
    Array.from({ length: game.rounds }, (_, i) => i + 1).map((r) =>
      h(`span.ec-round${r === game.round ? ".current" : ""}${scoring.has(r) ? ".scoring" : ""}`, { title: scoring.has(r) ? i18n.t("ec.scoring_round") : null }, String(r))));
}

/** The market: each card drawn from its description; `pick(slot)` makes the playable ones taps. */
export function marketView(i18n, game, { playable = new Set(), chosen = null, pick = null } = {}) {
  const cards = (game.market ?? []).map((card, i) => {
    const slot = String(i + 1);
    const can = pick && playable.has(slot);
    const attrs = { type: "button", "data-slot": slot, title: card.id || card.card, disabled: !can, "aria-pressed": chosen === slot ? "true" : null };
    if (can) attrs.onclick = () => pick(slot);
    return h(`button.ec-market-card${chosen === slot ? ".chosen" : ""}${can ? ".can" : ""}`, attrs,
      svgBox("span.ec-pic", {}, cardPicture(card.card)), h("span.ec-slot", {}, slot));
  });
  return h("section.ec-market", { id: "ec-market" }, h("h3", {}, i18n.t("ec.market"), " ", h("span.muted", {}, i18n.t("ec.pile", { n: game.pile }))), h("div.ec-market-row", {}, cards));
}

export function powerPlayed(i18n, game) {
  const played = Object.entries(game.power_played ?? {});
  return h("section.ec-power", { id: "ec-power" }, h("h3", {}, i18n.t("ec.power_played")),
    played.length ? h("div.ec-power-row", {}, played.map(([colour, value]) =>
      h("span.ec-power-card", { "data-played": colour, style: { borderColor: COLOURS[colour] ?? "#888" } }, dot(colour), String(value))))
      : h("p.muted", {}, i18n.t("ec.power_none")));
}

export function courts(i18n, game) {
  const order = game.order ?? [];
  const rows = (game.players ?? []).map((p) => h("tr", { "data-court": p.colour, class: (game.acting ?? []).includes(p.colour) ? "acting" : null },
    h("td", {}, who(i18n, p.colour)), h("td", {}, String(p.score)), h("td", {}, String(p.court)),
    h("td", {}, String(p.cards_off_map)), h("td", {}, String(p.court_ships)), h("td", {}, String(p.hand_size)),
    h("td", {}, order.includes(p.colour) ? String(order.indexOf(p.colour) + 1) : "")));
  const head = ["ec.player", "ec.score", "ec.court", "ec.cards_off_map", "ec.court_ships", "ec.hand_size", "ec.order"];
  return h("section.ec-courts", { id: "ec-courts" }, h("h3", {}, i18n.t("ec.courts")),
    h("table.ec-table", {}, h("thead", {}, h("tr", {}, head.map((k) => h("th", {}, i18n.t(k))))), h("tbody", {}, rows)),
    h("p.muted", {}, i18n.t("ec.supply", { ships: game.supply?.ships ?? 0, castillos: game.supply?.castillos ?? 0 })));
}

function regionName(i18n, region, label) {
  const treasure = region.type === "land" ? i18n.t("ec.gold_n", { n: region.gold ?? 0 }) : i18n.t("ec.fish_n", { n: region.fish ?? 0 });
  return `${labelName(i18n, region.type === "land", label)} · ${i18n.t("ec.cards_n", { n: region.size })} · ${treasure}`;
}

function regionWhy(i18n, region, players) {
  if (region.type !== "land") return i18n.t("ec.why_sea");
  const placed = Object.entries(region.places ?? {});
  if (!placed.length) return i18n.t("ec.why_nobody");
  const first = placed.filter(([, p]) => p === 1).map(([c]) => c);
  const second = placed.filter(([, p]) => p === 2).map(([c]) => c);
  const names = (list) => list.map((c) => capitalise(i18n.colour(c))).join(", ");
  const parts = [];
  if (first.length > 1) parts.push(i18n.t("ec.why_tied", { who: names(first) }));
  else parts.push(i18n.t("ec.why_first", { who: names(first), cards: region.size, gold: region.gold ?? 0 }));
  if (second.length === 1) parts.push(i18n.t("ec.why_second", { who: names(second), cards: region.size, gold: region.gold ?? 0 }));
  else if (second.length > 1) parts.push(i18n.t("ec.why_second_tied", { who: names(second) }));
  else if (first.length === 1 && players < 3) parts.push(i18n.t("ec.why_no_second"));
  return parts.join("; ");
}

/** One scoring: every region (type, cards, gold or fish, caballeros, places, points, why), every
 * ship (its sea's cards and fish) and the totals. */
export function scoringView(i18n, scoring, { open = true } = {}) {
  const players = Object.keys(scoring.totals ?? {});
  // each region named as the map names it (labels.js): the map is the scoring's map until the
  // next area card is placed
  const labels = labelsOfRegions(scoring.regions);
  const labelOf = new Map(scoring.regions.map((r, i) => [r.region, labels[i]]));
  const byNumber = new Map(scoring.regions.map((r) => [r.region, r]));
  // islands A, B, C, ... then the seas that scored, 1, 2, ... (as the map names them)
  const order = (r) => [r.type === "land" ? 0 : 1, labelOf.get(r.region).length, labelOf.get(r.region).padStart(4, "0")];
  const byLabel = (a, b) => {
    const [x, y] = [order(a), order(b)];
    return x[0] - y[0] || x[1] - y[1] || (x[2] < y[2] ? -1 : x[2] > y[2] ? 1 : 0);
  };
  const regionRows = scoring.regions.filter((r) => r.type === "land" || Object.keys(r.points ?? {}).length).sort(byLabel).map((r) =>
    h("tr", { "data-region": r.region, "data-label": labelOf.get(r.region) },
      h("td", {}, regionName(i18n, r, labelOf.get(r.region))),
      h("td", {}, Object.entries(r.caballeros ?? {}).filter(([, n]) => n).map(([c, n]) => h("span.ec-chip", {}, dot(c), String(n)))),
      h("td", {}, Object.entries(r.points ?? {}).map(([c, n]) => h("span.ec-chip", { "data-points": c }, dot(c), `+${n}`))),
      h("td.ec-why", {}, regionWhy(i18n, r, players.length))));
  const shipRows = (scoring.ships ?? []).map((s) => {
    const sea = byNumber.get(s.region) ?? {};
    return h("tr", { "data-ship": `${s.cell}${s.edge}`, "data-label": labelOf.get(s.region) },
      h("td", {}, who(i18n, s.owner)),
      h("td", {}, labelName(i18n, false, labelOf.get(s.region))),
      h("td", {}, h("span.ec-chip", {}, `+${s.points}`)),
      h("td.ec-why", {}, i18n.t("ec.why_ship", { cards: sea.size ?? 0, fish: sea.fish ?? 0 })));
  });
  const totals = h("p.ec-totals", {}, Object.entries(scoring.totals ?? {}).map(([c, n]) => h("span.ec-chip", { "data-total": c }, dot(c), `${capitalise(i18n.colour(c))} +${n}`)));
  return h("details.ec-scoring", { open, "data-scoring": scoring.round },
    h("summary", {}, i18n.t("ec.scoring_after", { round: scoring.round })),
    h("h4", {}, i18n.t("ec.regions")),
    h("table.ec-table", {}, h("tbody", {}, regionRows)),
    h("h4", {}, i18n.t("ec.ships")),
    shipRows.length ? h("table.ec-table", {}, h("tbody", {}, shipRows)) : h("p.muted", {}, i18n.t("ec.no_ships")),
    totals);
}

export function scoringsView(i18n, game) {
  const list = game.scorings ?? [];
  if (!list.length) return null;
  return h("section.ec-scorings", { id: "ec-scorings" }, list.slice().reverse().map((s, i) => scoringView(i18n, s, { open: i === 0 })));
}

/** One scoring as a dialog over the page (like El Grande's): the breakdown and a close button. */
export function scoringDialog(i18n, scoring, close) {
  return h("div.dialog.ec-scoring-dialog", { role: "dialog", "aria-modal": "true", id: "ec-scoring-dialog" },
    h("div.ec-dialog-bar", {}, h("button.primary", { type: "button", "data-close": "1", onclick: close }, `✕ ${i18n.t("ui.close")}`)),
    scoringView(i18n, scoring, { open: true }),
    h("p.ec-legend", {}, i18n.t("ec.scoring_legend")));
}

/** The table's scorings: a button each, opening its breakdown as a dialog. */
export function scoringButtons(i18n, game, open) {
  const list = game.scorings ?? [];
  if (!list.length) return null;
  return h("div.ec-scoring-buttons", { id: "ec-scorings" }, list.map((s, i) =>
    h("button.secondary", { type: "button", "data-open-scoring": s.round, onclick: () => open(i) }, `▸ ${i18n.t("ec.scoring_after", { round: s.round })}`)));
}
