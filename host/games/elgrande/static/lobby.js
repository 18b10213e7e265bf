// El Grande's own new-game form (the lobby shows it when El Grande is picked): the edition's
// game data shapes it (its colours, alternative action cards, mini-expansions), and the short
// tags of a saved game's options.

import { COLOURS } from "/static/js/colours.js";
import { capitalise, fill, h } from "/static/js/dom.js";
import { levelLabel } from "/static/js/lobby.js";
import { gameData, wordsOver } from "./words.js";

const EDITIONS = ["2023", "1995"];
const DEFAULT_PLAYERS = 4;

/** The options the form holds now (the request body). */
function read(form) {
  const fd = new FormData(form);
  const players = fd.getAll("players");
  const body = {
    players,
    edition: fd.get("edition"),
    mode: fd.get("mode"),
    short_game: fd.get("short_game") === "on",
    open_castillo: fd.get("open_castillo") === "on",
    open_power_cards: fd.get("open_power_cards") === "on",
  };
  if (players.length === 2 && fd.get("dummy")) body.dummy = fd.get("dummy");
  if (players.length === 3 && fd.get("merge_decks_2_3") === "on") body.merge_decks_2_3 = true;
  if (fd.get("new_regency") === "on") body.new_regency = true;
  if (fd.get("power_shift") === "on") body.power_shift = true;
  const alternatives = fd.getAll("alternatives").flatMap((ids) => String(ids).split(","));
  if (alternatives.length) body.alternatives = alternatives;
  const computers = {};
  for (const select of form.querySelectorAll("select[data-computer]")) {
    if (select.value && players.includes(select.dataset.computer)) computers[select.dataset.computer] = Number(select.value);
  }
  if (Object.keys(computers).length) body.computers = computers;
  return body;
}

/** Each chosen colour a person or the computer at one of its levels (named by time a turn). */
function computerSeats(i18n, computer, players, chosen) {
  if (!computer?.levels?.length || !players.length) return null;
  return h("fieldset", { id: "computers-field" }, h("legend", {}, i18n.t("ui.computers")),
    players.map((c) => h("label.field", {}, h("span.swatch", { style: { background: COLOURS[c] } }),
      h("span", {}, capitalise(i18n.colour(c))),
      h("select", { "data-computer": c, name: `computer-${c}` },
        h("option", { value: "" }, i18n.t("ui.computer_none")),
        computer.levels.map((n) => h("option", { value: n, selected: chosen[c] === n }, levelLabel(i18n, computer, n)))))));
}

/** The edition's alternative cards as the form offers them: cards of one name in one deck
 * (2023's two Vetos of deck 2) are one choice, taken or left together. */
function alternativeGroups(i18n, data) {
  const groups = new Map();
  for (const id of data?.alternatives ?? []) {
    const label = i18n.t("ui.alt_card", { card: i18n.cardOf(data, id), deck: data.cards[id].deck });
    if (!groups.has(label)) groups.set(label, []);
    groups.get(label).push(id);
  }
  return [...groups].map(([label, ids]) => ({ label, ids }));
}

function check(name, label, attrs = {}) {
  return h("label.check", {}, h("input", { type: "checkbox", name, ...attrs }), label);
}

function radios(name, choices, value) {
  return choices.map(([v, label]) =>
    h("label.check", {}, h("input", { type: "radio", name, value: v, checked: v === value }), label));
}

/**
 * The form. ctx: { i18n (with El Grande's strings), create(body) → Promise (rejects with
 * {code, reason}), onError(err) }.
 */
export function newGameForm(ctx) {
  const i18n = wordsOver(ctx.i18n);
  const form = h("form.new-game", { id: "new-game", novalidate: true });
  const options = h("div", { id: "game-options" });
  const error = h("p.lobby-error", { id: "lobby-error", role: "alert", hidden: true });
  // disabled until the players are drawn (the edition's colours come with its game data)
  const start = h("button.primary", { type: "submit", id: "start-game", disabled: true }, i18n.t("ui.start"));
  let playable = false; // 2 to 5 players chosen
  fill(
    form,
    h("h2", {}, i18n.t("ui.new_game")),
    h("fieldset.row", {}, h("legend", {}, i18n.t("ui.edition")), radios("edition", EDITIONS.map((e) => [e, e]), "2023")),
    options,
    h("fieldset.row", {}, h("legend", {}, i18n.t("ui.mode")),
      radios("mode", [["table", i18n.t("ui.mode_table")], ["dealer", i18n.t("ui.mode_dealer")]], "table")),
    check("short_game", i18n.t("ui.short_game")),
    check("open_castillo", i18n.t("ui.open_castillo")),
    check("open_power_cards", i18n.t("ui.open_power_cards")),
    error,
    start,
  );

  // The parts that depend on the edition and the number of players, drawn from `draft`.
  async function draw(draft) {
    const data = await gameData(draft.edition);
    if (form.querySelector('input[name="edition"]:checked')?.value !== draft.edition) return; // changed meanwhile
    const palette = data?.colours ?? Object.keys(COLOURS);
    const players = palette.filter((c) => draft.players.includes(c));
    const n = players.length;
    const focused = document.activeElement;
    const focus = focused && form.contains(focused) ? [focused.name, focused.value] : null;
    const playerBoxes = palette.map((c) =>
      h("label.check", {}, h("input", { type: "checkbox", name: "players", value: c, checked: players.includes(c) }),
        h("span.swatch", { style: { background: COLOURS[c] } }), capitalise(i18n.colour(c))));
    const free = palette.filter((c) => !players.includes(c));
    const dummy = n === 2
      ? h("label.field", { id: "dummy-field" }, h("span", {}, i18n.t("ui.dummy")),
        h("select", { name: "dummy" },
          h("option", { value: "", selected: !free.includes(draft.dummy) }, i18n.t("ui.dummy_auto")),
          free.map((c) => h("option", { value: c, selected: c === draft.dummy }, capitalise(i18n.colour(c))))))
      : null;
    const variants = [];
    if (n === 3) variants.push(check("merge_decks_2_3", i18n.t("ui.merge_decks"), { checked: draft.merge_decks_2_3 }));
    if (n === 2) variants.push(h("p.muted", { id: "merge-auto" }, i18n.t("ui.merge_auto")));
    if (data?.new_regency) variants.push(check("new_regency", i18n.t("ui.new_regency"), { checked: draft.new_regency }));
    if (data?.power_shift) variants.push(check("power_shift", i18n.t("ui.power_shift"), { checked: draft.power_shift }));
    const alternatives = alternativeGroups(i18n, data).map(({ label, ids }) =>
      check("alternatives", ids.length > 1 ? `${label} ×${ids.length}` : label,
        { value: ids.join(","), checked: ids.every((id) => draft.alternatives.includes(id)) }));
    fill(
      options,
      h("fieldset", { id: "players-field" }, h("legend", {}, i18n.t("ui.players")),
        h("p.hint", { id: "players-hint" }, i18n.t("ui.players_hint", { n })), h("div.row", {}, playerBoxes), dummy),
      computerSeats(i18n, ctx.computer, players, draft.computers ?? {}),
      variants.length || alternatives.length
        ? h("fieldset", { id: "variants-field" }, h("legend", {}, i18n.t("ui.variants")), variants,
          alternatives.length ? h("fieldset.row", { id: "alternatives-field" }, h("legend", {}, i18n.t("ui.alternatives")), alternatives) : null)
        : null,
    );
    playable = n >= 2 && n <= 5;
    start.disabled = !playable;
    if (focus) {
      const [name, value] = focus;
      [...form.elements].find((el) => el.name === name && el.value === value)?.focus();
    }
  }

  function draftOf(body) {
    return {
      edition: body.edition,
      players: body.players,
      dummy: body.dummy ?? form.querySelector('select[name="dummy"]')?.value ?? "",
      merge_decks_2_3: Boolean(body.merge_decks_2_3),
      new_regency: Boolean(body.new_regency),
      power_shift: Boolean(body.power_shift),
      alternatives: body.alternatives ?? [],
      computers: body.computers ?? {},
    };
  }

  async function fresh(edition) {
    const data = await gameData(edition);
    const palette = data?.colours ?? Object.keys(COLOURS);
    return { edition, players: palette.slice(0, DEFAULT_PLAYERS), dummy: "", alternatives: [] };
  }

  form.addEventListener("change", async (event) => {
    error.hidden = true;
    if (event.target.name === "edition") {
      await draw(await fresh(event.target.value)); // another palette, other cards
    } else if (["players", "dummy"].includes(event.target.name)) {
      await draw(draftOf(read(form)));
    }
  });
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.hidden = true;
    start.disabled = true;
    try {
      await ctx.create(read(form));
    } catch (err) {
      if (err?.code === "bad_options") {
        fill(error, i18n.t("err.bad_options", { reason: err.reason ?? "" }));
        error.hidden = false;
      } else {
        ctx.onError(err);
      }
    } finally {
      start.disabled = !playable;
    }
  });
  fresh("2023").then(draw);
  return form;
}

/** Short tags for a saved game's options (the lobby's list). */
export async function optionTags(base, game) {
  const i18n = wordsOver(base);
  const data = await gameData(game.edition ?? "2023");
  const o = game.options ?? {};
  const tags = [];
  if ((o.mode ?? game.mode) === "dealer") tags.push(i18n.t("tag.dealer"));
  if (o.short_game) tags.push(i18n.t("tag.short_game"));
  if (o.merge_decks_2_3 && (game.players ?? []).length === 3) tags.push(i18n.t("tag.merged"));
  if (o.new_regency) tags.push(i18n.t("tag.new_regency"));
  if (o.power_shift) tags.push(i18n.t("tag.power_shift"));
  if (o.open_power_cards) tags.push(i18n.t("tag.open_power_cards"));
  for (const id of o.alternatives ?? []) tags.push(i18n.cardOf(data, id));
  return tags;
}
