// The shared table view: board, prompt, choices, players, cards, log, scoring, chart, seats,
// tower status and (in simulation) the dropper.

import { $, fill, h, renderTimed, toast } from "./dom.js";
import { i18n, LANGUAGES, loadGameData, gameStrings } from "./i18n.js";
import { boardSvg, COLOURS, loadMap, onBoardTap, READABLE, unitsPerPx } from "./board.js";
import { renderChoices } from "./choices.js";
import { powerCardsView, roundCards } from "./roundview.js";
import { areasOf, parse } from "./notation.js";
import { logList } from "./gamelog.js";
import { capitalise, promptFor, promptText } from "./prompt.js";
import { scoreChart, scoringView } from "./scoring.js";
import { getJson, postJson, Connection, tableToken } from "./net.js";
import { pairDevice } from "./pairing.js";
import { checklistView } from "./checklist.js";
import { confirmDialog } from "./confirm.js";
import { seatsView } from "./seats.js";
import { dropperView, towerEvents, towerWarning } from "./dropper.js";
import { checksView, undoWithCare } from "./checks.js";
import { newGameForm, optionTags, schemaTags } from "./lobby.js";
import { gameTitle, pluginFor } from "./plugins.js";

const ui = {
  state: null,
  rev: -1,
  tab: "log",
  focusArea: null,
  seenScorings: null,
  dataEdition: null,
  conn: null,
  lobbyOpen: false,
  network: null, // GET /api/info's `network`: how devices reach the app
  plugin: null, // the active game's UI plugin (null: El Grande, built into this page)
  overlayView: null, // builds the open scoring dialog (again, in a new language)
};

// ------------------------------------------------------------------ actions
async function send(message) {
  try {
    return await ui.conn.send(message);
  } catch (err) {
    showError(err);
    return null;
  }
}

function showError(err) {
  toast(i18n.refusal(err), "error");
}

function act(text) {
  ui.focusArea = null;
  const message = { type: "action", text };
  if (ui.state?.acting_as) message.as = ui.state.acting_as;
  return send(message);
}

// ------------------------------------------------------------------ rendering
function render() {
  const state = ui.state;
  document.title = ui.title ? `${ui.title} — ${i18n.t("app.title")}` : i18n.t("app.title");
  $(".brand").textContent = ui.title ?? i18n.t("app.title");
  translateStatic();
  // El Grande's table fits one screen (app.css, body[data-layout="fit"]); a plugin lays out its own
  document.body.dataset.layout = state?.game && !ui.plugin ? "fit" : "flow";
  renderTower(state);
  if (!state?.game) {
    fill($("#prompt"), i18n.t("ui.no_game"));
    for (const id of ["#checks", "#board", "#acting", "#choices", "#undo-row", "#players", "#cards"]) fill($(id));
    fill($("#round-track"));
    renderTabs(state);
    if (!ui.lobbyOpen) openLobby();
    return;
  }
  if (ui.plugin) {
    for (const id of ["#checks", "#acting", "#undo-row", "#players", "#cards", "#round-track"]) fill($(id));
    ui.plugin.renderTable({ state, i18n, act, send }, { prompt: $("#prompt"), choices: $("#choices"), board: $("#board") });
    renderTabs(state);
    return;
  }
  const game = state.game;
  i18n.edition = game.edition ?? "2023";
  renderRoundTrack(game);
  renderPrompt(state);
  fill($("#checks"), checklistView(i18n, state, render), checksView(i18n, state.checks, { send, players: onBoard(game) }));
  renderBoard(state);
  renderChoicesPane(state);
  renderPlayers(game);
  renderCards(game);
  renderTabs(state);
  maybeShowScoring(game);
}

function translateStatic() {
  for (const el of document.querySelectorAll("[data-t]")) el.textContent = i18n.t(el.dataset.t);
  const select = $("#lang");
  if (!select.options.length) {
    for (const lang of LANGUAGES) select.append(h("option", { value: lang }, lang.toUpperCase()));
  }
  select.value = i18n.lang;
}

function renderRoundTrack(game) {
  const scoringAfter = new Set(i18n.data?.scoring_after ?? [3, 6, 9]);
  const items = (game.rounds ?? []).map((r) =>
    h(
      `span.round${r === game.round ? ".current" : ""}${scoringAfter.has(r) ? ".scoring-round" : ""}`,
      { title: scoringAfter.has(r) ? i18n.t("ui.scoring_round") : "", "aria-current": r === game.round ? "step" : null },
      String(r),
    ),
  );
  fill($("#round-track"), h("span.track-label", {}, i18n.t("ui.round")), items);
}

function currentPrompt(state) {
  return promptText(i18n, promptFor(state));
}

function renderPrompt(state) {
  const game = state.game;
  const phase = i18n.t(`phase.${game.phase}`);
  const acting = (game.acting ?? []).filter((c) => c !== "chance");
  const dot = acting.length === 1 ? h("span.dot", { style: { background: COLOURS[acting[0]] } }) : null;
  fill(
    $("#prompt"),
    h("span.phase", {}, phase),
    dot,
    h("span.prompt-text", { id: "prompt-text" }, currentPrompt(state)),
  );
  $("#prompt").dataset.phase = game.phase;
}

function legalAreas(state) {
  const taps = new Set();
  for (const text of state.legal ?? []) for (const a of areasOf(parse(text))) taps.add(a);
  return taps;
}

function renderBoard(state) {
  const game = state.game;
  const lit = new Set([
    ...(state.highlights ?? []).map((x) => (typeof x === "string" ? x : x.area)),
    ...(game.highlight ?? []),
  ]);
  const taps = legalAreas(state);
  const board = $("#board");
  // the board's text is drawn for the size the board gets on this screen (ResizeObserver below)
  const fills = getComputedStyle(board).getPropertyValue("--board-fill").trim() === "1";
  const k = unitsPerPx(board, fills);
  // a table page on a phone-sized screen is read in the hand, like a seat's page
  const readable = fills || board.clientWidth >= 600 ? READABLE.table : READABLE.phone;
  board.innerHTML = boardSvg(game, { i18n, data: i18n.data, lit, taps, k, readable });
  board.dataset.drawnFor = `${board.clientWidth}x${board.clientHeight}`;
}

/** Draw the board again when its size changed since it was drawn (a turned tablet, a panel). */
function watchBoardSize() {
  const board = $("#board");
  new ResizeObserver(() => {
    if (!ui.state?.game || ui.plugin || !board.querySelector("svg.board")) return;
    if (board.dataset.drawnFor !== `${board.clientWidth}x${board.clientHeight}`) renderBoard(ui.state);
  }).observe(board);
}

function onArea(area) {
  const matching = (ui.state?.legal ?? []).filter((t) => areasOf(parse(t)).includes(area));
  if (matching.length === 1) {
    act(matching[0]);
  } else if (matching.length > 1) {
    ui.focusArea = area;
    renderChoicesPane(ui.state);
  }
}

function renderChoicesPane(state) {
  const game = state.game;
  const legal = state.legal ?? [];
  const acting = state.acting_as;
  const step = game.step;
  if (acting === "chance" && legal.length) {
    fill($("#acting"), i18n.t("ui.acting_chance"));
  } else if (acting && legal.length) {
    fill(
      $("#acting"),
      h("span.dot", { style: { background: COLOURS[acting] } }),
      i18n.t("ui.acting_for", { colour: capitalise(i18n.colour(acting)) }),
    );
  } else if (step?.step === "disc") {
    fill($("#acting"), h("strong", {}, i18n.t("ui.choose_on_phone")));
  } else if (game.phase !== "over" && (game.acting ?? []).length) {
    const who = game.acting.filter((c) => c !== "chance").map((c) => i18n.colour(c)).join(", ");
    fill($("#acting"), who ? i18n.t("ui.waiting_for", { who }) : "");
  } else {
    fill($("#acting"));
  }
  if (game.phase === "over") {
    fill($("#choices"), finalView(game));
  } else {
    renderChoices($("#choices"), legal, {
      i18n,
      game,
      data: i18n.data,
      onPick: act,
      focusArea: ui.focusArea,
      onClearFocus: () => {
        ui.focusArea = null;
        renderChoicesPane(ui.state);
      },
      disabled: Boolean(state.checks?.blocked),
    });
    if (legal.some((t) => areasOf(parse(t)).length)) {
      $("#choices").prepend(h("p.hint", {}, i18n.t("ui.tap_region")));
    }
  }
  fill(
    $("#undo-row"),
    state.can_undo
      ? h("button.secondary.undo", { type: "button", "data-undo": "1", onclick: () => undoWithCare(i18n, state, send, state.acting_as ? { type: "undo", as: state.acting_as } : { type: "undo" }) }, `↶ ${i18n.t("ui.undo")}`)
      : null,
  );
}

function finalView(game) {
  const order = [...game.players].sort((a, b) => game.scores[b] - game.scores[a]);
  const best = game.scores[order[0]];
  const winners = order.filter((p) => game.scores[p] === best).map((p) => capitalise(i18n.colour(p)));
  return h(
    "div.final",
    {},
    h("h2", {}, i18n.t("ui.final")),
    h("p.winner", {}, i18n.t("ui.winner", { colour: winners.join(", ") })),
    h("ol", {}, order.map((p) => h("li", {}, h("span.swatch", { style: { background: COLOURS[p] } }), `${capitalise(i18n.colour(p))}: ${game.scores[p]}`))),
  );
}

/** The colours with caballeros in play: the players and, with 2 players, the dummy. */
function onBoard(game) {
  return game.dummy ? [...game.players, game.dummy] : game.players;
}

function dummyRow(game) {
  const d = game.dummy;
  return h("tr.dummy", { "data-colour": d },
    h("th", { scope: "row" }, h("span.swatch", { style: { background: COLOURS[d] } }), `${capitalise(i18n.colour(d))} (${i18n.t("ui.dummy_player")})`),
    h("td.score", {}, "–"), h("td.court", {}, String(game.court[d] ?? 0)), h("td", {}, String(game.province?.[d] ?? "–")),
    h("td.hand", {}, String(game.hand_sizes?.[d] ?? "")), h("td.played", {}, game.played?.[d] ? String(game.played[d]) : "–"), h("td", {}, "–"));
}

function renderPlayers(game) {
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
      h("td", {}, String(game.province?.[p] ?? "–")), // closed castillo: not public
      h("td.hand", {}, String(game.hand_sizes?.[p] ?? "")),
      h("td.played", {}, game.played?.[p] ? String(game.played[p]) : "–"),
      h("td.grande", {}, game.grandes?.[p] ? i18n.area(game.grandes[p]) : "–"),
    ),
  );
  fill(
    $("#players"),
    h(
      "div.table-wrap",
      {},
      h(
      "table.player-table",
      {},
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          h("th", { scope: "col" }, i18n.t("ui.players")),
          [["ui.score", "score"], ["ui.court", "court"], ["ui.province", "province"], ["ui.hand_size", "hand"], ["ui.played", "played"], ["ui.grande", "grande"]].map(([k, col]) =>
            h(`th.${col}`, { scope: "col" }, i18n.t(k)),
          ),
        ),
      ),
      h("tbody", {}, rows, game.dummy ? dummyRow(game) : null),
      ),
    ),
  );
}

function renderCards(game) {
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
    $("#cards"),
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

// ------------------------------------------------------------------ tabs
function tabList(state) {
  const tabs = [["log", "ui.log"], ["scoring", "ui.scoring"], ["chart", "ui.chart"], ["seats", "ui.seats"]];
  if (state?.sim) tabs.push(["dropper", "ui.dropper"]);
  else tabs.push(["tower", "ui.tower"]);
  return tabs;
}

function renderTabs(state) {
  const tabs = tabList(state);
  if (!tabs.some(([k]) => k === ui.tab)) ui.tab = "log";
  fill(
    $("#tabs"),
    tabs.map(([key, label]) =>
      h(
        `button.tab${ui.tab === key ? ".active" : ""}`,
        { type: "button", role: "tab", "aria-selected": ui.tab === key ? "true" : "false", "data-tab": key, onclick: () => { ui.tab = key; renderTabs(ui.state); } },
        i18n.t(label),
      ),
    ),
  );
  const body = $("#tab-body");
  const game = state?.game;
  switch (ui.tab) {
    case "log":
      fill(body, logView(state));
      break;
    case "scoring":
      fill(body, game?.scorings?.length ? [...game.scorings].reverse().map((s) => scoringView(i18n, s, game.players)) : h("p.muted", {}, i18n.t("score.none_yet")));
      break;
    case "chart":
      body.innerHTML = game ? `<h3>${i18n.t("score.chart_title")}</h3>${scoreChart(i18n, game)}` : "";
      if (game) body.append(chartLegend(game));
      break;
    case "seats":
      fill(body, seatsView(i18n, state, { reissue, network: ui.network }));
      break;
    case "dropper":
      fill(body, dropperView(i18n, state, { send }), towerEvents(i18n, state));
      break;
    case "tower":
      fill(body, towerEvents(i18n, state));
      break;
    default:
      fill(body);
  }
}

function chartLegend(game) {
  return h("div.legend", {}, game.players.map((p) => h("span.mini", {}, h("span.swatch", { style: { background: COLOURS[p] } }), `${capitalise(i18n.colour(p))} ${game.scores[p]}`)));
}

function logView(state) {
  const game = state?.game;
  const entries = state?.log;
  if (entries?.length) return logList(i18n, entries, { plugin: ui.plugin });
  // No server log yet: the public events the view itself carries.
  const lines = [];
  for (const t of game?.throws ?? []) {
    lines.push(h("li", {}, h("span.log-round", {}, String(t.round)), h("span.swatch", { style: { background: COLOURS[t.by] } }),
      i18n.t("ui.throw_line", { by: capitalise(i18n.colour(t.by)), count: t.count, colour: i18n.colour(t.colour), round: t.round })));
  }
  for (const s of game?.scorings ?? []) {
    lines.push(h("li", {}, h("span.log-round", {}, String(s.round)), i18n.t("log.scoring", { text: s.kind === "general" ? i18n.t("score.general", { round: s.round }) : i18n.card(s.kind) })));
  }
  return lines.length ? h("ol.log", {}, lines.reverse()) : h("p.muted", {}, i18n.t("ui.log_empty"));
}

// ------------------------------------------------------------------ scoring pop-up
function maybeShowScoring(game) {
  const count = game.scorings?.length ?? 0;
  if (ui.seenScorings === null || count < ui.seenScorings) {
    ui.seenScorings = count;
    return;
  }
  if (count > ui.seenScorings) {
    ui.seenScorings = count;
    const latest = game.scorings[count - 1];
    // built again in the new language when the table's language changes while it is open
    ui.overlayView = () => h("div.dialog.scoring-dialog", { role: "dialog", "aria-modal": "true" },
      h("div.dialog-bar", {}, h("button.primary", { type: "button", "data-close": "1", onclick: closeOverlay }, `✕ ${i18n.t("ui.close")}`)),
      scoringView(i18n, latest, game.players));
    showOverlay(ui.overlayView());
  }
}

function showOverlay(content) {
  const overlay = $("#overlay");
  fill(overlay, content);
  overlay.hidden = false;
}

function closeOverlay() {
  ui.overlayView = null;
  $("#overlay").hidden = true;
  fill($("#overlay"));
  ui.lobbyOpen = false;
}

// ------------------------------------------------------------------ lobby (new game, saved games)
async function openLobby() {
  ui.lobbyOpen = true;
  const catalogue = getJson("/api/catalogue").then((c) => c.games ?? []).catch(() => []);
  const form = newGameForm({
    i18n,
    catalogue: () => catalogue,
    gameStrings: (game) => gameStrings(game, i18n.lang),
    gameData: (edition) => {
      if (!gameData.has(edition)) gameData.set(edition, loadGameData(edition));
      return gameData.get(edition);
    },
    create: async (body) => {
      const running = ui.state?.game && ui.state.game.phase !== "over" ? ui.state.game : null;
      if (running && !(await confirmDialog(i18n, i18n.t("confirm.replace_game", { round: running.round }), i18n.t("confirm.start")))) return;
      await postJson("/api/games", body);
      ui.tab = "seats";
      ui.seenScorings = null;
      // the new game's state first, then the lobby closes: a Games tap right after Start
      // must not be closed again by that state arriving late
      await refreshState();
      closeOverlay();
      render();
    },
    onError: showError,
  });
  const saved = h("div.saved", {}, h("h2", {}, i18n.t("ui.saved_games")), h("p.muted", {}, "…"));
  const close = ui.state?.game ? h("button.secondary", { type: "button", "data-close": "1", onclick: closeOverlay }, i18n.t("ui.close")) : null;
  showOverlay(h("div.dialog.lobby", { role: "dialog", "aria-modal": "true" }, close, h("div.lobby-cols", {}, form, saved)));
  try {
    const { games } = await getJson("/api/games");
    const titles = new Map((await catalogue).map((entry) => [entry.id, entry.title]));
    const others = [...new Set(games.map((g) => g.game ?? "elgrande"))].filter((id) => id !== "elgrande");
    const bundles = new Map(await Promise.all(others.map(async (id) => [id, await gameStrings(id, i18n.lang)])));
    const tagsOf = (g) => (bundles.has(g.game) ? schemaTags(i18n, bundles.get(g.game), g) : optionTags(i18n, g));
    fill(saved, h("h2", {}, i18n.t("ui.saved_games")), games.length ? h("ul.games", {}, games.map((g) =>
      h("li", { "data-game": g.game ?? "elgrande" }, h("span", {}, savedLine(g, titles.get(g.game ?? "elgrande")),
        tagsOf(g).map((tag) => h("span.tag", {}, tag))),
        h("button.secondary", { type: "button", onclick: async () => {
          try { await postJson(`/api/games/${g.id}/continue`); ui.seenScorings = null; await refreshState(); closeOverlay(); } catch (err) { showError(err); }
        } }, i18n.t("ui.continue"))))) : h("p.muted", {}, i18n.t("ui.no_games")));
  } catch {
    fill(saved, h("h2", {}, i18n.t("ui.saved_games")), h("p.muted", {}, i18n.t("ui.no_games")));
  }
}

/** One saved game in the lobby's list: its number, its game's title and what its summary says. */
function savedLine(g, title) {
  const parts = [`#${g.id}`, title ?? g.game, g.edition, (g.players ?? []).map((p) => i18n.colour(p)).join(", "),
    g.round === undefined || g.round === null ? null : i18n.t("ui.round_n", { n: g.round }),
    g.finished ? i18n.t("ui.finished") : i18n.t("ui.in_play")];
  return parts.filter((part) => part !== undefined && part !== null && part !== "").join(" · ");
}

async function reissue(colour) {
  const question = i18n.t("confirm.reissue", { colour: capitalise(i18n.colour(colour)) });
  if (!(await confirmDialog(i18n, question, i18n.t("confirm.reissue_ok")))) return;
  try {
    await postJson(`/api/seats/${colour}/reissue`);
    await refreshState();
  } catch (err) {
    showError(err);
  }
}

// ------------------------------------------------------------------ tower pill
function renderTower(state) {
  const tower = state?.tower;
  const pill = $("#tower-pill");
  if (!tower) {
    fill(pill);
    return;
  }
  pill.dataset.state = tower.state ?? "none";
  const words = `${capitalise(i18n.t(`tower.mode.${tower.mode}`))}: ${i18n.t(`tower.state.${tower.state}`)}`;
  pill.title = words;
  fill(pill, h("span.led"), h("span.pill-text", {}, words), tower.warning ? h("span.warn", { title: tower.warning }, ` ⚠ ${towerWarning(i18n, tower)}`) : null);
}

// ------------------------------------------------------------------ start-up
// Game data per edition, fetched once (the default edition's already while the page starts).
const gameData = new Map([["2023", loadGameData("2023")]]);

async function useData(edition) {
  if (ui.dataEdition === edition) return;
  ui.dataEdition = edition;
  if (!gameData.has(edition)) gameData.set(edition, loadGameData(edition));
  i18n.data = await gameData.get(edition);
}

// The last render durations (ms), read by the UI benchmark.

async function onState(state, rev) {
  const lang = state.lang ?? i18n.lang;
  const game = state.game_type ?? null;
  if (lang !== i18n.lang || game !== i18n.game) await i18n.use(lang, game);
  ui.plugin = await pluginFor(game);
  ui.title = await gameTitle(game);
  await useData(state.game?.edition ?? state.options?.edition ?? "2023");
  const newGame = ui.state?.game_id !== state.game_id;
  if (newGame) ui.seenScorings = null;
  ui.state = state;
  ui.rev = rev ?? ui.rev;
  if (newGame && state.game && ui.lobbyOpen) closeOverlay();
  renderTimed(render, ui.rev);
}

async function refreshState() {
  try {
    const state = await getJson("/api/state");
    if (!ui.state || state.game_id !== ui.state.game_id) await onState(state, ui.rev);
  } catch {
    /* the WebSocket brings the state anyway */
  }
}

async function main() {
  await Promise.all([i18n.use(localStorage.getItem("castillo.lang") ?? navigator.language?.slice(0, 2) ?? "en"), loadMap()]);
  translateStatic();
  onBoardTap($("#board"), onArea);
  watchBoardSize();
  $("#lang").addEventListener("change", async (event) => {
    const lang = event.target.value;
    localStorage.setItem("castillo.lang", lang);
    await i18n.use(lang);
    send({ type: "language", lang });
    if (ui.lobbyOpen) openLobby();
    else if (ui.overlayView && !$("#overlay").hidden) showOverlay(ui.overlayView());
    render();
  });
  $("#games-btn").addEventListener("click", () => openLobby());
  // what the server says of itself (pairing needed?); without it the page cannot start right,
  // so a server out of reach is asked again until it answers
  let info = null;
  for (let wait = 500; info === null; wait = Math.min(wait * 2, 4000)) {
    info = await getJson("/api/info").catch((err) => (err?.code === "network" ? null : {}));
    if (info === null) await new Promise((resolve) => setTimeout(resolve, wait));
  }
  ui.network = info?.network ?? null;
  const pairing = { show: (el) => { ui.lobbyOpen = false; showOverlay(el); }, hide: closeOverlay };
  if (info?.pairing_required) await pairDevice(i18n, pairing);
  const query = () => {
    const token = tableToken.get();
    return `role=table${token ? `&token=${encodeURIComponent(token)}` : ""}`;
  };
  ui.conn = new Connection(query, {
    onState,
    onHello: async (msg) => {
      if (msg.lang && msg.lang !== i18n.lang) await i18n.use(msg.lang);
    },
    onError: showError,
    onStatus: async (status, reason) => {
      if (status === "forbidden" && reason === "forbidden" && info?.pairing_required) {
        // the token stopped working (the app restarted): pair again, then reconnect
        tableToken.clear();
        await pairDevice(i18n, { ...pairing, expired: true });
        ui.conn.open();
        return;
      }
      const conn = $("#conn");
      conn.hidden = status === "open";
      conn.textContent = status === "forbidden" ? i18n.t("err.forbidden", { reason: "" }) : i18n.t("ui.disconnected");
    },
    onMessage: (msg) => {
      if (msg.type === "tower" && ui.state) {
        ui.state.tower = msg.status;
        renderTower(ui.state);
      }
    },
  });
}

main();
