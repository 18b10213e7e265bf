// El Caballero's UI plugin (host/app/static/js/plugins.js). The tablet shows the growing map,
// the market, the power cards played this round, every court and each scoring's breakdown; a
// phone holds its player's power cards (only its own view carries them) and does the turn by
// tapping: a market card, a lit cell, turn it, place it; a cell or an own caballero card for
// caballero cards, ships and castillos; end the turn.

import { capitalise, fill, h, stylesheet } from "/static/js/dom.js";
import { getJson } from "/static/js/net.js";
import { verbsOf } from "/static/js/verbs.js";
import { confirmDialog } from "/static/js/confirm.js";
import { facingRegions, LAND, mapOf, mapSvg, MIN_FONT } from "./map.js";
import { labelsOfRegions, regionName } from "./labels.js";
import { sortLegal } from "./moves.js";
import { courts, dot, marketView, powerPlayed, roundLine, scoringButtons, scoringDialog, scoringsView, svgBox, syntheticBadge } from "./panels.js";
import { courtTrims, lostCells, placedMap, previewView, tryPlacement } from "./preview.js";
import { entryView, promptChoices } from "./entry.js";
import { knightLoss, reinforceLoss } from "./court.js";
import * as log from "./log.js";

// the stylesheet is loaded before the first drawing: a page that moves under a tap misplaces it
const [rules, catalogue] = await Promise.all([
  getJson("/api/elcaballero/rules").catch(() => null),
  getJson("/api/elcaballero/catalogue").catch(() => null),
  stylesheet("/games/elcaballero/plugin.css"),
]);
const synthetic = new Map((catalogue?.cards ?? []).map((c) => [c.id, c.text]));
const syntheticCounts = new Map((catalogue?.cards ?? []).map((c) => [c.id, c.count ?? 1]));
let cardsById = synthetic; // the game's catalogue: id → description
let counts = syntheticCounts; // id → copies in the box

/** The cards of the game's catalogue: a catalogue file's come with the game's options
 * (`catalogue_cards`: "ID COUNT DESCRIPTION"), the SYNTHETIC set's from the route above. */
function useCatalogue(state) {
  const entries = state?.options?.catalogue_cards;
  if (!Array.isArray(entries) || !entries.length) {
    [cardsById, counts] = [synthetic, syntheticCounts];
    return;
  }
  const rows = entries.map((e) => String(e).split(" ")).filter((p) => p.length === 3);
  cardsById = new Map(rows.map(([id, , text]) => [id, text]));
  counts = new Map(rows.map(([id, n]) => [id, Number(n)]));
}

/** Each catalogue card's copies not yet turned up: the box's count less those on the map
 * and in the market (what the table's entry offers is counted against the catalogue). */
function copiesLeft(game) {
  if (!game.catalogue) return new Map();
  const left = new Map(counts);
  for (const card of [...(game.areas ?? []), ...(game.market ?? [])]) {
    if (card.id && left.has(card.id)) left.set(card.id, left.get(card.id) - 1);
  }
  return left;
}

// what this page has tapped so far (a market slot, a cell, the rotation tried; a focused cell)
const sel = { slot: null, cell: null, rot: 0, focus: null };
let last = null; // the last render's arguments: local taps draw again with them

const rerender = () => last && last.draw(last.ctx, last.parts);

let seenRev = null; // the state revision the taps were made on

/** Start afresh on a new state (after a placement the market's slots shift); keep only what
 * the legal actions still allow. */
function validate(moves, rev) {
  if (rev !== seenRev) Object.assign(sel, { slot: null, cell: null, rot: 0, focus: null });
  seenRev = rev;
  if (sel.slot && !moves.areas.has(sel.slot)) Object.assign(sel, { slot: null, cell: null, rot: 0 });
  if (sel.cell && !moves.areas.get(sel.slot)?.has(sel.cell)) Object.assign(sel, { cell: null, rot: 0 });
  if (sel.focus && !moves.at.has(sel.focus)) sel.focus = null;
}

function promptLine(i18n, state, moves, act, page) {
  const game = state.game;
  const acting = (game.acting ?? []).filter((c) => c !== "chance");
  const mine = moves.all.length > 0 && state.role === "seat";
  let text;
  if (game.phase === "over") {
    text = i18n.t("ec.prompt.over", { scores: (game.players ?? []).map((p) => `${capitalise(i18n.colour(p.colour))} ${p.score}`).join(", ") });
  } else if (game.phase === "start" || game.phase === "reveal") {
    // the table enters the card turned up; a phone only waits for it
    text = i18n.t(page === "seat" ? `ec.prompt.${game.phase}_table` : `ec.prompt.${game.phase}`);
  } else if (game.phase === "power") {
    text = mine ? i18n.t("ec.prompt.power_mine") : i18n.t("ec.prompt.power", { who: acting.map((c) => capitalise(i18n.colour(c))).join(", ") });
  } else {
    const turn = game.turn ?? {};
    const counts = { areas: turn.areas ?? 0, due: turn.areas_due ?? 1, cards: turn.caballero_cards ?? 0 };
    text = moves.all.length
      ? i18n.t(mine ? "ec.prompt.turn_mine" : "ec.prompt.turn_table", { ...counts, who: acting.map((c) => capitalise(i18n.colour(c))).join(", ") })
      : i18n.t("ec.prompt.turn", { who: acting.map((c) => capitalise(i18n.colour(c))).join(", ") });
  }
  // the start card: what it may be, drawn, right under the question (a tap each)
  const choices = game.phase === "start" && page !== "seat" ? promptChoices(i18n, game, moves.chance, cardsById, act, copiesLeft(game)) : null;
  return [acting.length === 1 ? dot(acting[0]) : null, h("span.prompt-text", { id: "prompt-text" }, text), choices];
}

/** The phone's power cards: every value, the playable ones as taps (only this seat's view has
 * `hand`). */
function handView(i18n, game, me, moves, act) {
  const hand = new Set(game.hand ?? []);
  const playable = new Set(moves.power);
  const played = Object.entries(game.power_played ?? {}).find(([colour]) => colour === me)?.[1];
  const cards = Array.from({ length: 13 }, (_, i) => i + 1).map((v) => {
    const status = playable.has(v) ? "playable" : v === played ? "played" : hand.has(v) ? "held" : "used";
    const attrs = { type: "button", "data-power": v, "data-status": status, disabled: !playable.has(v) };
    if (playable.has(v)) {
      attrs["data-action"] = `power ${v}`;
      attrs.onclick = () => act(`power ${v}`);
    }
    const takes = rules?.power_caballeros?.[v - 1];
    return h(`button.ec-hand-card.${status}`, attrs, h("span.big", {}, String(v)),
      takes !== undefined ? h("span.small", {}, i18n.t("ec.takes", { n: takes })) : null,
      v === rules?.two_area_cards ? h("span.small", {}, i18n.t("ec.two_areas")) : null);
  });
  return h("section.ec-hand", { id: "ec-hand" }, h("h3", {}, i18n.t("ec.hand")), h("div.ec-hand-row", {}, cards));
}

const sideName = (i18n, side) => i18n.t(`ec.side.${side}`);

/** Where a cell is, in the map's names: the islands it faces, else its seas ("Island B"). */
function placeName(i18n, game, cell) {
  const map = mapOf(game);
  const names = labelsOfRegions(map.regions);
  const around = facingRegions(map, cell);
  const islands = around.filter((r) => r.kind === LAND);
  return (islands.length ? islands : around).map((r) => regionName(i18n, r.kind === LAND, names[r.region] ?? "?")).join(", ") || i18n.t("ec.the_map");
}

function moveLabel(i18n, game, move) {
  const to = move.to ? placeName(i18n, game, move.to.replace(/[NESW]$/, "")) : "";
  const params = { side: sideName(i18n, move.side ?? "N"), n: move.number, to };
  return i18n.t(`ec.act.${move.kind}`, params);
}

/** The caballeros the acting player's power card brings ("?" when unknown). */
function reinforcements(game) {
  return rules?.power_caballeros?.[(game.power_played?.[(game.acting ?? [])[0]] ?? 0) - 1] ?? "?";
}

/** What a step costs the court above its price (EC-10): " · 3 caballeros lost: court full". */
function lossNote(i18n, lost) {
  return lost > 0 ? h("span.ec-court-loss", { "data-court-loss": lost }, ` · ${i18n.t("ec.court_loss", { n: lost })}`) : null;
}

/** End the turn; without the reinforcements taken (they are forfeited: EC-15) ask first. */
async function endTurn(ctx, moves) {
  const { state, i18n, act } = ctx;
  if (moves.reinforce && !state.options?.automatic_reinforcements) {
    const question = i18n.t("ec.confirm_done", { n: reinforcements(state.game) });
    if (!(await confirmDialog(i18n, question, i18n.t("ec.end_anyway")))) return;
  }
  act(moves.done);
}

/** Any legal action in words, for the fold of every action (never the notation). */
function anyLabel(i18n, game, text) {
  const [kind, a = "", b = ""] = text.split(" ");
  if (kind === "area") return i18n.t("ec.placing", { slot: a, where: placeName(i18n, game, b.slice(0, -1)), side: sideName(i18n, b.slice(-1)) });
  if (kind === "done") return i18n.t("ec.act.done");
  if (kind === "reinforce") return i18n.t("ec.act.reinforce", { n: reinforcements(game) });
  const move = sortLegal([text]).at.values().next().value?.[0];
  if (!move || !i18n.has(`ec.act.${kind}`)) return text;
  // the first argument is a cell, or a spot (a cell and a side)
  const cell = verbsOf("elcaballero").argKind(kind, 0) === "cell" ? a : a.slice(0, -1);
  return `${i18n.t("ec.at_cell", { where: placeName(i18n, game, cell) })}: ${moveLabel(i18n, game, move)}`;
}

/** What can be done at the focused cell (caballero cards, ships, castillos). */
function cellPanel(i18n, state, moves, act) {
  const game = state.game;
  const list = moves.at.get(sel.focus) ?? [];
  const colour = (game.acting ?? [])[0];
  return h("div.ec-panel", { id: "ec-cell-panel", "data-focus": sel.focus },
    h("h4", {}, i18n.t("ec.at_cell", { where: placeName(i18n, game, sel.focus) }),
      h("button.secondary.ec-close", { type: "button", "data-cancel": "1", onclick: () => { sel.focus = null; rerender(); } }, "✕")),
    h("div.ec-buttons", {}, list.map((move) =>
      h(`button.ec-move.${move.kind}`, { type: "button", "data-action": move.text, onclick: () => act(move.text) }, moveLabel(i18n, game, move),
        lossNote(i18n, knightLoss(state, rules, colour, move.text))))));
}

/** The area card tried at a cell: turn it among the legal ways, see what it changes (the
 * engine's preview, preview.js), place it. */
function placementPanel(i18n, state, moves, act, page) {
  const options = moves.areas.get(sel.slot).get(sel.cell);
  const choice = options[sel.rot % options.length];
  const trial = tryPlacement(state, page, choice.text, sel.slot, sel.cell, choice.side, rerender);
  return [h("div.ec-panel", { id: "ec-place-panel", "data-cell": sel.cell, "data-side": choice.side },
    h("h4", {}, i18n.t("ec.placing", { slot: sel.slot, where: placeName(i18n, state.game, sel.cell), side: sideName(i18n, choice.side) })),
    h("div.ec-buttons", {},
      options.length > 1 ? h("button.secondary", { type: "button", "data-rotate": "1", onclick: () => { sel.rot += 1; rerender(); } }, `⟳ ${i18n.t("ec.rotate")}`) : null,
      h("button.primary", { type: "button", "data-place": "1", "data-action": choice.text, onclick: () => act(choice.text) }, `✓ ${i18n.t("ec.place")}`),
      h("button.secondary", { type: "button", "data-cancel": "1", onclick: () => { Object.assign(sel, { cell: null, rot: 0 }); rerender(); } }, `✕ ${i18n.t("ec.cancel")}`)),
    previewView(i18n, state.game, trial),
    courtTrims(trial).map(({ colour, lost }) => h("p.ec-court-trim", { "data-court-trim": colour, "data-lost": lost },
      dot(colour), i18n.t("ec.court_trim", { who: capitalise(i18n.colour(colour)), n: lost })))), trial];
}

/** The acting player's controls (a phone, or the tablet acting for the player). */
function turnControls(ctx, moves, page) {
  const { state, i18n, act, send } = ctx;
  const game = state.game;
  const n = reinforcements(game);
  const colour = (game.acting ?? [])[0];
  const bar = h("div.ec-bar", {},
    moves.reinforce ? h("button.secondary", { type: "button", "data-action": moves.reinforce, onclick: () => act(moves.reinforce) },
      i18n.t("ec.act.reinforce", { n }), lossNote(i18n, typeof n === "number" ? reinforceLoss(state, rules, colour, n) : 0)) : null,
    moves.done ? h("button.primary", { type: "button", id: "ec-done", "data-action": moves.done, onclick: () => endTurn(ctx, moves) }, i18n.t("ec.act.done")) : null,
    state.can_undo ? h("button.secondary", { type: "button", "data-undo": "1", onclick: () => send({ type: "undo" }) }, `↶ ${i18n.t("ui.undo")}`) : null);
  const hint = moves.areas.size && !sel.slot ? h("p.ec-hint", {}, i18n.t("ec.hint_market")) : sel.slot && !sel.cell ? h("p.ec-hint", {}, i18n.t("ec.hint_cell")) : null;
  let panel = null;
  let trial = null;
  if (sel.slot && sel.cell) [panel, trial] = placementPanel(i18n, state, moves, act, page);
  else if (sel.focus) panel = cellPanel(i18n, state, moves, act);
  const all = h("details.ec-all", {}, h("summary", {}, i18n.t("ec.all_actions")),
    h("div.ec-buttons", {}, moves.all.map((text) => h("button.secondary.ec-any", { type: "button", "data-any": text, onclick: () => (text === moves.done ? endTurn(ctx, moves) : act(text)) }, anyLabel(i18n, game, text)))));
  return { controls: h("div.ec-controls", { id: "ec-controls" }, bar, hint, panel, all), trial };
}

function tapCell(cell, moves) {
  if (sel.slot) {
    if (!moves.areas.get(sel.slot)?.has(cell)) return;
    if (sel.cell === cell) sel.rot += 1;
    else Object.assign(sel, { cell, rot: 0 });
  } else if (moves.at.has(cell)) sel.focus = cell;
  rerender();
}

function pickSlot(slot) {
  Object.assign(sel, { slot: sel.slot === slot ? null : slot, cell: null, rot: 0, focus: null });
  rerender();
}

// The map's zoom: `scale` screen px per map unit (null: automatic), the scroll position kept
// across redraws, and what the last drawing needs to lay itself out again.
const zoom = { scale: null, scroll: null, game: null, box: null, page: null };
const STEP_ZOOM = 1.25;

/** The smallest scale at which the map's smallest text is readable: 14 px on a tablet, 11 px on
 * a phone (a little above, so rounding never takes it under). */
function readableScale() {
  return (innerWidth < 700 ? 11.5 : 14.5) / MIN_FONT;
}

/** How tall the map's box may be: on the table what the board's slot leaves (the page is one
 * screen, `layout` below), on a phone most of the screen. */
function boxHeight(box, page) {
  if (page === "seat") return Math.max(240, Math.round(innerHeight * 0.62));
  const below = [...(box.parentElement?.children ?? [])].filter((el) => el !== box && !el.classList.contains("ec-zoom"))
    .reduce((sum, el) => sum + el.offsetHeight + 6, 0);
  const slot = box.closest("#board");
  if (slot && document.body.dataset.layout === "fit") return Math.max(200, Math.floor(slot.clientHeight - below - 4));
  const top = box.getBoundingClientRect().top + scrollY;
  return Math.max(260, Math.floor(innerHeight - top - below - 14));
}

/** The scale range: fit (the whole map in the box) to 4 × readable; automatic: the larger of
 * fit and readable (a small map fills its box, a large one stays readable and scrolls). */
function scales(box, svg, page) {
  const [w, h] = [Number(svg.dataset.w), Number(svg.dataset.h)];
  const pad = 12;
  const fit = Math.min((box.clientWidth - pad) / w, (boxHeight(box, page) - pad) / h);
  const readable = readableScale();
  return { w, h, fit, readable, min: Math.min(fit, readable), max: Math.max(fit, readable * 4), auto: Math.max(fit, readable) };
}

/** Lay the map out at the zoom's scale; keeps the point at the box's centre where it was (or
 * restores the kept scroll position, or centres a map drawn the first time). */
function layoutMap(keepCentre = false) {
  const box = zoom.box;
  const svg = box?.querySelector("svg");
  if (!box || !svg || !box.isConnected) return;
  const s = scales(box, svg, zoom.page);
  const scale = Math.min(s.max, Math.max(s.min, zoom.scale ?? s.auto));
  const before = keepCentre ? { x: (box.scrollLeft + box.clientWidth / 2) / svg.clientWidth, y: (box.scrollTop + box.clientHeight / 2) / svg.clientHeight } : null;
  svg.style.width = `${Math.round(s.w * scale)}px`;
  svg.style.height = `${Math.round(s.h * scale)}px`;
  box.style.height = `${Math.min(Math.round(s.h * scale) + 14, boxHeight(box, zoom.page))}px`;
  box.dataset.scale = scale.toFixed(3);
  box.dataset.fit = s.fit.toFixed(3);
  box.dataset.readable = s.readable.toFixed(3);
  box.dataset.drawnFor = `${innerWidth}x${innerHeight}`;
  if (before) {
    box.scrollLeft = before.x * svg.clientWidth - box.clientWidth / 2;
    box.scrollTop = before.y * svg.clientHeight - box.clientHeight / 2;
  } else if (zoom.scroll) {
    [box.scrollLeft, box.scrollTop] = zoom.scroll;
  } else {
    box.scrollLeft = (box.scrollWidth - box.clientWidth) / 2;
    box.scrollTop = (box.scrollHeight - box.clientHeight) / 2;
  }
  zoom.scroll = [box.scrollLeft, box.scrollTop];
}

function setZoom(scale) {
  zoom.scale = scale;
  layoutMap(true);
}

function currentScale() {
  return Number(zoom.box?.dataset.scale ?? readableScale());
}

addEventListener("resize", () => layoutMap(true));
// the board's slot changes size when the panels beside it do (a tab opened, the market refilled)
const slotWatch = typeof ResizeObserver === "function" ? new ResizeObserver(() => layoutMap(true)) : null;
let watched = null;

/** Two fingers on the map zoom it (one finger drags it: the box scrolls). */
function pinchable(box) {
  let start = null;
  const distance = (t) => Math.hypot(t[0].clientX - t[1].clientX, t[0].clientY - t[1].clientY);
  box.addEventListener("touchstart", (e) => {
    if (e.touches.length === 2) start = { d: distance(e.touches), scale: currentScale() };
  }, { passive: true });
  box.addEventListener("touchmove", (e) => {
    if (!start || e.touches.length !== 2) return;
    e.preventDefault();
    setZoom(start.scale * distance(e.touches) / Math.max(1, start.d));
  }, { passive: false });
  box.addEventListener("touchend", (e) => { if (e.touches.length < 2) start = null; });
}

/** The map with the taps this page may make on it, its zoom buttons and its legend. */
function mapView(i18n, state, moves, trial, page) {
  const game = state.game;
  if (zoom.game !== state.game_id) Object.assign(zoom, { scale: null, scroll: null, game: state.game_id });
  const targets = new Set(sel.slot ? moves.areas.get(sel.slot)?.keys() ?? [] : moves.at.keys());
  const box = svgBox("div.ec-map", { id: "ec-map" }, mapSvg(game, {
    targets, selected: sel.cell ?? sel.focus, ghost: trial?.ghost ?? null,
    after: trial ? placedMap(trial) : null, lost: trial ? lostCells(trial) : new Set(),
  }));
  box.addEventListener("click", (event) => {
    const target = event.target.closest?.("[data-cell]");
    if (target) tapCell(target.getAttribute("data-cell"), moves);
  });
  box.addEventListener("scroll", () => { if (zoom.box === box) zoom.scroll = [box.scrollLeft, box.scrollTop]; }, { passive: true });
  pinchable(box);
  Object.assign(zoom, { box, page });
  const button = (what, text, scale) => h("button.secondary", {
    type: "button", "data-zoom": what, title: i18n.t(`ec.zoom_${what}`), "aria-label": i18n.t(`ec.zoom_${what}`),
    onclick: () => setZoom(scale()),
  }, text);
  const buttons = h("div.ec-zoom", { id: "ec-zoom" },
    button("in", "+", () => currentScale() * STEP_ZOOM),
    button("out", "−", () => currentScale() / STEP_ZOOM),
    button("fit", "⤢", () => Number(box.dataset.fit)));
  const legend = game.areas?.length ? h("p.ec-map-legend", { id: "ec-map-legend" },
    h("span.ec-badge-demo.land", {}, "A·5"), i18n.t("ec.legend_island"), " ",
    h("span.ec-badge-demo.sea", {}, "≈1·3"), i18n.t("ec.legend_sea")) : null;
  return h("div.ec-map-wrap", {}, box, buttons, legend);
}

// the scorings this page has seen: a new one opens its breakdown once (not the ones a page
// opened on a running game already had)
const seen = { game: null, count: null };

function openScoring(ctx, index) {
  const { i18n } = ctx;
  const scoring = ctx.state.game.scorings?.[index];
  if (scoring && ctx.overlay) ctx.overlay.show((close) => scoringDialog(i18n, scoring, close));
}

function maybeShowScoring(ctx) {
  const count = ctx.state.game.scorings?.length ?? 0;
  if (seen.game !== ctx.state.game_id || seen.count === null || count < seen.count) {
    Object.assign(seen, { game: ctx.state.game_id, count });
    return;
  }
  if (count > seen.count) {
    seen.count = count;
    openScoring(ctx, count - 1);
  }
}

function chanceView(ctx, moves) {
  const { i18n, act, state } = ctx;
  if (!moves.chance.length) return null;
  return entryView(i18n, state.game, moves.chance, cardsById, act, rerender, state.options ?? {}, copiesLeft(state.game));
}

function draw(ctx, parts, page) {
  const { state, i18n, act } = ctx;
  useCatalogue(state);
  const game = state.game;
  const moves = sortLegal(state.legal ?? []);
  validate(moves, state.rev);
  const root = (el) => {
    el.dataset.phase = game.phase;
    el.dataset.round = String(game.round);
    el.dataset.acting = (game.acting ?? []).join(",");
    el.dataset.mine = moves.all.length ? "1" : "";
  };
  fill(parts.prompt, promptLine(i18n, state, moves, act, page));
  root(parts.prompt);
  const turn = game.phase === "turn" && moves.all.length ? turnControls(ctx, moves, page) : { controls: null, trial: null };
  const market = marketView(i18n, game, { playable: new Set(moves.areas.keys()), chosen: sel.slot, pick: turn.controls ? pickSlot : null });
  const map = mapView(i18n, state, moves, turn.trial, page);
  if (page === "seat") {
    // the hand on top while power cards are played, below the map during the turns
    const hand = game.hand ? handView(i18n, game, state.seat, moves, act) : null;
    const handFirst = game.phase === "power";
    fill(parts.choices, syntheticBadge(i18n, game), handFirst ? hand : null, turn.controls, market);
    fill(parts.board, map, handFirst ? null : hand, powerPlayed(i18n, game), courts(i18n, game), scoringsView(i18n, game));
  } else {
    fill(parts.choices, roundLine(i18n, game), scoringButtons(i18n, game, (i) => openScoring(ctx, i)), syntheticBadge(i18n, game),
      chanceView(ctx, moves), turn.controls, market, powerPlayed(i18n, game), courts(i18n, game));
    fill(parts.board, map);
    maybeShowScoring(ctx);
  }
  root(parts.board);
  if (slotWatch && watched !== parts.board) {
    slotWatch.observe(parts.board);
    watched = parts.board;
  }
  layoutMap();
}

/** The table is one screen (app.css, body[data-layout="fit"]): the map fills the board's slot
 * and zooms; the panels and the log scroll by themselves. */
export const layout = "fit";

/** A log line of the game's own: a scoring ("after round N"), an action as a sentence; null:
 * the shell's. */
export function logLine(i18n, e, ctx = {}) {
  if (e.kind === "scoring") {
    const round = /\d+/.exec(String(e.text))?.[0] ?? "";
    return i18n.t("ec.scoring_after", { round });
  }
  if ((e.kind ?? "action") === "action") return log.actionSentence(i18n, e, ctx, cardsById);
  return null;
}

export const logContext = log.logContext;

/** A step (a log line's `key`, `params`) as a phrase (the shell's undo line). */
export function logText(i18n, line, ctx = {}) {
  return log.logText(i18n, line, ctx, cardsById);
}

/** The shared table (the tablet). */
export function renderTable(ctx, parts) {
  last = { ctx, parts, draw: (c, p) => draw(c, p, "table") };
  draw(ctx, parts, "table");
}

/** A seat's own page (a phone). */
export function renderSeat(ctx, parts) {
  last = { ctx, parts, draw: (c, p) => draw(c, p, "seat") };
  draw(ctx, parts, "seat");
}
