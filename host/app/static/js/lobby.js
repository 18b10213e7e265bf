// The new-game form of the lobby: a picker of every game of GET /api/catalogue, then the chosen
// game's options (POST /api/games, docs/table-api.md). A game's plugin may bring its own form
// (`newGameForm`); otherwise the form is generated from the game's options schema (name, kind,
// default), labelled from its i18n bundle (`options.<name>`, `options.<name>.<value>`; the bare
// name without a bundle), with refused fields shown beside each field.

import { fill, h } from "./dom.js";
import { withStrings } from "./i18n.js";

/**
 * The lobby's new-game part: the game picker and the chosen game's form (the catalogue's
 * default game at first). ctx: { i18n, catalogue() → Promise<{games, default}>,
 * gameStrings(game) → Promise<strings>,
 * plugin(game) → Promise<plugin>, create(body) → Promise (rejects with {code, reason, errors}),
 * onError(err) }.
 */
export function newGameForm(ctx) {
  const { i18n } = ctx;
  const picker = h("select", { id: "game-pick", name: "game" });
  const wrap = h("div.new-game-wrap", {}, h("label.field", { id: "game-field" }, h("span", {}, i18n.t("ui.game")), picker));
  let form = h("form.new-game", { id: "new-game" }, h("h2", {}, i18n.t("ui.new_game")), h("p.muted", {}, "…"));
  wrap.append(form);
  let games = [];
  async function show(id) {
    const entry = games.find((g) => g.id === id);
    if (!entry) return;
    const [strings, plugin] = await Promise.all([ctx.gameStrings(id), ctx.plugin(id)]);
    if (picker.value !== id) return; // changed meanwhile
    const next = plugin?.newGameForm
      ? plugin.newGameForm({
        i18n: withStrings(i18n, strings),
        computer: entry.computer, // the game's computer levels (null: none)
        create: (body) => ctx.create({ ...body, game: id }),
        onError: ctx.onError,
      })
      : schemaForm(ctx, entry, strings);
    form.replaceWith(next);
    form = next;
  }
  ctx.catalogue().then((catalogue) => {
    games = catalogue.games ?? [];
    const first = games.find((g) => g.id === catalogue.default) ?? games[0];
    fill(picker, games.map((g) => h("option", { value: g.id, selected: g === first }, g.title)));
    if (first) show(first.id);
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

/** The options a form shows (engine.core.options.SECTIONS: "hidden" ones never). */
function shownOptions(entry) {
  return entry.options.filter((option) => option.section !== "hidden");
}

/** The request body of a generated form: each option read by its kind (empty numbers left out). */
function readSchema(form, entry) {
  const fd = new FormData(form);
  const body = { game: entry.id };
  for (const { name, kind } of shownOptions(entry)) {
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
        entry.computer.levels.map((n) => h("option", { value: n }, levelLabel(i18n, entry.computer, n))))))), message), message];
}

/** A computer level as the lobby names it: its seconds a turn, or its kind (random, greedy). */
export function levelLabel(i18n, computer, n) {
  const seconds = computer?.seconds?.[n];
  if (seconds !== undefined) {
    return i18n.t("ui.computer_seconds", { seconds: new Intl.NumberFormat(i18n.lang).format(seconds) });
  }
  const kind = computer?.kinds?.[n];
  if (kind && i18n.has(`ui.computer_kind.${kind}`)) return i18n.t(`ui.computer_kind.${kind}`);
  return i18n.t("ui.computer_level", { n });
}

/** A refusal's params with each `x` whose `x_key` names a translation worded by it first,
 * filled from `x_params` the same way (a catalogue's refused card: its problem nested). */
function nestedParams(words, params = {}) {
  const out = { ...params };
  for (const [name, key] of Object.entries(params)) {
    const base = name.endsWith("_key") ? name.slice(0, -4) : "";
    if (base && typeof key === "string" && words.has(key)) {
      out[base] = words.t(key, nestedParams(words, params[`${base}_params`] ?? {}));
    }
  }
  return out;
}

/** A game's form generated from its catalogue entry; refused fields shown beside each field. */
function schemaForm(ctx, entry, strings) {
  const { i18n } = ctx;
  const form = h("form.new-game", { id: "new-game", novalidate: true, "data-game": entry.id });
  const error = h("p.lobby-error", { id: "lobby-error", role: "alert", hidden: true });
  const start = h("button.primary", { type: "submit", id: "start-game" }, i18n.t("ui.start"));
  const fieldErrors = new Map();
  const fieldOf = (option) => {
    const message = h("p.lobby-error.field-error", { id: `error-${option.name}`, role: "alert", hidden: true });
    fieldErrors.set(option.name, message);
    return h("div.option", { "data-option": option.name }, control(i18n, strings, option), message);
  };
  const shown = shownOptions(entry);
  const fields = shown.filter((option) => option.section !== "details").map(fieldOf);
  const details = shown.filter((option) => option.section === "details").map(fieldOf);
  // the rulebook's gaps, each at the reference's reading: folded, opened by a refusal inside
  const fold = details.length
    ? h("details.rule-details", { id: "rule-details" }, h("summary", {}, i18n.t("ui.rule_details")), details)
    : null;
  const computers = computerSeats(i18n, strings, entry);
  if (computers) fieldErrors.set("computers", computers[1]);
  // the game's warnings (`entry.warnings`: {when: {option: value}, key}) beside Start
  const warning = h("p.lobby-warning", { id: "lobby-warning", role: "status", hidden: true });
  const words = withStrings(i18n, strings);
  const warn = () => {
    const now = readSchema(form, entry);
    const keys = (entry.warnings ?? []).filter((w) => Object.entries(w.when ?? {}).every(([k, v]) => now[k] === v)).map((w) => w.key);
    fill(warning, keys.map((k) => h("span", { "data-warning": k }, words.t(k))));
    warning.hidden = !keys.length;
  };
  // Start and the warnings stay in sight together at the foot however long the form is
  fill(form, h("h2", {}, i18n.t("ui.new_game")), fields, fold, computers?.[0], error, h("div.form-foot", {}, warning, start));
  warn();
  const clear = () => {
    error.hidden = true;
    for (const message of fieldErrors.values()) message.hidden = true;
  };
  form.addEventListener("change", clear);
  form.addEventListener("change", warn);
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
          // a refusal the game words itself (its key, the field in its params): translated
          const keyed = err.key && err.params?.field === name && err.key in strings;
          fill(message, keyed ? words.t(err.key, nestedParams(words, err.params)) : text);
          message.hidden = false;
          if (fold?.contains(message)) fold.open = true;
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

/** Tags for a saved game of a generated form: its options turned on, labelled from its bundle. */
export function schemaTags(i18n, strings, game) {
  return Object.entries(game.options ?? {}).filter(([, value]) => value === true).map(([name]) => labelOf(i18n, strings, name));
}
