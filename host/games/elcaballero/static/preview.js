// The placement preview: what an area card tried on the map would do, as the engine works it out
// (GET /api/preview or /api/seat/{token}/preview, docs/table-api.md "Previews"): the caballero
// cards it knocks off, each island it touches before and after, what courts lose above their
// capacity, and the map after it. Asked once the taps settle (a quick turn asks once); while
// the answer is on its way the last one stays on screen.

import { h } from "/static/js/dom.js";
import { getJson } from "/static/js/net.js";
import { SIDES } from "./map.js";
import { dot } from "./panels.js";

const SETTLE = 120; // ms without a new trial before the server is asked
const KEEP = 64; // answers kept for one state revision

const answers = new Map(); // action text → the engine's answer, for the revision `answersRev`
let answersRev = null;
let timer = null;
let asking = null; // the action text waiting for its answer (or for the taps to settle)
let lastAnswer = null; // the last answer drawn: shown (dimmed) while the next one comes

/** Where this page asks: the table's route, or a seat's own (its token ends the page's path). */
function previewPath(page) {
  if (page !== "seat") return "/api/preview";
  const token = location.pathname.split("/").filter(Boolean).pop() ?? "";
  return `/api/seat/${token}/preview`;
}

async function ask(page, text, rev, redraw) {
  let answer;
  try {
    answer = await getJson(`${previewPath(page)}?action=${encodeURIComponent(text)}`);
  } catch (err) {
    answer = { failed: true, reason: err?.reason ?? "" };
  }
  if (asking === text) asking = null;
  if (answersRev !== rev) return; // a newer state: its trials ask again
  if (answers.size >= KEEP) answers.clear();
  answers.set(text, answer);
  redraw();
}

/**
 * Market card `slot` tried at `cell`, its printed north facing `side` (the action `text`), on
 * the state `state` of this `page` ("table" or "seat"): {ghost, answer, shown, pending}. `ghost`
 * is the card to draw at once; `answer` the engine's (null until it comes: `redraw` runs then);
 * `shown` what the panel shows meanwhile (the last answer), `pending` whether it is stale.
 */
export function tryPlacement(state, page, text, slot, cell, side, redraw) {
  if (answersRev !== state.rev) {
    answers.clear();
    answersRev = state.rev;
    asking = null;
  }
  const ghost = { cell, card: state.game.market[Number(slot) - 1].card, rotation: SIDES.indexOf(side) };
  const answer = answers.get(text) ?? null;
  if (answer) {
    lastAnswer = answer;
    return { ghost, answer, shown: answer, pending: false };
  }
  if (asking !== text) {
    asking = text;
    clearTimeout(timer);
    const rev = state.rev;
    timer = setTimeout(() => ask(page, text, rev, redraw), SETTLE);
  }
  return { ghost, answer: null, shown: lastAnswer, pending: true };
}

/** The map after the placement (the engine's), for mapSvg: null until the answer is in. */
export function placedMap(trial) {
  return trial.answer?.legal ? trial.answer.map : null;
}

/** The cells of the caballero cards the placement knocks off (none known yet: empty). */
export function lostCells(trial) {
  return new Set(trial.answer?.legal ? trial.answer.lost : []);
}

/** The courts the placement trims: [{colour, lost}] (the last answer's while one comes). */
export function courtTrims(trial) {
  return trial.shown?.legal ? trial.shown.courts : [];
}

function rankingText(i18n, island) {
  const order = island.ranking.map(([colours, n]) => h("span.ec-chip", {}, colours.map((c) => dot(c)), String(n)));
  return [i18n.t("ec.island_size", { cards: island.cards, gold: island.gold }), " ", order.length ? order : i18n.t("ec.nobody")];
}

function refusalText(i18n, answer) {
  const refusal = answer.refusal ?? {};
  return refusal.key && i18n.has(refusal.key) ? i18n.t(refusal.key, refusal.params ?? {}) : refusal.reason ?? "";
}

export function previewView(i18n, game, trial) {
  const answer = trial.shown;
  const attrs = { id: "ec-preview", "data-pending": trial.pending ? "1" : "" };
  if (!answer) return h("div.ec-preview", attrs, h("p.muted", {}, "…"));
  if (answer.failed) return h("div.ec-preview", attrs, h("p.muted", {}, i18n.t("ec.preview_failed")));
  if (!answer.legal) return h("div.ec-preview", attrs, h("p.muted", {}, refusalText(i18n, answer)));
  const owner = (cell) => game.caballeros.find((c) => c.cell === cell)?.owner;
  return h("div.ec-preview", attrs,
    answer.lost.length
      ? h("p.ec-lost-list", {}, i18n.t("ec.knocks_off"), " ", answer.lost.map((cell) => h("span.ec-chip", { "data-knocked": cell }, dot(owner(cell)), cell)))
      : h("p.muted", { "data-knocked": "" }, i18n.t("ec.knocks_none")),
    answer.islands.map((island) => h("p.ec-change", {},
      h("strong", {}, i18n.t("ec.after")), " ", rankingText(i18n, island.after),
      island.before.length ? [" · ", h("em", {}, i18n.t("ec.before")), " ", island.before.map((w, i) => [i ? " + " : "", rankingText(i18n, w)])] : null)));
}
