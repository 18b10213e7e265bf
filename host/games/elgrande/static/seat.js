// El Grande on a player's own page (the plugin's renderSeat): their hand of power cards, their
// secret discs, their own choices when it is their turn, the map, every player's scores and
// this round's cards, and the log.

import { fill, h } from "/static/js/dom.js";
import { logList } from "/static/js/gamelog.js";
import { boardSvg, keepNamesClear, onBoardTap, READABLE, unitsPerPx } from "./board.js";
import { renderChoices, takenCard } from "./choices.js";
import { areasOf, parse } from "./notation.js";
import { promptFor, promptNodes } from "./prompt.js";
import { whyNotOffered } from "./whynot.js";
import { powerCardsView, roundCards, scoresTable } from "./roundview.js";

// The area tapped with several actions on it, and the last render's context (taps, resizes).
const local = { focusArea: null, ctx: null, parts: null, drawn: null };

const legalOf = (state) => state.legal ?? state.game?.legal ?? [];

function act(text) {
  local.focusArea = null;
  return local.ctx.act(text);
}

export function renderSeat(ctx, parts) {
  const { state, i18n } = ctx;
  const game = state.game;
  const me = state.seat ?? game.viewer;
  local.ctx = ctx;
  local.parts = parts;
  wire(parts.board);
  const legal = legalOf(state);
  const mineTurn = legal.length > 0;
  fill(parts.prompt, mineTurn ? h("span.phase", {}, i18n.t("ui.your_turn")) : null,
    h("span.prompt-text", { id: "prompt-text" }, promptNodes(i18n, promptFor(state))),
    h("span.not-offered", { id: "not-offered", role: "status", "aria-live": "polite" }));
  parts.prompt.classList.toggle("my-turn", mineTurn);
  const step = game.step;
  fill(
    parts.mine,
    checkAtTable(i18n, state.checks),
    game.turn?.player === me ? takenCard(i18n, game) : null,
    step?.my_disc ? h("p.my-disc", { "data-my-disc": step.my_disc }, i18n.t("ui.my_disc", { area: i18n.area(step.my_disc) })) : null,
    step?.step === "disc" && step.set?.includes(me) && !legal.length ? h("p.muted", {}, i18n.t("ui.disc_set")) : null,
  );
  // Power cards are shown as the hand below; everything else as grouped choices.
  const others = legal.filter((t) => parse(t).verb !== "power");
  if (others.length) {
    renderChoices(parts.choices, others, {
      i18n, game, data: i18n.data, onPick: act, focusArea: local.focusArea, disabled: Boolean(state.checks?.blocked),
      onClearFocus: () => { local.focusArea = null; ctx.rerender(); },
    });
  } else {
    fill(parts.choices, legal.length ? null : h("p.muted", {}, i18n.t("ui.nothing_to_do")));
  }
  fill(parts.undo, legal.length && state.can_undo
    ? h("button.secondary.undo", { type: "button", "data-undo": "1", onclick: () => ctx.undo({ type: "undo" }) }, `↶ ${i18n.t("ui.undo")}`)
    : null);
  renderHand(i18n, game, legal, Boolean(state.checks?.blocked), parts.hand);
  drawBoard(i18n, game, new Set(legal.flatMap((t) => areasOf(parse(t)))), parts.board);
  renderMe(i18n, game, me, parts.me);
  fill(
    parts.players,
    h("h2", {}, i18n.t("ui.players")),
    scoresTable(i18n, game),
    roundCards(i18n, game, "data-round-card"),
    powerCardsView(i18n, game) ?? h("p.muted", {}, i18n.t("ui.power_left_note")),
  );
  const entries = state.log ?? [];
  fill(
    parts.log,
    h("h2", {}, i18n.t("ui.log")),
    entries.length ? logList(i18n, entries, { plugin: ctx.plugin, limit: 60 }) : h("p.muted", {}, i18n.t("ui.log_empty")),
  );
}

/** While the table settles a throw check (play is stopped), the phone says so: its choices
 * are held until the table is done. */
function checkAtTable(i18n, checks) {
  const settling = checks?.blocked || checks?.issues?.length || checks?.scoring_check;
  if (!settling) return null;
  return h("p.check-at-table", { id: "check-at-table", role: "status" },
    h("span.hourglass", { "aria-hidden": "true" }),
    i18n.t(checks.scoring_check && !checks.issues?.length ? "ui.scoring_check_at_table" : "ui.check_at_table"));
}

/** Taps on the map; the map drawn again for a turned phone or a new width. */
function wire(board) {
  if (board.dataset.wired === "elgrande-seat") return;
  board.dataset.wired = "elgrande-seat";
  onBoardTap(board, (area) => {
    const matching = legalOf(local.ctx?.state ?? {}).filter((t) => areasOf(parse(t)).includes(area));
    if (matching.length === 1) act(matching[0]);
    else if (matching.length > 1) {
      local.focusArea = area;
      local.ctx.rerender();
    }
  }, (area) => {
    const note = local.parts?.prompt?.querySelector("#not-offered");
    if (!local.ctx?.state?.game || !note) return;
    fill(note, whyNotOffered(local.ctx.i18n, local.ctx.state, area));
    note.dataset.area = area ?? "";
  });
  new ResizeObserver(() => {
    const drawn = local.drawn;
    if (!drawn || !board.querySelector("svg.board")) return;
    if (board.dataset.drawnFor !== `${board.clientWidth}x${board.clientHeight}`) drawBoard(drawn.i18n, drawn.game, drawn.taps, board);
  }).observe(board);
}

/** The map as wide as the page, its text drawn readable on a phone (>= 12 px on the screen). */
function drawBoard(i18n, game, taps, board) {
  board.innerHTML = boardSvg(game, { i18n, data: i18n.data, lit: taps, taps, k: unitsPerPx(board), readable: READABLE.phone });
  keepNamesClear(board);
  board.dataset.drawnFor = `${board.clientWidth}x${board.clientHeight}`;
  local.drawn = { i18n, game, taps };
}

function renderHand(i18n, game, legal, blocked, root) {
  const playable = new Set(legal.map(parse).filter((a) => a.verb === "power").map((a) => Number(a.args[0])));
  const hand = new Set(game.hand ?? []);
  const discards = new Set(game.power_discards ?? []);
  const played = game.played?.[game.viewer];
  const cards = [];
  for (let v = 1; v <= 13; v++) {
    const takes = i18n.data?.power?.caballeros?.[v - 1];
    const status = playable.has(v) ? "playable" : played === v ? "played" : hand.has(v) ? "held" : discards.has(v) ? "used" : "gone";
    const attrs = { type: "button", "data-power": v, "data-status": status, disabled: !playable.has(v) || blocked };
    if (playable.has(v)) {
      attrs["data-action"] = `power ${v}`;
      attrs.onclick = () => act(`power ${v}`);
    }
    cards.push(
      h(`button.power-card.hand-card.${status}`, attrs,
        h("span.big", {}, String(v)),
        takes !== undefined ? h("span.small", {}, i18n.t("ui.power_takes", { k: takes })) : null,
        status === "played" ? h("span.small", {}, i18n.t("ui.hand_played")) : status === "used" ? h("span.small", {}, i18n.t("ui.hand_discarded")) : null),
    );
  }
  // Power Shift: the modifier cards in hand (secret: only this page shows them)
  const modifiers = game.options?.power_shift
    ? [h("h2", {}, i18n.t("ui.modifiers")), h("div.modifier-list", { id: "modifiers" },
      (game.modifier_hand ?? []).map((id) => h("span.tag", { "data-modifier": id, title: i18n.cardText(id) }, i18n.card(id))))]
    : null;
  fill(root, h("h2", {}, i18n.t("ui.hand")), h("div.hand-cards", {}, cards), modifiers);
}

function renderMe(i18n, game, me, root) {
  if (!me) return;
  fill(
    root,
    h("dl.facts", {},
      h("dt", {}, i18n.t("ui.score")), h("dd", {}, String(game.scores?.[me] ?? 0)),
      h("dt", {}, i18n.t("ui.court")), h("dd", {}, String(game.court?.[me] ?? 0)),
      h("dt", {}, i18n.t("ui.province")), h("dd", {}, String(game.province?.[me] ?? 0)),
      h("dt", {}, i18n.t("ui.grande")), h("dd", {}, game.grandes?.[me] ? i18n.area(game.grandes[me]) : "–"),
      h("dt", {}, i18n.t("ui.round")), h("dd", {}, String(game.round ?? ""))),
  );
}
