// The shared table view: the frame every game shares (lobby, seats, tower status, throw checks,
// the simulated tower's dropper, the log, language) around the active game's plugin, which draws
// the game itself (host/app/static/js/plugins.js; the interface: docs/table-app.md).

import { $, capitalise, fill, h, renderTimed, toast } from "./dom.js";
import { i18n, LANGUAGES, LanguagePick, gameStrings, withStrings } from "./i18n.js";
import { logList } from "./gamelog.js";
import { getJson, postJson, Connection, tableToken } from "./net.js";
import { pairDevice } from "./pairing.js";
import { confirmDialog } from "./confirm.js";
import { seatsView } from "./seats.js";
import { pairingNote, wifiCard } from "./wifi.js";
import { dropperView, towerEvents, towerWarning } from "./dropper.js";
import { checksView, undoWithCare } from "./checks.js";
import { newGameForm, schemaTags } from "./lobby.js";
import { clearUnused, gameFor, pluginFor } from "./plugins.js";

const languagePick = new LanguagePick(); // the reader's pick over the server's language

const ui = {
  state: null,
  rev: -1,
  tab: "log",
  conn: null,
  lobbyOpen: false,
  network: null, // GET /api/info's `network`: how devices reach the app
  hostScreen: false, // the host's own screen of an app serving the network (shows the pairing code)
  online: false, // whether the page's WebSocket to the server is open (net.js onStatus)
  plugin: null, // the active game's UI plugin (its own, else the generic one)
  uses: null, // what the active game uses of the kit ({tower, lights}; plugins.js gameUses)
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
  const message = { type: "action", text };
  if (ui.state?.acting_as) message.as = ui.state.acting_as;
  return send(message);
}

// ------------------------------------------------------------------ rendering
/** The page's parts a plugin draws into (docs/table-app.md). */
function parts() {
  return {
    prompt: $("#prompt"), choices: $("#choices"), board: $("#board"), acting: $("#acting"),
    undo: $("#undo-row"), players: $("#players"), cards: $("#cards"), track: $("#round-track"),
  };
}

/** What a plugin's functions get: the state, the words, and the ways to act. */
function context(state) {
  const plugin = ui.plugin;
  return {
    state,
    i18n,
    plugin,
    act,
    send,
    rerender: render,
    undo: (message) => undoWithCare(i18n, state, send, message, plugin?.cubeLeftByUndo),
    overlay: {
      show: (build) => {
        ui.overlayView = () => build(closeOverlay); // built again when the language changes
        showOverlay(ui.overlayView());
      },
      close: closeOverlay,
    },
  };
}

/** Whether the tower belongs on the screen (its pill, its warnings, the Dropper or Tower tab):
 * for a game that uses it (the tower or the board's lights, which it drives), and in the lobby,
 * where the table sees that it is connected before starting such a game; never for another. */
function towerShown(state) {
  const uses = state?.game ? ui.uses : null;
  return !uses || uses.tower || uses.lights;
}

/** The state as the tower's views show it: while the page's socket to the server is closed the
 * last known tower state is stale (the server, and the tower with it, may be gone), so the tower
 * is shown as out of reach instead, without its old warnings. */
function towerView(state) {
  if (ui.online || !state?.tower) return state;
  return { ...state, tower: { ...state.tower, state: "unreachable", warning: null } };
}

/** The colours with pieces in play (the throw checks and the dropper offer them). */
function coloursInPlay(state) {
  return ui.plugin?.coloursInPlay?.(state) ?? state?.game?.players ?? [];
}

function render() {
  const state = ui.state;
  document.title = ui.title ? `${ui.title} — ${i18n.t("app.title")}` : i18n.t("app.title");
  $(".brand").textContent = ui.title ?? i18n.t("app.title");
  translateStatic();
  // a plugin may ask for a table that fits one screen (app.css, body[data-layout="fit"])
  document.body.dataset.layout = state?.game && ui.plugin?.layout === "fit" ? "fit" : "flow";
  renderTower(state);
  if (!state?.game) {
    fill($("#prompt"), i18n.t("ui.no_game"));
    for (const [name, el] of Object.entries(parts())) if (name !== "prompt") fill(el);
    fill($("#checks"));
    renderTabs(state);
    if (!ui.lobbyOpen) openLobby();
    return;
  }
  const ctx = context(state);
  clearUnused(parts(), ui.plugin.tableParts);
  fill($("#checks"), ui.plugin.tableNotices?.(ctx) ?? null, checksView(i18n, state.checks, { send, players: coloursInPlay(state) }));
  delete $("#prompt").dataset.phase; // a plugin may mark it again
  ui.plugin.renderTable(ctx, parts());
  renderTabs(state);
}

function translateStatic() {
  for (const el of document.querySelectorAll("[data-t]")) el.textContent = i18n.t(el.dataset.t);
  for (const el of document.querySelectorAll("[data-t-label]")) el.setAttribute("aria-label", i18n.t(el.dataset.tLabel));
  const select = $("#lang");
  if (!select.options.length) {
    for (const lang of LANGUAGES) select.append(h("option", { value: lang }, lang.toUpperCase()));
  }
  select.value = i18n.lang;
  // last: the page says its language once its words are in it (tests and screen readers wait on it)
  document.documentElement.lang = i18n.lang;
}

// ------------------------------------------------------------------ tabs
/** The tabs: the log, the plugin's own ({key, label, render(body)}), the seats, the tower (the
 * simulated tower's dropper) when the game uses it. */
function tabList(state) {
  const own = state?.game && ui.plugin?.tableTabs ? ui.plugin.tableTabs(context(state)) : [];
  const tabs = [{ key: "log", label: i18n.t("ui.log"), render: (body) => fill(body, logView(state)) }, ...own,
    { key: "seats", label: i18n.t("ui.seats"), render: (body) => fill(body, seatsPane(state)) }];
  if (!towerShown(state)) return tabs;
  if (state?.sim && ui.uses?.tower !== false) {
    tabs.push({ key: "dropper", label: i18n.t("ui.dropper"),
      render: (body) => fill(body, dropperView(i18n, towerView(state), { send, players: coloursInPlay(state) }), towerEvents(i18n, towerView(state))) });
  } else {
    tabs.push({ key: "tower", label: i18n.t("ui.tower"), render: (body) => fill(body, towerEvents(i18n, towerView(state))) });
  }
  return tabs;
}

/** The Seats tab: the Wi-Fi card beside the seat codes while the table runs its own Wi-Fi
 * (a phone joins the Wi-Fi, then its seat), and on the host's screen the pairing code. */
function seatsPane(state) {
  const wifi = wifiCard(i18n, ui.network);
  const seats = seatsView(i18n, state, { reissue, network: ui.network });
  return [wifi ? h("div.seats-with-wifi", {}, wifi, seats) : seats, ui.hostScreen ? pairingNote(i18n) : null];
}

/** How devices reach the app (GET /api/info, or a `network` message when the machine's address
 * appears or changes, or its own Wi-Fi comes up or goes): the seat codes and the Wi-Fi card
 * follow it. */
function setNetwork(network) {
  if (!network || JSON.stringify(network) === JSON.stringify(ui.network)) return;
  ui.network = network;
  if (ui.state && ui.tab === "seats") renderTabs(ui.state);
  const lobbyWifi = $(".lobby-wifi");
  if (lobbyWifi) fill(lobbyWifi, wifiCard(i18n, network));
}

function renderTabs(state) {
  const tabs = tabList(state);
  if (!tabs.some((tab) => tab.key === ui.tab)) ui.tab = "log";
  fill(
    $("#tabs"),
    tabs.map(({ key, label }) =>
      h(
        `button.tab${ui.tab === key ? ".active" : ""}`,
        { type: "button", role: "tab", "aria-selected": ui.tab === key ? "true" : "false", "data-tab": key, onclick: () => { ui.tab = key; renderTabs(ui.state); } },
        label,
      ),
    ),
  );
  const body = $("#tab-body");
  fill(body);
  tabs.find((tab) => tab.key === ui.tab).render(body);
}

function logView(state) {
  const entries = state?.log;
  if (entries?.length) return logList(i18n, entries, { plugin: ui.plugin });
  return h("p.muted", {}, i18n.t("ui.log_empty"));
}

// ------------------------------------------------------------------ the overlay (dialogs)
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
  const catalogue = getJson("/api/catalogue").catch(() => ({ games: [] }));
  const form = newGameForm({
    i18n,
    catalogue: () => catalogue,
    gameStrings: (game) => gameStrings(game, i18n.lang),
    plugin: pluginFor,
    create: async (body) => {
      const running = ui.state?.game && ui.state.game.phase !== "over" ? ui.state.game : null;
      if (running && !(await confirmDialog(i18n, i18n.t("confirm.replace_game", { round: running.round }), i18n.t("confirm.start")))) return;
      await postJson("/api/games", body);
      ui.tab = "seats";
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
  // the Wi-Fi card first: phones join the table's own Wi-Fi while the game is chosen
  const wifi = h("div.lobby-wifi", {}, wifiCard(i18n, ui.network));
  showOverlay(h("div.dialog.lobby", { role: "dialog", "aria-modal": "true" }, close, wifi, h("div.lobby-cols", {}, form, saved)));
  try {
    const { games, active } = await getJson("/api/games");
    const titles = new Map(((await catalogue).games ?? []).map((entry) => [entry.id, entry.title]));
    const ids = [...new Set(games.map((g) => g.game))];
    const bundles = new Map(await Promise.all(ids.map(async (id) => [id, await gameStrings(id, i18n.lang)])));
    const plugins = new Map(await Promise.all(ids.map(async (id) => [id, await pluginFor(id)])));
    // a saved game's tags: its plugin's words for its options, else the options turned on
    const tags = await Promise.all(games.map(async (g) => {
      const plugin = plugins.get(g.game);
      const strings = bundles.get(g.game);
      return plugin?.optionTags ? plugin.optionTags(withStrings(i18n, strings), g) : schemaTags(i18n, strings, g);
    }));
    fill(saved, h("h2", {}, i18n.t("ui.saved_games")), games.length ? h("ul.games", {}, games.map((g, i) =>
      savedGame(g, titles.get(g.game), tags[i], g.id === active))) : h("p.muted", {}, i18n.t("ui.no_games")));
  } catch {
    fill(saved, h("h2", {}, i18n.t("ui.saved_games")), h("p.muted", {}, i18n.t("ui.no_games")));
  }
}

/** One saved game of the lobby: what it is, when it was last played, the game on the table
 * marked; a game in play offers Continue, a finished one its result and its record. */
function savedGame(g, title, tags, onTable) {
  const details = [h("span.saved-when", {}, i18n.t("ui.last_played", { date: savedDate(g.updated ?? g.created) }))];
  if (onTable) details.push(h("span.on-table-mark", {}, i18n.t("ui.on_table")));
  if (g.finished) details.push(h("span.saved-result", {}, savedResult(g.scores ?? {})));
  const button = g.finished
    ? h("button.secondary", { type: "button", "data-export": g.id, onclick: () => exportRecord(g) }, i18n.t("ui.export_record"))
    : h("button.secondary", { type: "button", "data-continue": g.id, onclick: async () => {
      try { await postJson(`/api/games/${g.id}/continue`); await refreshState(); closeOverlay(); } catch (err) { showError(err); }
    } }, i18n.t("ui.continue"));
  return h(`li${onTable ? ".on-table" : ""}`, { "data-game": g.game, "data-id": g.id, "data-finished": g.finished ? "1" : "0", "data-on-table": onTable ? "1" : "0" },
    h("span", {}, savedLine(g, title), tags.map((tag) => h("span.tag", {}, tag)), h("span.saved-details", {}, details)), button);
}

/** A saved game's time (seconds since the epoch) as the page's language writes a date. */
function savedDate(seconds) {
  if (typeof seconds !== "number") return "?";
  return new Intl.DateTimeFormat(i18n.lang, { dateStyle: "medium", timeStyle: "short" }).format(new Date(seconds * 1000));
}

/** A finished game's result: who won (or who tied for first) and every score, highest first. */
function savedResult(scores) {
  const ranked = Object.entries(scores).sort((a, b) => b[1] - a[1]);
  if (!ranked.length) return "";
  const name = (colour) => capitalise(i18n.colour(colour));
  const top = ranked.filter(([, score]) => score === ranked[0][1]).map(([colour]) => name(colour));
  const result = top.length === 1 ? i18n.t("ui.won", { names: top[0] }) : i18n.t("ui.tied", { names: top.join(", ") });
  const list = ranked.map(([colour, score]) => `${name(colour)} ${score}`).join(", ");
  return `${result} · ${i18n.t("ui.scores", { scores: list })}`;
}

/** A finished game's record (GET /api/games/{id}/record) saved as a file. */
async function exportRecord(g) {
  try {
    const record = await getJson(`/api/games/${g.id}/record`);
    const url = URL.createObjectURL(new Blob([JSON.stringify(record, null, 2)], { type: "application/json" }));
    const link = h("a", { href: url, download: `castillo-${g.game}-${g.id}.json` });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  } catch (err) {
    showError(err);
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
  const tower = towerView(state)?.tower;
  const pill = $("#tower-pill");
  pill.hidden = !tower || !towerShown(state);
  if (pill.hidden) {
    fill(pill);
    return;
  }
  pill.dataset.state = tower.state ?? "none";
  const words = `${capitalise(i18n.t(`tower.mode.${tower.mode}`))}: ${i18n.t(`tower.state.${tower.state}`)}`;
  const warning = tower.warning ? towerWarning(i18n, tower) : "";
  pill.title = warning ? `${words} — ${warning}` : words;
  fill(pill, h("span.led"), h("span.pill-text", {}, words), warning ? h("span.warn", {}, ` ⚠ ${warning}`) : null);
}

// ------------------------------------------------------------------ start-up
// States are drawn in the order they came, each with its own revision: one whose game was still
// loading when a newer one came is dropped, never drawn over the newer (the page would show a
// revision behind for good). Revisions are not compared: a restarted host's clock may be behind.
let latestState = 0;

async function onState(state, rev) {
  const mine = ++latestState;
  const lang = languagePick.of(state.lang, i18n.lang);
  const ready = await gameFor(state, i18n, lang);
  if (mine !== latestState) return;
  ({ plugin: ui.plugin, title: ui.title, uses: ui.uses } = ready);
  const newGame = ui.state?.game_id !== state.game_id;
  ui.state = state;
  ui.rev = rev ?? ui.rev;
  if (newGame && state.game && ui.lobbyOpen) closeOverlay();
  renderTimed(render, ui.rev);
}

async function refreshState() {
  try {
    const state = await getJson("/api/state");
    if (!ui.state || state.game_id !== ui.state.game_id) await onState(state, state.rev);
  } catch {
    /* the WebSocket brings the state anyway */
  }
}

async function main() {
  await i18n.use(localStorage.getItem("castillo.lang") ?? navigator.language?.slice(0, 2) ?? "en");
  translateStatic();
  $("#lang").addEventListener("change", async (event) => {
    const lang = event.target.value;
    localStorage.setItem("castillo.lang", lang);
    languagePick.pick(lang);
    send({ type: "language", lang });
    await i18n.use(lang);
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
  ui.hostScreen = Boolean(info?.lan && info.pairing_required === false);
  const pairing = { show: (el) => { ui.lobbyOpen = false; showOverlay(el); }, hide: closeOverlay };
  if (info?.pairing_required) await pairDevice(i18n, pairing);
  const query = () => {
    const token = tableToken.get();
    return `role=table${token ? `&token=${encodeURIComponent(token)}` : ""}`;
  };
  ui.conn = new Connection(query, {
    onState,
    onHello: async (msg) => {
      const lang = languagePick.of(msg.lang, i18n.lang);
      if (lang !== i18n.lang) await i18n.use(lang);
    },
    onError: showError,
    onStatus: async (status, reason) => {
      ui.online = status === "open";
      if (ui.state) {
        renderTower(ui.state);
        if (ui.tab === "dropper" || ui.tab === "tower") renderTabs(ui.state);
      }
      // (re)connected: a change of address may have come while the socket was down
      if (status === "open") getJson("/api/info").then((again) => setNetwork(again?.network), () => {});
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
      if (msg.type === "network") setNetwork(msg.network);
    },
  });
}

main();
