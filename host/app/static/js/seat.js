// A player's private page (a phone): their hand of power cards, their secret discs, their own
// choices when it is their turn, in their language.

import { $, fill, h, renderTimed, toast } from "./dom.js";
import { i18n, LANGUAGES, loadGameData } from "./i18n.js";
import { boardSvg, COLOURS, loadMap, onBoardTap, READABLE, unitsPerPx } from "./board.js";
import { undoWithCare } from "./checks.js";
import { renderChoices, takenCard } from "./choices.js";
import { logList } from "./gamelog.js";
import { powerCardsView, roundCards, scoresTable } from "./roundview.js";
import { areasOf, parse } from "./notation.js";
import { capitalise, promptFor, promptText } from "./prompt.js";
import { Connection } from "./net.js";
import { gameTitle, pluginFor } from "./plugins.js";

const token = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() ?? "");
// Game data per edition, fetched once (the default edition's already while the page starts).
const gameData = new Map([["2023", loadGameData("2023")]]);
// plugin: the active game's UI plugin (null: El Grande, built into this page)
const ui = { state: null, rev: -1, conn: null, dataEdition: null, focusArea: null, plugin: null, drawn: null };

function showError(err) {
  toast(i18n.refusal(err), "error");
}

async function send(message) {
  try {
    return await ui.conn.send(message);
  } catch (err) {
    showError(err);
    return null;
  }
}

const act = (text) => {
  ui.focusArea = null;
  return send({ type: "action", text });
};

function legalOf(state) {
  return state.legal ?? state.game?.legal ?? [];
}

function render() {
  const state = ui.state;
  for (const el of document.querySelectorAll("[data-t]")) el.textContent = i18n.t(el.dataset.t);
  const select = $("#lang");
  if (!select.options.length) for (const l of LANGUAGES) select.append(h("option", { value: l }, l.toUpperCase()));
  select.value = i18n.lang;
  const game = state?.game;
  const me = state?.seat ?? game?.viewer;
  document.title = ui.title ? `${ui.title} — ${i18n.t("app.title")}` : i18n.t("app.title");
  if (me) {
    document.documentElement.style.setProperty("--me", COLOURS[me] ?? "#888");
    fill($("#who"), h("span.dot", { style: { background: COLOURS[me] } }), i18n.t("ui.you_are", { colour: i18n.colour(me) }));
  }
  if (!game) {
    fill($("#prompt"), i18n.t("ui.no_game"));
    return;
  }
  if (ui.plugin) {
    for (const id of ["#mine", "#undo-row", "#hand", "#me", "#seat-players", "#seat-log"]) fill($(id));
    ui.plugin.renderSeat({ state, i18n, act, send }, { prompt: $("#prompt"), choices: $("#choices"), board: $("#board") });
    return;
  }
  i18n.edition = game.edition ?? "2023";
  const legal = legalOf(state);
  const prompt = promptFor(state);
  const mineTurn = legal.length > 0;
  fill($("#prompt"), mineTurn ? h("span.phase", {}, i18n.t("ui.your_turn")) : null, h("span.prompt-text", { id: "prompt-text" }, promptText(i18n, prompt)));
  $("#prompt").classList.toggle("my-turn", mineTurn);
  const step = game.step;
  fill(
    $("#mine"),
    game.turn?.player === me ? takenCard(i18n, game) : null,
    step?.my_disc ? h("p.my-disc", { "data-my-disc": step.my_disc }, i18n.t("ui.my_disc", { area: i18n.area(step.my_disc) })) : null,
    step?.step === "disc" && step.set?.includes(me) && !legal.length ? h("p.muted", {}, i18n.t("ui.disc_set")) : null,
  );
  // Power cards are shown as the hand below; everything else as grouped choices.
  const others = legal.filter((t) => parse(t).verb !== "power");
  if (others.length) {
    renderChoices($("#choices"), others, {
      i18n, game, data: i18n.data, onPick: act, focusArea: ui.focusArea, disabled: Boolean(state.checks?.blocked),
      onClearFocus: () => { ui.focusArea = null; render(); },
    });
  } else {
    fill($("#choices"), legal.length ? null : h("p.muted", {}, i18n.t("ui.nothing_to_do")));
  }
  fill($("#undo-row"), legal.length && state.can_undo ? h("button.secondary.undo", { type: "button", "data-undo": "1", onclick: () => undoWithCare(i18n, state, send, { type: "undo" }) }, `↶ ${i18n.t("ui.undo")}`) : null);
  renderHand(game, legal, Boolean(state.checks?.blocked));
  const taps = new Set(legal.flatMap((t) => areasOf(parse(t))));
  drawBoard(game, taps);
  renderMe(game, me);
  renderTable(state, game);
}

/** Every player's score and this round's cards, and the game log (issue 11). */
function renderTable(state, game) {
  fill(
    $("#seat-players"),
    h("h2", {}, i18n.t("ui.players")),
    scoresTable(i18n, game),
    roundCards(i18n, game, "data-round-card"),
    powerCardsView(i18n, game) ?? h("p.muted", {}, i18n.t("ui.power_left_note")),
  );
  const entries = state.log ?? [];
  fill(
    $("#seat-log"),
    h("h2", {}, i18n.t("ui.log")),
    entries.length ? logList(i18n, entries, { limit: 60 }) : h("p.muted", {}, i18n.t("ui.log_empty")),
  );
}

/** The map as wide as the page, its text drawn readable on a phone (>= 12 px on the screen). */
function drawBoard(game, taps) {
  const board = $("#board");
  board.innerHTML = boardSvg(game, { i18n, data: i18n.data, lit: taps, taps, k: unitsPerPx(board), readable: READABLE.phone });
  board.dataset.drawnFor = `${board.clientWidth}x${board.clientHeight}`;
  ui.drawn = { game, taps };
}

function renderHand(game, legal, blocked) {
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
  fill($("#hand"), h("h2", {}, i18n.t("ui.hand")), h("div.hand-cards", {}, cards), modifiers);
}

function renderMe(game, me) {
  if (!me) return;
  fill(
    $("#me"),
    h("dl.facts", {},
      h("dt", {}, i18n.t("ui.score")), h("dd", {}, String(game.scores?.[me] ?? 0)),
      h("dt", {}, i18n.t("ui.court")), h("dd", {}, String(game.court?.[me] ?? 0)),
      h("dt", {}, i18n.t("ui.province")), h("dd", {}, String(game.province?.[me] ?? 0)),
      h("dt", {}, i18n.t("ui.grande")), h("dd", {}, game.grandes?.[me] ? i18n.area(game.grandes[me]) : "–"),
      h("dt", {}, i18n.t("ui.round")), h("dd", {}, String(game.round ?? ""))),
  );
}

// The last render durations (ms), read by the UI benchmark.

async function onState(state, rev) {
  const game = state.game_type ?? null;
  if ((state.lang && state.lang !== i18n.lang) || game !== i18n.game) await i18n.use(state.lang ?? i18n.lang, game);
  ui.plugin = await pluginFor(game);
  ui.title = await gameTitle(game);
  const edition = state.game?.edition ?? "2023";
  if (ui.dataEdition !== edition) {
    ui.dataEdition = edition;
    if (!gameData.has(edition)) gameData.set(edition, loadGameData(edition));
    i18n.data = await gameData.get(edition);
  }
  ui.state = state;
  ui.rev = rev ?? ui.rev;
  renderTimed(render, ui.rev);
}

async function main() {
  await Promise.all([i18n.use(navigator.language?.slice(0, 2) ?? "en"), loadMap()]);
  // a turned phone or a new width: the map's text is drawn again for its new size
  new ResizeObserver(() => {
    const board = $("#board");
    if (ui.plugin || !ui.drawn || !board.querySelector("svg.board")) return;
    if (board.dataset.drawnFor !== `${board.clientWidth}x${board.clientHeight}`) drawBoard(ui.drawn.game, ui.drawn.taps);
  }).observe($("#board"));
  onBoardTap($("#board"), (area) => {
    const legal = legalOf(ui.state ?? {});
    const matching = legal.filter((t) => areasOf(parse(t)).includes(area));
    if (matching.length === 1) act(matching[0]);
    else if (matching.length > 1) {
      ui.focusArea = area;
      render();
    }
  });
  $("#lang").addEventListener("change", async (event) => {
    await i18n.use(event.target.value);
    send({ type: "language", lang: event.target.value });
    render();
  });
  ui.conn = new Connection(`seat=${encodeURIComponent(token)}`, {
    onState,
    onHello: async (msg) => {
      if (msg.lang && msg.lang !== i18n.lang) await i18n.use(msg.lang);
    },
    onError: showError,
    onStatus: (status, reason) => {
      const conn = $("#conn");
      conn.hidden = status === "open";
      conn.textContent = status === "forbidden" ? revokedText(reason) : i18n.t("ui.disconnected");
      // a replaced or stale link shows nothing of the game any more
      if (status === "forbidden") document.querySelector("main").hidden = true;
    },
  });
}

/** Why the server closed this page's socket, in the page's language. */
function revokedText(reason) {
  if (reason === "replaced") return i18n.t("err.link_replaced");
  if (reason === "game_changed") return i18n.t("err.game_changed");
  return i18n.t("err.forbidden", { reason: "" });
}

main();
