// A player's private page (a phone): the frame every game shares (who this seat is, language,
// connection) around the active game's plugin, which draws the player's own view: their hand,
// their secret choices, their own choices when it is their turn, in their language.

import { $, fill, h, renderTimed, toast } from "./dom.js";
import { i18n, LANGUAGES, LanguagePick } from "./i18n.js";
import { COLOURS } from "./colours.js";
import { undoWithCare } from "./checks.js";
import { Connection } from "./net.js";
import { clearUnused, gameFor } from "./plugins.js";

const token = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() ?? "");
// plugin: the active game's UI plugin (its own, else the generic one)
const languagePick = new LanguagePick(); // the reader's pick over the server's language

const ui = { state: null, rev: -1, conn: null, plugin: null, title: null };

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

const act = (text) => send({ type: "action", text });

/** The page's parts a plugin draws into (docs/table-app.md). */
function parts() {
  return {
    prompt: $("#prompt"), mine: $("#mine"), choices: $("#choices"), undo: $("#undo-row"), hand: $("#hand"),
    board: $("#board"), me: $("#me"), players: $("#seat-players"), log: $("#seat-log"),
  };
}

function render() {
  const state = ui.state;
  for (const el of document.querySelectorAll("[data-t]")) el.textContent = i18n.t(el.dataset.t);
  for (const el of document.querySelectorAll("[data-t-label]")) el.setAttribute("aria-label", i18n.t(el.dataset.tLabel));
  const select = $("#lang");
  if (!select.options.length) for (const l of LANGUAGES) select.append(h("option", { value: l }, l.toUpperCase()));
  select.value = i18n.lang;
  document.documentElement.lang = i18n.lang; // the page's words are in it now
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
  const plugin = ui.plugin;
  clearUnused(parts(), plugin.seatParts);
  $("#prompt").classList.remove("my-turn"); // a plugin may mark it again
  plugin.renderSeat({
    state, i18n, plugin, act, send, rerender: render,
    undo: (message) => undoWithCare(i18n, state, send, message, plugin.cubeLeftByUndo),
  }, parts());
}

// States are drawn in the order they came (as on the table's page, table.js).
let latestState = 0;

async function onState(state, rev) {
  const mine = ++latestState;
  const ready = await gameFor(state, i18n, languagePick.of(state.lang, i18n.lang));
  if (mine !== latestState) return;
  ({ plugin: ui.plugin, title: ui.title } = ready);
  ui.state = state;
  ui.rev = rev ?? ui.rev;
  renderTimed(render, ui.rev);
}

async function main() {
  await i18n.use(navigator.language?.slice(0, 2) ?? "en");
  $("#lang").addEventListener("change", async (event) => {
    languagePick.pick(event.target.value);
    const gone = $("#gone");
    if (!gone) send({ type: "language", lang: event.target.value });
    await i18n.use(event.target.value);
    render();
    if (gone) {
      $("#conn").textContent = revokedText(gone.dataset.reason);
      showGone(gone.dataset.reason);
    }
  });
  ui.conn = new Connection(`seat=${encodeURIComponent(token)}`, {
    onState,
    onHello: async (msg) => {
      const lang = languagePick.of(msg.lang, i18n.lang);
      if (lang !== i18n.lang) await i18n.use(lang);
    },
    onError: showError,
    onStatus: (status, reason) => {
      const conn = $("#conn");
      conn.hidden = status === "open";
      conn.textContent = status === "forbidden" ? revokedText(reason) : i18n.t("ui.disconnected");
      // a replaced or stale link shows nothing of the game any more: what happened, and how to
      // get a new link (the words of the page an old link opens: host/app/seat_gone.py)
      if (status === "forbidden") showGone(reason);
    },
  });
}

function showGone(reason) {
  document.querySelector("main").hidden = true;
  const how = i18n.t("gone.how", { seats: i18n.t("ui.seats"), reissue: i18n.t("ui.reissue") });
  const box = $("#gone") ?? h("section.gone", { id: "gone" });
  box.dataset.reason = reason ?? "";
  fill(box, h("h2", { id: "gone-title" }, i18n.t("gone.title")), h("p", { id: "gone-how" }, how));
  if (!box.isConnected) document.querySelector("main").after(box);
}

/** Why the server closed this page's socket, in the page's language. */
function revokedText(reason) {
  if (reason === "replaced") return i18n.t("err.link_replaced");
  if (reason === "game_changed") return i18n.t("err.game_changed");
  return i18n.t("err.forbidden", { reason: "" });
}

main();
