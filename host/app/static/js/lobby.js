// The new-game form of the lobby: a picker of every game of GET /api/catalogue, then the chosen
// game's options (POST /api/games, docs/table-api.md). A game's form is generated from its
// options schema (name, kind, default), labelled from its i18n bundle (`options.<name>`,
// `options.<name>.<value>`; the bare name without a bundle); refused fields are shown beside
// each field. El Grande keeps its own form, which its edition's game data shapes (colours,
// alternative action cards, mini-expansions).

import { h, fill } from "./dom.js";
import { COLOURS } from "./board.js";
import { capitalise } from "./prompt.js";

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
  const alternatives = fd.getAll("alternatives");
  if (alternatives.length) body.alternatives = alternatives;
  return body;
}

function check(name, label, attrs = {}) {
  return h("label.check", {}, h("input", { type: "checkbox", name, ...attrs }), label);
}

function radios(name, choices, value) {
  return choices.map(([v, label]) =>
    h("label.check", {}, h("input", { type: "radio", name, value: v, checked: v === value }), label));
}

/** El Grande's own form. */
function elGrandeForm(ctx) {
  const { i18n } = ctx;
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
    const data = await ctx.gameData(draft.edition);
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
    const alternatives = (data?.alternatives ?? []).map((id) =>
      check("alternatives", i18n.t("ui.alt_card", { card: i18n.cardOf(data, id), deck: data.cards[id].deck }),
        { value: id, checked: draft.alternatives.includes(id) }));
    fill(
      options,
      h("fieldset", { id: "players-field" }, h("legend", {}, i18n.t("ui.players")),
        h("p.hint", { id: "players-hint" }, i18n.t("ui.players_hint", { n })), h("div.row", {}, playerBoxes), dummy),
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
    };
  }

  async function fresh(edition) {
    const data = await ctx.gameData(edition);
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

const BUILT_IN = "elgrande";

/**
 * The lobby's new-game part: the game picker and the chosen game's form. ctx: { i18n,
 * catalogue() → Promise<games>, gameStrings(game) → Promise<strings>, gameData(edition) →
 * Promise<data|null>, create(body) → Promise (rejects with {code, reason, errors}), onError(err) }.
 */
export function newGameForm(ctx) {
  const { i18n } = ctx;
  const picker = h("select", { id: "game-pick", name: "game" });
  const wrap = h("div.new-game-wrap", {}, h("label.field", { id: "game-field" }, h("span", {}, i18n.t("ui.game")), picker));
  let form = elGrandeForm(ctx);
  wrap.append(form);
  let games = [];
  async function show(id) {
    const entry = games.find((g) => g.id === id);
    const next = id === BUILT_IN || !entry ? elGrandeForm(ctx) : schemaForm(ctx, entry, await ctx.gameStrings(id));
    if (picker.value !== id) return; // changed meanwhile
    form.replaceWith(next);
    form = next;
  }
  ctx.catalogue().then((list) => {
    games = list;
    fill(picker, list.map((g) => h("option", { value: g.id, selected: g.id === BUILT_IN }, g.title)));
    if (!list.some((g) => g.id === BUILT_IN) && list.length) show(list[0].id);
  });
  picker.addEventListener("change", () => show(picker.value));
  return wrap;
}

/** Label of an option or of one of its values: the game's bundle, else a colour, else the name. */
function labelOf(i18n, strings, name, value) {
  if (value === undefined) return strings[`options.${name}`] ?? name;
  const key = `options.${name}.${value}`;
  if (key in strings) return strings[key];
  return i18n.has(`colour.${value}`) ? i18n.colour(value) : String(value);
}

/** An option's values the bundle names (`options.<name>.<value>`), in the bundle's order. */
function namedValues(strings, name) {
  const prefix = `options.${name}.`;
  return Object.keys(strings).filter((k) => k.startsWith(prefix)).map((k) => k.slice(prefix.length));
}

/** The input(s) of one option of the schema, by its kind. */
function control(i18n, strings, option) {
  const { name, kind } = option;
  const label = labelOf(i18n, strings, name);
  const value = option.default;
  if (kind === "bool") {
    return h("label.check", {}, h("input", { type: "checkbox", name, checked: value === true }), label);
  }
  if (kind === "int" || kind === "int?") {
    const attrs = { type: "number", name, step: 1, value: value ?? "" };
    if (option.min !== undefined) attrs.min = option.min;
    if (option.max !== undefined) attrs.max = option.max;
    return h("label.field", {}, h("span", {}, label), h("input", attrs));
  }
  if (kind === "names") {
    const choices = option.choices ?? (Array.isArray(value) && value.length ? value : namedValues(strings, name));
    if (!choices.length) {
      return h("label.field", {}, h("span", {}, label), h("input", { type: "text", name, "data-list": "1", value: "" }));
    }
    const chosen = Array.isArray(value) ? value : [];
    return h("fieldset", {}, h("legend", {}, label), h("div.row", {}, choices.map((v) =>
      h("label.check", {}, h("input", { type: "checkbox", name, value: v, checked: chosen.includes(v) }), labelOf(i18n, strings, name, v)))));
  }
  const choices = option.choices ?? namedValues(strings, name);
  if (choices.length) {
    if (value !== null && value !== undefined && !choices.includes(value)) choices.unshift(value);
    return h("label.field", {}, h("span", {}, label), h("select", { name },
      choices.map((v) => h("option", { value: v, selected: v === value }, labelOf(i18n, strings, name, v)))));
  }
  return h("label.field", {}, h("span", {}, label), h("input", { type: "text", name, value: value ?? "" }));
}

/** The request body of a generated form: each option read by its kind (empty numbers left out). */
function readSchema(form, entry) {
  const fd = new FormData(form);
  const body = { game: entry.id };
  for (const { name, kind } of entry.options) {
    const field = form.elements.namedItem(name);
    if (kind === "bool") body[name] = fd.get(name) === "on";
    else if (kind === "names") {
      body[name] = field?.dataset?.list ? String(fd.get(name) ?? "").split(",").map((s) => s.trim()).filter(Boolean) : fd.getAll(name);
    } else if (kind === "int" || kind === "int?") {
      const text = String(fd.get(name) ?? "").trim();
      if (text !== "") body[name] = Number(text);
    } else if (fd.has(name)) body[name] = fd.get(name);
  }
  if (entry.computer) {
    const seats = new Set(body.players ?? []);
    const computers = {};
    for (const select of form.querySelectorAll("select[data-computer]")) {
      if (select.value && seats.has(select.dataset.computer)) computers[select.dataset.computer] = Number(select.value);
    }
    body.computers = computers;
  }
  return body;
}

/** A game with a computer player: each seat a person or the computer at a level. */
function computerSeats(i18n, strings, entry) {
  const players = entry.options.find((o) => o.name === "players");
  const names = players?.choices ?? (Array.isArray(players?.default) && players.default.length ? players.default : namedValues(strings, "players"));
  if (!entry.computer || !names.length) return null;
  const message = h("p.lobby-error.field-error", { id: "error-computers", role: "alert", hidden: true });
  return [h("div.option", { "data-option": "computers" }, h("fieldset", {}, h("legend", {}, i18n.t("ui.computers")),
    names.map((name) => h("label.field", {}, h("span", {}, labelOf(i18n, strings, "players", name)),
      h("select", { "data-computer": name, name: `computer-${name}` },
        h("option", { value: "" }, i18n.t("ui.computer_none")),
        entry.computer.levels.map((n) => h("option", { value: n }, i18n.t("ui.computer_level", { n }))))))), message), message];
}

/** A game's form generated from its catalogue entry; refused fields shown beside each field. */
function schemaForm(ctx, entry, strings) {
  const { i18n } = ctx;
  const form = h("form.new-game", { id: "new-game", novalidate: true, "data-game": entry.id });
  const error = h("p.lobby-error", { id: "lobby-error", role: "alert", hidden: true });
  const start = h("button.primary", { type: "submit", id: "start-game" }, i18n.t("ui.start"));
  const fieldErrors = new Map();
  const fields = entry.options.map((option) => {
    const message = h("p.lobby-error.field-error", { id: `error-${option.name}`, role: "alert", hidden: true });
    fieldErrors.set(option.name, message);
    return h("div.option", { "data-option": option.name }, control(i18n, strings, option), message);
  });
  const computers = computerSeats(i18n, strings, entry);
  if (computers) fieldErrors.set("computers", computers[1]);
  fill(form, h("h2", {}, i18n.t("ui.new_game")), fields, computers?.[0], error, start);
  const clear = () => {
    error.hidden = true;
    for (const message of fieldErrors.values()) message.hidden = true;
  };
  form.addEventListener("change", clear);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clear();
    start.disabled = true;
    try {
      await ctx.create(readSchema(form, entry));
    } catch (err) {
      if (err?.code !== "bad_options") {
        ctx.onError(err);
        return;
      }
      const unplaced = [];
      for (const [name, text] of Object.entries(err.errors ?? {})) {
        const message = fieldErrors.get(name);
        if (message) {
          fill(message, text);
          message.hidden = false;
        } else unplaced.push(`${name}: ${text}`);
      }
      if (unplaced.length || !err.errors) {
        fill(error, i18n.t("err.bad_options", { reason: unplaced.join("; ") || err.reason || "" }));
        error.hidden = false;
      }
    } finally {
      start.disabled = false;
    }
  });
  return form;
}

/** Short tags for a saved game's options (the lobby's list). */
export function optionTags(i18n, game) {
  const o = game.options ?? {};
  const tags = [];
  if ((o.mode ?? game.mode) === "dealer") tags.push(i18n.t("tag.dealer"));
  if (o.short_game) tags.push(i18n.t("tag.short_game"));
  if (o.merge_decks_2_3 && (game.players ?? []).length === 3) tags.push(i18n.t("tag.merged"));
  if (o.new_regency) tags.push(i18n.t("tag.new_regency"));
  if (o.power_shift) tags.push(i18n.t("tag.power_shift"));
  if (o.open_power_cards) tags.push(i18n.t("tag.open_power_cards"));
  for (const id of o.alternatives ?? []) tags.push(i18n.card(id));
  return tags;
}

/** Tags for a saved game of a generated form: its options turned on, labelled from its bundle. */
export function schemaTags(i18n, strings, game) {
  return Object.entries(game.options ?? {}).filter(([, value]) => value === true).map(([name]) => labelOf(i18n, strings, name));
}
