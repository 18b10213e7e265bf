// Table mode: the card turned up (the start card, a market card) is entered at the tablet. With
// a catalogue, a tap on its picture; without one, its description in a few taps on pictures,
// never notation: the four edges toggled on a drawing of the card (land or sea), the drawing
// picked among those these edges allow, lakes and islets added inside, the gold and fish of each
// region counted on a drawing that marks the region (docs/elcaballero-cards.md).
//
// The draft below is a small model the editor only draws: every description the engine accepts
// (every edge in one region of its kind, regions that do not cross, any number of closed lakes
// and islets, 0 to 9 gold or fish each, at most MAX_TEXT characters) is reachable by its steps
// (tests/app/test_elcaballero_card_entry_browser.py walks every one).

import { h } from "/static/js/dom.js";
import { cardPicture, cardSvg, hubs, parseCard, SIDES } from "./map.js";
import { svgBox } from "./panels.js";

const LETTER = ["L", "S"]; // kind 0 land, 1 sea
export const MAX_TEXT = 40; // engine/elcaballero/cards.py: card_from_text's limit
const MAX_COUNT = 9; // gold or fish on one region (cards.MAX_TREASURE)

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
const bits = (mask) => [0, 1, 2, 3].filter((d) => mask >> d & 1).length;

/** Two edge sets interleave around the card (the engine's crossing rule). */
function cross(a, b) {
  const marks = [0, 1, 2, 3].filter((d) => (a | b) >> d & 1).map((d) => (a >> d & 1 ? "a" : "b"));
  return marks.filter((m, i) => m !== marks.at(i - 1)).length >= 4;
}

/** The topologies that fit the edges: regions of one kind each that do not cross, then the
 * simple ones (one region of each kind at most) with a closed region (a lake or an islet) of the
 * other kind than the middle one. More lakes and islets are added inside any of them. */
const known = new Map(); // edges "0101" -> drawings (a draft asks often)

export function topologies(edges) {
  const key = edges.join("");
  if (!known.has(key)) known.set(key, drawings(edges));
  return known.get(key);
}

function drawings(edges) {
  const out = [];
  for (const blocks of partitions([0, 1, 2, 3])) {
    if (blocks.some((b) => b.some((d) => edges[d] !== edges[b[0]]))) continue;
    const masks = blocks.map(maskOf);
    if (masks.some((a, i) => masks.some((b, j) => i < j && cross(a, b)))) continue;
    const regions = blocks.map((b, i) => ({ kind: edges[b[0]], mask: masks[i], first: Math.min(...b) }));
    out.push(regions.sort((a, b) => a.kind - b.kind || a.first - b.first)); // land first, then from north
  }
  out.sort((a, b) => a.length - b.length);
  const closed = out.filter((regions) => regions.length <= 2).map((regions) => {
    const middle = regions.reduce((best, r) => (bits(r.mask) > bits(best.mask) ? r : best));
    return [...regions, { kind: 1 - middle.kind, mask: 0 }];
  });
  return [...out, ...closed].map((regions) => regions.map(({ kind, mask }) => ({ kind, mask })));
}

/** A description in the one-word notation ("LNS+SEf1+SW"). */
export function describe(regions, counts = []) {
  return regions.map((r, i) => {
    const edges = [0, 1, 2, 3].filter((d) => r.mask >> d & 1).map((d) => SIDES[d]).join("");
    const n = counts[i] ?? 0;
    return `${LETTER[r.kind]}${edges}${n ? `${r.kind === 0 ? "g" : "f"}${n}` : ""}`;
  }).join("+");
}

// ---------------------------------------------------------------- the draft (what was tapped)

/** A fresh draft: every edge sea, the first drawing, nothing inside, no gold or fish. `start`:
 * the start card (it shows land when `needsLand`, and has no gold or fish: EC-4). */
export function newDraft(phase = "reveal", needsLand = true) {
  return { phase, needsLand, edges: [1, 1, 1, 1], topology: 0, inside: [], counts: [] };
}

/** The drawings these edges allow (for the start card only those showing land). */
export function shapesOf(draft) {
  const all = topologies(draft.edges);
  if (draft.phase !== "start" || !draft.needsLand) return all;
  return all.filter((shape) => shape.some((r) => r.kind === 0));
}

/** The regions drafted: the drawing's, then the lakes and islets added inside. */
export function regionsOf(draft) {
  const shapes = shapesOf(draft);
  const shape = shapes[Math.min(draft.topology, shapes.length - 1)] ?? [];
  return [...shape, ...draft.inside.map((kind) => ({ kind, mask: 0 }))];
}

export const textOf = (draft) => describe(regionsOf(draft), draft.counts);

export function toggleEdge(draft, d) {
  draft.edges[d] = 1 - draft.edges[d];
  Object.assign(draft, { topology: 0, inside: [], counts: [] });
}

export function pickShape(draft, i) {
  Object.assign(draft, { topology: i, inside: [], counts: [] });
}

/** A lake (kind 1) or an islet (kind 0) more inside the card, while the description stays
 * within the engine's length. */
export function canAddInside(draft, kind) {
  const regions = [...regionsOf(draft), { kind, mask: 0 }];
  return describe(regions, draft.counts).length <= MAX_TEXT;
}

export function addInside(draft, kind) {
  if (!canAddInside(draft, kind)) return false;
  draft.inside.push(kind);
  return true;
}

/** Remove region `i` of the draft when it is a lake or an islet added inside. */
export function removeInside(draft, i) {
  const j = i - (regionsOf(draft).length - draft.inside.length);
  if (j < 0) return false;
  draft.inside.splice(j, 1);
  draft.counts.splice(i, 1);
  return true;
}

/** The gold or fish of region `i` one more or one fewer (0 to 9; none on the start card). */
export function canStep(draft, i, delta) {
  if (draft.phase === "start") return false;
  const n = (draft.counts[i] ?? 0) + delta;
  if (n < 0 || n > MAX_COUNT) return false;
  const counts = regionsOf(draft).map((_, k) => (k === i ? n : draft.counts[k] ?? 0));
  return describe(regionsOf(draft), counts).length <= MAX_TEXT;
}

export function step(draft, i, delta) {
  if (!canStep(draft, i, delta)) return false;
  const regions = regionsOf(draft);
  draft.counts = regions.map((_, k) => draft.counts[k] ?? 0);
  draft.counts[i] += delta;
  return true;
}

// ---------------------------------------------------------------- drawings

const FILL = { L: "#d6bf7a", S: "#5b95c9" };
const INK = { L: "#4a3a10", S: "#ffffff" };

/** The card being described, large, with its four edges as taps (land or sea). */
function edgeDrawing(i18n, draft, regions) {
  const W = 200;
  const k = 34; // the edge strips' depth
  const corner = [[0, 0], [W, 0], [W, W], [0, W]];
  const inner = [[k, k], [W - k, k], [W - k, W - k], [k, W - k]];
  let out = `<svg class="ec-edge-svg" viewBox="-2 -2 ${W + 4} ${W + 4}" xmlns="http://www.w3.org/2000/svg" role="group">`;
  out += cardSvg(regions, k, k, { size: W - 2 * k });
  for (let d = 0; d < 4; d++) {
    const kind = LETTER[draft.edges[d]];
    const word = i18n.t(draft.edges[d] ? "ec.edge_sea" : "ec.edge_land");
    const label = `${i18n.t(`ec.side.${SIDES[d]}`)}: ${word}`;
    const pts = [corner[d], corner[(d + 1) % 4], inner[(d + 1) % 4], inner[d]].map((p) => p.join(",")).join(" ");
    const mid = [(corner[d][0] + corner[(d + 1) % 4][0]) / 2, (corner[d][1] + corner[(d + 1) % 4][1]) / 2];
    const [tx, ty] = [mid[0] + [0, -1, 0, 1][d] * k / 2, mid[1] + [1, 0, -1, 0][d] * k / 2];
    const turn = d % 2 ? ` transform="rotate(${d === 1 ? 90 : -90} ${tx} ${ty})"` : "";
    const esc = (s) => String(s).replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
    out += `<g class="ec-edge" data-edge="${SIDES[d]}" data-kind="${kind}" role="button" tabindex="0" aria-label="${esc(label)}">` +
      `<polygon points="${pts}" fill="${FILL[kind]}" stroke="#333" stroke-width="1.5"/>` +
      `<text x="${tx}" y="${ty + 6}" font-size="16" text-anchor="middle" fill="${INK[kind]}"${turn}>${esc(word)}</text></g>`;
  }
  return `${out}</svg>`;
}

/** The card with region `i` marked (a ring at its place): what a counter counts. */
function markedPicture(text, i) {
  const regions = parseCard(text);
  // a region reaching an edge is marked by that edge (its middle may hold a lake or an islet)
  const edge = [0, 1, 2, 3].find((d) => regions[i].mask >> d & 1);
  const [x, y] = edge === undefined ? hubs(regions)[i] : [0.5 + [0, 1, 0, -1][edge] * 0.3, 0.5 + [-1, 0, 1, 0][edge] * 0.3];
  return `<svg class="ec-card-svg" viewBox="-2 -2 64 64" xmlns="http://www.w3.org/2000/svg" role="img">${cardSvg(regions, 0, 0)}` +
    `<circle class="ec-mark" cx="${x * 60}" cy="${y * 60}" r="10" fill="none" stroke="#e0218a" stroke-width="4"/>` +
    `<rect x="0" y="0" width="60" height="60" fill="none" stroke="#333" stroke-width="1.5"/></svg>`;
}

// ---------------------------------------------------------------- the editor

// what the tablet has drafted so far (kept across redraws; new for each card)
let draft = newDraft();

function editor(i18n, verb, needsLand, act, redraw) {
  if (draft.phase !== verb || draft.needsLand !== needsLand) draft = newDraft(verb, needsLand);
  const shapes = shapesOf(draft);
  draft.topology = Math.min(draft.topology, shapes.length - 1);
  const regions = regionsOf(draft);
  draft.counts = regions.map((_, i) => draft.counts[i] ?? 0);
  const text = textOf(draft);
  const change = (fn) => () => { fn(); redraw(); };
  const edges = svgBox("div.ec-edges", {}, edgeDrawing(i18n, draft, regions));
  const toggle = (event) => {
    const edge = event.target.closest?.("[data-edge]");
    if (!edge) return;
    event.preventDefault();
    toggleEdge(draft, SIDES.indexOf(edge.getAttribute("data-edge")));
    redraw();
  };
  edges.addEventListener("click", toggle);
  edges.addEventListener("keydown", (event) => { if (event.key === "Enter" || event.key === " ") toggle(event); });
  const shapeButtons = shapes.map((shape, i) => h(`button.ec-entry-card${i === draft.topology ? ".chosen" : ""}`, {
    type: "button", "data-topology": describe(shape), "aria-pressed": i === draft.topology ? "true" : "false",
    "aria-label": i18n.t("ec.drawing_n", { n: i + 1 }), onclick: change(() => pickShape(draft, i)),
  }, svgBox("span.ec-pic", {}, cardPicture(describe(shape)))));
  const add = (kind, key, picture) => h("button.secondary.ec-add-inside", {
    type: "button", "data-add-inside": LETTER[kind], disabled: !canAddInside(draft, kind), onclick: change(() => addInside(draft, kind)),
  }, svgBox("span.ec-pic.small", {}, cardPicture(picture)), `+ ${i18n.t(key)}`);
  const firstInside = regions.length - draft.inside.length;
  const counters = regions.map((r, i) => {
    const less = canStep(draft, i, -1);
    const more = canStep(draft, i, 1);
    const removable = i >= firstInside;
    if (draft.phase === "start" && !removable) return null; // the start card has no gold or fish
    return h("div.ec-counter", { "data-region": i },
      svgBox("span.ec-pic.small", {}, markedPicture(text, i)),
      draft.phase === "start" ? null : [
        h("span", {}, i18n.t(r.kind === 0 ? "ec.gold_here" : "ec.fish_here")),
        h("button.secondary", { type: "button", "data-less": i, disabled: !less, "aria-label": "−", onclick: change(() => step(draft, i, -1)) }, "−"),
        h("strong", { "data-count": i }, String(draft.counts[i])),
        h("button.secondary", { type: "button", "data-more": i, disabled: !more, "aria-label": "+", onclick: change(() => step(draft, i, 1)) }, "+")],
      removable ? h("button.secondary", { type: "button", "data-remove-inside": i, onclick: change(() => removeInside(draft, i)) },
        `✕ ${i18n.t(r.kind === 0 ? "ec.remove_islet" : "ec.remove_lake")}`) : null);
  });
  return h("div.ec-editor", { id: "ec-editor", "data-text": text },
    h("h4", {}, i18n.t(verb === "start" ? "ec.describe_start" : "ec.describe")),
    h("p.muted", {}, i18n.t("ec.tap_edges")),
    edges,
    h("p.muted", {}, i18n.t("ec.pick_topology")),
    h("div.ec-market-row", {}, shapeButtons),
    h("p.muted", {}, i18n.t("ec.inside")),
    h("div.ec-buttons", {}, add(1, "ec.add_lake", "LNESW+S"), add(0, "ec.add_islet", "SNESW+L")),
    counters,
    h("div.ec-buttons.ec-enter-row", {},
      svgBox("span.ec-pic", {}, cardPicture(text)),
      h("button.primary", { type: "button", "data-enter": text, onclick: () => { act(`${verb} ${text}`); draft = newDraft(verb, needsLand); } },
        i18n.t("ec.enter_this_card"))));
}

/** One drawn button per chance step ("reveal ID" or a description): the card's picture, with
 * a catalogue its id (the label its owner gave it), never a description's notation. */
function choiceButtons(i18n, chance, cardsById, act, left = new Map()) {
  return chance.map((text, i) => {
    const arg = text.split(" ")[1];
    const known = cardsById.get(arg);
    const description = known ?? arg;
    const n = left.get(arg);
    return h("button.ec-entry-card", { type: "button", "data-action": text, "aria-label": known ? arg : i18n.t("ec.drawing_n", { n: i + 1 }), onclick: () => act(text) },
      svgBox("span.ec-pic", {}, cardPicture(description)), known ? h("span.small", {}, arg) : null,
      n !== undefined ? h("span.small.ec-left", { "data-left": n }, i18n.t("ec.copies_left", { n })) : null);
  });
}

/** The start card's prompt on the table: the cards it may be, drawn, one tap each (a few; with
 * more, the first of them and a tap that leads to the rest), and a tap to describe another. */
export function promptChoices(i18n, game, chance, cardsById, act, left = new Map()) {
  if (!chance.length) return null;
  const shown = chance.slice(0, 6);
  const more = () => {
    const target = document.querySelector("#ec-editor, #ec-entry");
    target?.scrollIntoView({ block: "start", behavior: "smooth" });
    target?.querySelector("[data-edge], button")?.focus({ preventScroll: true });
  };
  return h("div.ec-prompt-cards", { id: "ec-prompt-cards" }, choiceButtons(i18n, shown, cardsById, act, left),
    h("button.secondary.ec-describe-other", { type: "button", "data-describe": "1", onclick: more },
      i18n.t(game.catalogue ? "ec.other_cards" : "ec.describe_other")));
}

/** `chance`: the legal chance steps ("reveal ID"); `cardsById` the catalogue's descriptions;
 * `options` the game's (start_card_needs_land); `left` each catalogue card's copies still face
 * down (shown on its button). */
export function entryView(i18n, game, chance, cardsById, act, redraw, options = {}, left = new Map()) {
  const verb = game.phase;
  const free = !game.catalogue; // no catalogue: any description the players read off the card
  const needsLand = options.start_card_needs_land ?? true;
  return h("section.ec-entry", { id: "ec-entry" }, h("h3", {}, i18n.t(`ec.prompt.${verb}`)),
    free ? editor(i18n, verb, needsLand, act, redraw) : null,
    free ? h("p.muted", {}, i18n.t("ec.common_shapes")) : null,
    h("div.ec-market-row", {}, choiceButtons(i18n, chance, cardsById, act, left)));
}
