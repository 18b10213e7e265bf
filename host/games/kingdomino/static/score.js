// The scoring assistant (score.html): a finished kingdom entered by tapping squares with a
// terrain and its crowns (or typed as its dominoes, "17 c4e" a line, laid by the rules on the
// server: GET /api/kingdomino/kingdom), scored by GET /api/kingdomino/score (castillo score's format,
// docs/kingdomino-score.md) with the breakdown and, when asked, the check against the real
// dominoes. For families who play the cardboard game without the app.

import { $, capitalise, fill, h } from "/static/js/dom.js";
import { i18n, LANGUAGES } from "/static/js/i18n.js";
import { getJson } from "/static/js/net.js";
import { CASTLE_COLOURS, TERRAIN_COLOURS } from "/games/kingdomino/pieces.js";

const TERRAINS = ["W", "F", "L", "G", "S", "M"];
const MOST_CROWNS = { W: 1, F: 1, L: 1, G: 2, S: 2, M: 3 }; // the most a real square carries
const COLOURS = ["pink", "yellow", "green", "blue"];

const page = { size: 5, rows: [], brush: "F0", colour: "pink", refused: null };

function clear(size) {
  page.size = size;
  const middle = (size - 1) / 2;
  page.rows = Array.from({ length: size }, (_, r) => Array.from({ length: size }, (_, c) => (r === middle && c === middle ? "C" : ".")));
}

function brushButton(value, label, style, extra = "", name = null) {
  const chosen = page.brush === value;
  return h(`button.kd-brush${extra}${chosen ? ".chosen" : ""}`, { type: "button", "data-brush": value, "aria-pressed": chosen ? "true" : "false", "aria-label": name, title: name, style, onclick: () => { page.brush = value; render(); } }, label);
}

/** A brush's name: the terrain and its crowns in words ("forest, 1 crown"). */
function brushName(terrain, crowns) {
  const name = i18n.t(`kingdomino.terrain.${terrain}`);
  return crowns ? i18n.t("kingdomino.score.brush_crowns", { terrain: name, n: crowns }) : name;
}

function palette() {
  // one row a terrain: its name, then a brush for each number of crowns its squares carry
  const terrains = TERRAINS.map((t) => h("div.kd-brush-row", { "data-terrain": t },
    h("span.kd-brush-name", {}, capitalise(i18n.t(`kingdomino.terrain.${t}`))),
    Array.from({ length: MOST_CROWNS[t] + 1 }, (_, crowns) =>
      brushButton(`${t}${crowns}`, crowns ? "♛".repeat(crowns) : "\u00a0", { background: TERRAIN_COLOURS[t] }, "", brushName(t, crowns)))));
  return [
    h("div.kd-brushes", {}, terrains),
    h("div.kd-buttons", {},
      brushButton("C", `♜ ${i18n.t("kingdomino.score.castle")}`, { background: CASTLE_COLOURS[page.colour], color: "#fff" }, ".castle"),
      brushButton(".", `⌫ ${i18n.t("kingdomino.score.empty")}`, {}, ".eraser")),
    h("p.hint", { id: "kd-brush-now" }, page.brush === "." ? i18n.t("kingdomino.score.empty") : page.brush === "C" ? i18n.t("kingdomino.score.castle_moves")
      : brushName(page.brush[0], Number(page.brush[1]))),
  ];
}

function board() {
  const cells = page.rows.flatMap((row, r) => row.map((value, c) => {
    const style = {};
    let content = null;
    if (value === "C") {
      style.background = CASTLE_COLOURS[page.colour];
      content = "♜";
    } else if (value !== ".") {
      style.background = TERRAIN_COLOURS[value[0]];
      content = Number(value[1]) ? h("span.kd-crowns", {}, "♛".repeat(Number(value[1]))) : null;
    }
    const name = `${String.fromCharCode(97 + c)}${r + 1}`;
    const refused = page.refused && page.refused.row === r + 1 && page.refused.col === c + 1;
    return h(`button.kd-sq${value === "." ? ".empty" : value === "C" ? ".castle" : ""}${refused ? ".refused" : ""}`, {
      type: "button", "data-square": name, "data-value": value, title: name, style,
      onclick: () => tap(r, c),
    }, content);
  }));
  return h("div.kd-grid", { style: { gridTemplateColumns: `repeat(${page.size}, var(--kd-cell))` } }, cells);
}

/** A tap on a square: the brush's terrain, the eraser, or the castle moved there (a kingdom has
 * one castle: the old square is emptied). */
function tap(r, c) {
  if (page.brush === "C") page.rows = page.rows.map((row) => row.map((value) => (value === "C" ? "." : value)));
  page.rows[r][c] = page.brush;
  page.refused = null;
  render();
}

function options() {
  const form = $("#kd-options");
  const was = Object.fromEntries(new FormData(form));
  const check = (name, label) => h("label.check", {}, h("input", { type: "checkbox", name, checked: was[name] === "on" }), label);
  return [
    h("label.field", {}, h("span", {}, i18n.t("kingdomino.score.colour")),
      h("select", { name: "colour", onchange: (e) => { page.colour = e.target.value; render(); } },
        COLOURS.map((c) => h("option", { value: c, selected: c === page.colour }, i18n.colour(c))))),
    h("label.check", {}, h("input", { type: "checkbox", name: "duel", checked: page.size === 7, onchange: (e) => { clear(e.target.checked ? 7 : 5); render(); } }), i18n.t("kingdomino.score.duel")),
    check("middle_kingdom", i18n.t("options.middle_kingdom")),
    check("harmony", i18n.t("options.harmony")),
    h("label.field", {}, h("span", {}, i18n.t("kingdomino.score.discarded")), h("input", { type: "number", name: "discarded", min: 0, step: 1, value: was.discarded ?? "" })),
    check("check_tiles", i18n.t("kingdomino.score.check_tiles")),
  ];
}

/** The position as `castillo score --game kingdomino` reads it. */
function position() {
  const fd = new FormData($("#kd-options"));
  const out = {
    game: "kingdomino",
    size: page.size,
    kingdoms: { [page.colour]: page.rows.map((row) => row.join(" ")) },
    middle_kingdom: fd.get("middle_kingdom") === "on",
    harmony: fd.get("harmony") === "on",
    check_tiles: fd.get("check_tiles") === "on",
  };
  const discarded = String(fd.get("discarded") ?? "").trim();
  if (discarded !== "") out.discarded = { [page.colour]: Number(discarded) };
  return out;
}

function breakdown(result) {
  const colour = page.colour;
  const bonus = result.bonus[colour];
  return h("div.kd-breakdown", { id: "kd-breakdown" },
    h("h2", {}, i18n.t("kingdomino.score.total", { n: result.totals[colour] })),
    h("ul", {},
      [...result.territories[colour]].sort((a, b) => b.points - a.points).map((t) =>
        h("li", { "data-points": t.points }, i18n.t("kingdomino.ui.territory", { terrain: i18n.t(`kingdomino.terrain.${t.terrain[0].toUpperCase()}`), squares: t.squares, crowns: t.crowns, points: t.points }))),
      bonus.middle_kingdom ? h("li.bonus", {}, i18n.t("kingdomino.ui.bonus.middle_kingdom", { n: bonus.middle_kingdom })) : null,
      bonus.harmony ? h("li.bonus", {}, i18n.t("kingdomino.ui.bonus.harmony", { n: bonus.harmony })) : null));
}

async function score() {
  const url = `/api/kingdomino/score?position=${encodeURIComponent(JSON.stringify(position()))}`;
  try {
    const result = await getJson(url);
    page.refused = null;
    page.error = null;
    render();
    fill($("#kd-result"), breakdown(result));
  } catch (err) {
    page.refused = err.params?.row && err.params?.col ? { row: err.params.row, col: err.params.col } : null;
    page.error = err;
    render();
  }
}

/** A refusal in the page's language: the engine's key with its parameters (terrain letters and
 * colours named); the server's English only for a refusal without a key (the network's). */
function refusalWords(err) {
  const params = { ...(err.params ?? {}) };
  for (const name of ["terrain", "first", "second"]) {
    if (typeof params[name] === "string") params[name] = i18n.t(`kingdomino.terrain.${params[name]}`);
  }
  if (typeof params.colour === "string") params.colour = i18n.colour(params.colour);
  return i18n.refusal({ ...err, params });
}

function refusalView() {
  if (!page.error) return null;
  return h("p.lobby-error", { id: "kd-error", role: "alert", "data-key": page.error.key ?? "" }, i18n.t("kingdomino.score.refused", { reason: refusalWords(page.error) }));
}

/** A refusal of the typed dominoes in the page's language: the line, then the reason (terrain
 * letters in the engine's parameters named). */
function typedRefusal(err) {
  const reason = refusalWords(err);
  return err.params?.line ? i18n.t("kingdomino.score.typed_line", { line: err.params.line, reason }) : reason;
}

async function lay() {
  const dominoes = $("#kd-typed").value;
  const url = `/api/kingdomino/kingdom?size=${page.size}&dominoes=${encodeURIComponent(dominoes)}`;
  try {
    const answer = await getJson(url);
    page.rows = answer.rows.map((row) => row.split(" "));
    fill($("#kd-typed-result"), h("p.hint", { id: "kd-typed-ok" }, i18n.t("kingdomino.score.typed_laid", { n: dominoes.split("\n").filter((l) => l.trim()).length })));
    fill($("#kd-result"));
    page.error = null;
    page.refused = null;
    render();
  } catch (err) {
    fill($("#kd-typed-result"), h("p.lobby-error", { id: "kd-typed-error", role: "alert" }, typedRefusal(err)));
  }
}

function render() {
  for (const el of document.querySelectorAll("[data-t]")) el.textContent = i18n.t(el.dataset.t);
  document.title = i18n.t("kingdomino.score.title");
  $("#kd-typed").setAttribute("aria-label", i18n.t("kingdomino.score.typed_title"));
  fill($("#kd-palette"), palette());
  fill($("#kd-board"), board());
  fill($("#kd-options"), options());
  if (page.error) fill($("#kd-result"), refusalView());
  document.documentElement.lang = i18n.lang; // last: the page's words are in its language
  document.body.dataset.ready = "1";
}

async function main() {
  await i18n.use(localStorage.getItem("castillo.lang") ?? navigator.language?.slice(0, 2) ?? "en", "kingdomino");
  const select = $("#lang");
  for (const lang of LANGUAGES) select.append(h("option", { value: lang }, lang.toUpperCase()));
  select.value = i18n.lang;
  select.addEventListener("change", async () => {
    localStorage.setItem("castillo.lang", select.value);
    await i18n.use(select.value, "kingdomino");
    render();
  });
  $("#kd-score").addEventListener("click", score);
  $("#kd-lay").addEventListener("click", lay);
  $("#kd-clear").addEventListener("click", () => { clear(page.size); page.error = null; page.refused = null; fill($("#kd-result")); render(); });
  clear(5);
  render();
}

main();
