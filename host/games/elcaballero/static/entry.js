// Table mode: the card turned up (the start card, a market card) is entered at the tablet. With
// a catalogue, a tap on its picture; without one, its description in a few taps: toggle the four
// edges between land and sea, pick the topology among the drawings that fit those edges, count
// the gold and fish of each region (docs/elcaballero-cards.md).

import { h } from "/static/js/dom.js";
import { cardPicture, SIDES } from "./map.js";
import { svgBox } from "./panels.js";

const LETTER = ["L", "S"]; // kind 0 land, 1 sea

// what the tablet has entered so far: edge kinds N E S W, the topology picked, each region's count
const draft = { edges: [1, 1, 1, 1], topology: 0, counts: [] };

/** Every way to split the edges 0..3 into groups (set partitions). */
function partitions(items) {
  if (!items.length) return [[]];
  const [first, ...rest] = items;
  const out = [];
  for (const part of partitions(rest)) {
    out.push([[first], ...part]);
    part.forEach((_, i) => out.push(part.map((block, j) => (i === j ? [first, ...block] : block))));
  }
  return out;
}

const maskOf = (block) => block.reduce((m, d) => m | (1 << d), 0);

/** Two edge sets interleave around the card (the engine's crossing rule). */
function cross(a, b) {
  const marks = [0, 1, 2, 3].filter((d) => (a | b) >> d & 1).map((d) => (a >> d & 1 ? "a" : "b"));
  return marks.filter((m, i) => m !== marks.at(i - 1)).length >= 4;
}

/** The topologies that fit the edges: regions of one kind each that do not cross, then the
 * same with a closed region (a lake or an islet) of the other kind than the middle one. */
export function topologies(edges) {
  const out = [];
  for (const blocks of partitions([0, 1, 2, 3])) {
    if (blocks.some((b) => b.some((d) => edges[d] !== edges[b[0]]))) continue;
    const masks = blocks.map(maskOf);
    if (masks.some((a, i) => masks.some((b, j) => i < j && cross(a, b)))) continue;
    const regions = blocks.map((b, i) => ({ kind: edges[b[0]], mask: masks[i], first: Math.min(...b) }));
    out.push(regions.sort((a, b) => a.kind - b.kind || a.first - b.first)); // land first, then from north
  }
  out.sort((a, b) => a.length - b.length);
  // a lake or an islet only in the simple shapes (one region of each kind at most): few drawings
  const closed = out.filter((regions) => regions.length <= 2).map((regions) => {
    const middle = regions.reduce((best, r) => (bits(r.mask) > bits(best.mask) ? r : best));
    return [...regions, { kind: 1 - middle.kind, mask: 0 }];
  });
  return [...out, ...closed];
}

const bits = (mask) => [0, 1, 2, 3].filter((d) => mask >> d & 1).length;

/** A description in the one-word notation ("LNS+SEf1+SW"). */
export function describe(regions, counts = []) {
  return regions.map((r, i) => {
    const edges = [0, 1, 2, 3].filter((d) => r.mask >> d & 1).map((d) => SIDES[d]).join("");
    const n = counts[i] ?? 0;
    return `${LETTER[r.kind]}${edges}${n ? `${r.kind === 0 ? "g" : "f"}${n}` : ""}`;
  }).join("+");
}

function editor(i18n, verb, act, redraw) {
  const shapes = topologies(draft.edges);
  draft.topology = Math.min(draft.topology, shapes.length - 1);
  const regions = shapes[draft.topology];
  draft.counts = regions.map((_, i) => draft.counts[i] ?? 0);
  const text = describe(regions, draft.counts);
  const edgeButtons = [0, 1, 2, 3].map((d) => h("button.secondary.ec-edge", {
    type: "button", "data-edge": SIDES[d], "data-kind": LETTER[draft.edges[d]],
    onclick: () => { draft.edges[d] = 1 - draft.edges[d]; Object.assign(draft, { topology: 0, counts: [] }); redraw(); },
  }, `${i18n.t(`ec.side.${SIDES[d]}`)}: ${i18n.t(draft.edges[d] ? "ec.edge_sea" : "ec.edge_land")}`));
  const shapeButtons = shapes.map((shape, i) => h(`button.ec-entry-card${i === draft.topology ? ".chosen" : ""}`, {
    type: "button", "data-topology": describe(shape), "aria-pressed": i === draft.topology ? "true" : "false",
    onclick: () => { Object.assign(draft, { topology: i, counts: [] }); redraw(); },
  }, svgBox("span.ec-pic", {}, cardPicture(describe(shape)))));
  const counters = regions.map((r, i) => {
    const what = r.kind === 0 ? "ec.gold_of" : "ec.fish_of";
    const step = (delta) => () => { draft.counts[i] = Math.max(0, Math.min(9, draft.counts[i] + delta)); redraw(); };
    return h("div.ec-counter", { "data-region": i },
      h("span", {}, i18n.t(what, { region: describe([r]) })),
      h("button.secondary", { type: "button", "data-less": i, onclick: step(-1) }, "−"),
      h("strong", { "data-count": i }, String(draft.counts[i])),
      h("button.secondary", { type: "button", "data-more": i, onclick: step(1) }, "+"));
  });
  return h("div.ec-editor", { id: "ec-editor", "data-text": text },
    h("h4", {}, i18n.t("ec.describe")),
    h("div.ec-buttons", {}, edgeButtons),
    h("p.muted", {}, i18n.t("ec.pick_topology")),
    h("div.ec-market-row", {}, shapeButtons),
    counters,
    h("div.ec-buttons", {},
      svgBox("span.ec-pic", {}, cardPicture(text)),
      h("button.primary", { type: "button", "data-enter": text, onclick: () => { act(`${verb} ${text}`); Object.assign(draft, { edges: [1, 1, 1, 1], topology: 0, counts: [] }); } },
        i18n.t("ec.enter_card", { card: text }))));
}

/** `chance`: the legal chance steps ("reveal ID"); `cardsById` the catalogue's descriptions. */
export function entryView(i18n, game, chance, cardsById, act, redraw) {
  const verb = game.phase;
  const choices = chance.map((text) => {
    const arg = text.split(" ")[1];
    const description = cardsById.get(arg) ?? arg;
    return h("button.ec-entry-card", { type: "button", "data-action": text, title: arg, onclick: () => act(text) },
      svgBox("span.ec-pic", {}, cardPicture(description)), h("span.small", {}, arg));
  });
  const free = !game.catalogue; // no catalogue: any description the players read off the card
  return h("section.ec-entry", { id: "ec-entry" }, h("h3", {}, i18n.t(`ec.prompt.${verb}`)),
    free ? editor(i18n, verb, act, redraw) : null,
    free ? h("p.muted", {}, i18n.t("ec.common_shapes")) : null,
    h("div.ec-market-row", {}, choices));
}
