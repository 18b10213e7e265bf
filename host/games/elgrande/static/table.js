// El Grande on the shared table (the plugin's renderTable): the round track, the prompt, the
// board, the choices, the players, the cards and the castillo, the scoring pop-up, and the
// scoring and chart tabs.

import { COLOURS } from "/static/js/colours.js";
import { capitalise, fill, h } from "/static/js/dom.js";
import { boardSvg, keepNamesClear, onBoardTap, READABLE, unitsPerPx } from "./board.js";
import { checklistView } from "./checklist.js";
import { renderChoices } from "./choices.js";
import { areasOf, parse } from "./notation.js";
import { colourName, swatched } from "./colournames.js";
import { badgeKey, promptNodes, promptFor } from "./prompt.js";
import { whyNotOffered } from "./whynot.js";
import { powerCardsView, roundCards } from "./roundview.js";
import { scoreChart, scoringView } from "./scoring.js";

// What the table page holds between two states: the area tapped with several actions on it,
// the scorings already shown (per game), and the last render's context (taps, resizes).
const local = { focusArea: null, seen: { game: null, count: null }, ctx: null, parts: null };

/** The colours with caballeros in play: the players and, with 2 players, the dummy. */
export function inPlay(game) {
  return game.dummy ? [...game.players, game.dummy] : game.players;
}

function act(text) {
  local.focusArea = null;
  return local.ctx.act(text);
}

export function renderTable(ctx, parts) {
  const { state, i18n } = ctx;
  const game = state.game;
  local.ctx = ctx;
  local.parts = parts;
  wire(parts.board);
  renderRoundTrack(i18n, game, parts.track);
  renderPrompt(i18n, state, parts.prompt);
  renderBoard(ctx, parts.board);
  renderChoicesPane(ctx, parts);
  renderPlayers(i18n, game, parts.players);
  renderCards(i18n, game, parts.cards);
  maybeShowScoring(ctx, game);
}

/** The dealer's set-up checklist, above the throw checks. */
export function tableNotices(ctx) {
  return checklistView(ctx.i18n, ctx.state, ctx.rerender);
}

/** The scoring and chart tabs, beside the shell's log, seats and tower. */
export function tableTabs(ctx) {
  const { state, i18n } = ctx;
  const game = state.game;
  return [
    {
      key: "scoring",
      label: i18n.t("ui.scoring"),
      render: (body) => fill(body, game.scorings?.length
        ? [...game.scorings].reverse().map((s) => scoringView(i18n, s, game.players))
        : h("p.muted", {}, i18n.t("score.none_yet"))),
    },
    {
      key: "chart",
      label: i18n.t("ui.chart"),
      render: (body) => {
        body.innerHTML = `<h3>${i18n.t("score.chart_title")}</h3>${scoreChart(i18n, game)}`;
        body.append(h("div.legend", {}, game.players.map((p) =>
          h("span.mini", {}, colourName(i18n, p), ` ${game.scores[p]}`))));
      },
    },
  ];
}

/** Taps on the map and a board drawn again for its new size (a turned tablet, a panel). */
function wire(board) {
  if (board.dataset.wired === "elgrande-table") return;
  board.dataset.wired = "elgrande-table";
  onBoardTap(board, onArea, onOtherTap);
  new ResizeObserver(() => {
    if (!local.ctx?.state?.game || !board.querySelector("svg.board")) return;
    if (board.dataset.drawnFor !== `${board.clientWidth}x${board.clientHeight}`) renderBoard(local.ctx, board);
  }).observe(board);
}

function onArea(area) {
  const legal = local.ctx?.state?.legal ?? [];
  const matching = legal.filter((t) => areasOf(parse(t)).includes(area));
  if (matching.length === 1) {
    act(matching[0]);
  } else if (matching.length > 1) {
    local.focusArea = area;
    renderChoicesPane(local.ctx, local.parts);
  }
}

function renderRoundTrack(i18n, game, track) {
  const scoringAfter = new Set(i18n.data?.scoring_after ?? [3, 6, 9]);
  const items = (game.rounds ?? []).map((r) =>
    h(
      `span.round${r === game.round ? ".current" : ""}${scoringAfter.has(r) ? ".scoring-round" : ""}`,
      { title: scoringAfter.has(r) ? i18n.t("ui.scoring_round") : "", "aria-current": r === game.round ? "step" : null },
      String(r),
    ),
  );
  fill(track, h("span.track-label", {}, i18n.t("ui.round")), items);
}

function renderPrompt(i18n, state, root) {
  const game = state.game;
  const acting = (game.acting ?? []).filter((c) => c !== "chance");
  const dot = acting.length === 1 ? h("span.dot", { style: { background: COLOURS[acting[0]] } }) : null;
  const badge = badgeKey(state);
  fill(
    root,
    h("span.phase", { "data-badge": badge }, i18n.t(badge)),
    dot,
    h("span.prompt-text", { id: "prompt-text" }, promptNodes(i18n, promptFor(state))),
    h("span.not-offered", { id: "not-offered", role: "status", "aria-live": "polite" }),
  );
  root.dataset.phase = game.phase;
}

/** A tap on the map that does nothing now: why, near the prompt (until the next state). */
function onOtherTap(area) {
  const ctx = local.ctx;
  const note = local.parts?.prompt?.querySelector("#not-offered");
  if (!ctx?.state?.game || !note) return;
  const why = whyNotOffered(ctx.i18n, ctx.state, area);
  fill(note, why);
  note.dataset.area = area ?? "";
}

function renderBoard({ state, i18n }, board) {
  const game = state.game;
  const lit = new Set([
    ...(state.highlights ?? []).map((x) => (typeof x === "string" ? x : x.area)),
    ...(game.highlight ?? []),
  ]);
  const taps = new Set();
  for (const text of state.legal ?? []) for (const a of areasOf(parse(text))) taps.add(a);
  // the board's text is drawn for the size the board gets on this screen
  const fills = getComputedStyle(board).getPropertyValue("--board-fill").trim() === "1";
  const k = unitsPerPx(board, fills);
  // a table page on a phone-sized screen is read in the hand, like a seat's page
  const readable = fills || board.clientWidth >= 600 ? READABLE.table : READABLE.phone;
  board.innerHTML = boardSvg(game, { i18n, data: i18n.data, lit, taps, k, readable });
  keepNamesClear(board);
  board.dataset.drawnFor = `${board.clientWidth}x${board.clientHeight}`;
}

function renderChoicesPane(ctx, parts) {
  const { state, i18n } = ctx;
  const game = state.game;
  const legal = state.legal ?? [];
  const acting = state.acting_as;
  if (acting === "chance" && legal.length) {
    fill(parts.acting, i18n.t("ui.acting_chance"));
  } else if (acting && legal.length) {
    fill(parts.acting, swatched(i18n, (words) => words.t("ui.acting_for", { colour: words.colour(acting) })));
  } else if (game.step?.step === "disc") {
    fill(parts.acting, h("strong", {}, i18n.t("ui.choose_on_phone")));
  } else if (game.phase !== "over" && (game.acting ?? []).length) {
    const who = game.acting.filter((c) => c !== "chance");
    fill(parts.acting, who.length
      ? swatched(i18n, (words) => words.t("ui.waiting_for", { who: who.map((c) => words.colour(c)).join(", ") }))
      : "");
  } else {
    fill(parts.acting);
  }
  if (game.phase === "over") {
    fill(parts.choices, finalView(i18n, game));
  } else {
    renderChoices(parts.choices, legal, {
      i18n,
      game,
      data: i18n.data,
      onPick: act,
      focusArea: local.focusArea,
      onClearFocus: () => {
        local.focusArea = null;
        renderChoicesPane(local.ctx, local.parts);
      },
      disabled: Boolean(state.checks?.blocked),
    });
    if (legal.some((t) => areasOf(parse(t)).length)) {
      parts.choices.prepend(h("p.hint", {}, i18n.t("ui.tap_region")));
    }
  }
  const undo = state.acting_as ? { type: "undo", as: state.acting_as } : { type: "undo" };
  fill(
    parts.undo,
    state.can_undo
      ? h("button.secondary.undo", { type: "button", "data-undo": "1", onclick: () => ctx.undo(undo) }, `↶ ${i18n.t("ui.undo")}`)
      : null,
  );
}

function finalView(i18n, game) {
  const order = [...game.players].sort((a, b) => game.scores[b] - game.scores[a]);
  const best = game.scores[order[0]];
  const winners = order.filter((p) => game.scores[p] === best);
  return h(
    "div.final",
    {},
    h("h2", {}, i18n.t("ui.final")),
    h("p.winner", {}, swatched(i18n, (words) => words.t("ui.winner", { colour: winners.map((p) => words.colour(p)).join(", ") }))),
    h("ol", {}, order.map((p) => h("li", {}, h("span.swatch", { style: { background: COLOURS[p] } }), `${capitalise(i18n.colour(p))}: ${game.scores[p]}`))),
  );
}

function dummyRow(i18n, game) {
  const d = game.dummy;
  return h("tr.dummy", { "data-colour": d },
    h("th", { scope: "row" }, h("span.swatch", { style: { background: COLOURS[d] } }), `${capitalise(i18n.colour(d))} (${i18n.t("ui.dummy_player")})`),
    h("td.score", {}, "–"), h("td.court", {}, String(game.court[d] ?? 0)), game.province ? h("td.province", {}, String(game.province[d] ?? "–")) : null,
    h("td.hand", {}, String(game.hand_sizes?.[d] ?? "")), h("td.played", {}, game.played?.[d] ? String(game.played[d]) : "–"), h("td", {}, "–"));
}

function renderPlayers(i18n, game, root) {
  const acting = new Set(game.acting ?? []);
  const rows = game.players.map((p) =>
    h(
      `tr${acting.has(p) ? ".acting" : ""}`,
      { "data-colour": p },
      h(
        "th",
        { scope: "row" },
        h("span.swatch", { style: { background: COLOURS[p] } }),
        h("span.pname", {}, capitalise(i18n.colour(p))),
        game.first_player === p ? h("span.first", { title: i18n.t("ui.first_player") }, " ★") : null,
        game.vetoes?.some((v) => v.holder === p) ? h("span.veto", { title: i18n.t("ui.vetoes"), role: "img", "aria-label": i18n.t("ui.vetoes") }) : null,
      ),
      h("td.score", {}, String(game.scores[p])),
      h("td.court", {}, String(game.court[p])),
      game.province ? h("td.province", {}, String(game.province[p] ?? "–")) : null, // a closed castillo: not public
      h("td.hand", {}, String(game.hand_sizes?.[p] ?? "")),
      h("td.played", {}, game.played?.[p] ? String(game.played[p]) : "–"),
      h("td.grande", {}, game.grandes?.[p] ? i18n.area(game.grandes[p]) : "–"),
    ),
  );
  // the province's counts only where the game shows them (not public otherwise: no column of
  // dashes taking the room the players' names need)
  const columns = [["ui.score", "score"], ["ui.court", "court"], game.province ? ["ui.province", "province"] : null,
    ["ui.hand_size", "hand"], ["ui.played", "played"], ["ui.grande", "grande"]].filter(Boolean);
  fill(
    root,
    h(
      "div.table-wrap",
      {},
      h(
        "table.player-table",
        {},
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, i18n.t("ui.players")),
          columns.map(([k, col]) => h(`th.${col}`, { scope: "col" }, i18n.t(k))))),
        h("tbody", {}, rows, game.dummy ? dummyRow(i18n, game) : null),
      ),
    ),
  );
}

function renderCards(i18n, game, root) {
  const cards = (game.face_up ?? []).map((id) =>
    h("div.face-card", { "data-card": id }, h("span.card-name", {}, i18n.card(id)),
      i18n.data?.cards?.[id] ? h("span.card-place", {}, `▲ ${i18n.data.cards[id].place}`) : null),
  );
  const tiles = Object.entries(game.tiles ?? {}).map(([tile, where]) => h("span.tile", {}, `${tile} → ${i18n.area(where)}`));
  const castillo = game.castillo ?? {};
  const contents = castillo.contents
    ? Object.entries(castillo.contents).map(([c, n]) => h("span.mini", {}, h("span.swatch", { style: { background: COLOURS[c] } }), String(n)))
    : h("span.muted", {}, ` (${i18n.t("ui.castillo_secret")})`);
  fill(
    root,
    roundCards(i18n, game),
    cards.length ? h("div.card-strip", {}, h("h3", {}, i18n.t("ui.action_cards")), h("div.face-cards", {}, cards)) : null,
    powerCardsView(i18n, game),
    h(
      "div.facts",
      {},
      h("span.fact", { id: "castillo-total" }, `${capitalise(i18n.area("castillo"))}: `, h("strong", {}, String(castillo.total ?? 0)), contents),
      tiles.length ? h("span.fact", {}, `${i18n.t("ui.tiles")}: `, tiles) : null,
      game.king ? h("span.fact", {}, `${i18n.t("ui.king")}: ${i18n.area(game.king)}`) : null,
    ),
  );
}

/** A new scoring pops up once (not the ones a page opened on a running game already had). */
function maybeShowScoring(ctx, game) {
  const count = game.scorings?.length ?? 0;
  const seen = local.seen;
  if (seen.game !== ctx.state.game_id || seen.count === null || count < seen.count) {
    local.seen = { game: ctx.state.game_id, count };
    return;
  }
  if (count > seen.count) {
    seen.count = count;
    const latest = game.scorings[count - 1];
    const { i18n } = ctx;
    ctx.overlay.show((close) => h("div.dialog.scoring-dialog", { role: "dialog", "aria-modal": "true" },
      h("div.dialog-bar", {}, h("button.primary", { type: "button", "data-close": "1", onclick: close }, `✕ ${i18n.t("ui.close")}`)),
      scoringView(i18n, latest, game.players)));
  }
}
