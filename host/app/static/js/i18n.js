// Translation tables: the shell's (static/i18n/{lang}.json) with the active game's bundle over
// them (GET /games/{game}/i18n/{lang}.json: its plugin folder's i18n/{lang}/*.json merged).

import { getJson } from "./net.js";

export const LANGUAGES = ["en", "cs", "pl", "uk"];
const cache = new Map();

async function table(lang) {
  if (!cache.has(lang)) {
    cache.set(
      lang,
      getJson(`/static/i18n/${lang}.json`).catch(() => ({})),
    );
  }
  return cache.get(lang);
}

const bundles = new Map();

/** A game's i18n bundle ({} when it has none or it cannot be fetched). */
async function bundle(game, lang) {
  if (!game) return {};
  const key = `${game}/${lang}`;
  if (!bundles.has(key)) {
    const url = `/games/${encodeURIComponent(game)}/i18n/${lang}.json`;
    bundles.set(key, getJson(url).catch(() => ({})));
  }
  return bundles.get(key);
}

/** A game's bundle in `lang` over its English one (the lobby labels a game's options from it). */
export async function gameStrings(game, lang) {
  const [english, strings] = await Promise.all([bundle(game, "en"), bundle(game, lang)]);
  return { ...english, ...strings };
}

const PLURAL = /^\{(\w+)\s*,\s*plural\s*,/;

/** The text between the brace at `open` and its match (nested braces kept), and the index after. */
function braced(text, open) {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === "{") depth++;
    else if (text[i] === "}" && --depth === 0) return [text.slice(open + 1, i), i + 1];
  }
  return null;
}

/** The form of `{n, plural, one {# card} other {# cards}}` for the number `n`: an exact
 * `=n` form first, else the language's plural category (Intl.PluralRules), else `other`;
 * `#` is the number. Null when the text is not such a plural. */
function plural(text, params, lang) {
  const head = PLURAL.exec(text);
  if (!head || !(head[1] in params)) return null;
  const value = Number(params[head[1]]);
  const forms = new Map();
  let at = head[0].length;
  for (;;) {
    const selector = /^\s*(=\d+|\w+)\s*(?=\{)/.exec(text.slice(at));
    if (!selector) break;
    const form = braced(text, at + selector[0].length);
    if (!form) return null;
    forms.set(selector[1], form[0]);
    at = form[1];
  }
  const chosen = forms.get(`=${value}`) ?? forms.get(new Intl.PluralRules(lang).select(value)) ?? forms.get("other");
  return chosen === undefined ? null : chosen.replaceAll("#", String(params[head[1]]));
}

/** `template` with each {name} filled from `params` and each {name, plural, …} replaced by
 * its form for the number (ICU's plural syntax, the subset translators need); a placeholder
 * without a value stays as it is. */
export function format(template, params = {}, lang = "en") {
  let out = "";
  let at = 0;
  while (at < template.length) {
    const open = template.indexOf("{", at);
    if (open < 0) break;
    out += template.slice(at, open);
    const inner = PLURAL.test(template.slice(open)) ? braced(template, open) : null;
    const form = inner ? plural(template.slice(open, inner[1]), params, lang) : null;
    if (form !== null) {
      out += format(form, params, lang);
      at = inner[1];
      continue;
    }
    const simple = /^\{(\w+)\}/.exec(template.slice(open));
    if (simple) {
      const value = params[simple[1]];
      out += value !== undefined && value !== null ? String(value) : simple[0];
      at = open + simple[0].length;
    } else {
      out += "{";
      at = open + 1;
    }
  }
  return out + template.slice(at);
}

export class I18n {
  constructor() {
    this.lang = "en";
    this.game = null; // the active game's id (engine.registry): its bundle is merged in
    this.strings = {};
    this.fallback = {};
  }

  async use(lang, game = this.game) {
    const wanted = LANGUAGES.includes(lang) ? lang : "en";
    const [strings, fallback, gameStrings, gameFallback] = await Promise.all([
      table(wanted), table("en"), bundle(game, wanted), bundle(game, "en"),
    ]);
    this.lang = wanted;
    this.game = game;
    this.strings = { ...strings, ...gameStrings };
    this.fallback = { ...fallback, ...gameFallback };
  }

  /** A refusal in the reader's language: its key when translated, else the code's text. */
  refusal(err) {
    if (err.key && this.has(err.key)) return this.t(err.key, err.params ?? {});
    const key = `err.${err.code}`;
    if (this.has(key)) return this.t(key, { reason: err.reason ?? "" });
    // an HTTP refusal without the app's JSON (its status text is the browser's English)
    if (typeof err.code === "number") return this.t("err.http", { status: err.code });
    return this.t("err.other", { reason: err.reason ?? err.code });
  }

  has(key) {
    return key in this.strings || key in this.fallback;
  }

  /** The string for `key` with {name} placeholders filled from `params` (and plural forms
   * chosen: `format`). */
  t(key, params = {}) {
    const template = this.strings[key] ?? this.fallback[key] ?? key;
    return format(template, params, this.lang);
  }

  colour(colour) {
    return this.has(`colour.${colour}`) ? this.t(`colour.${colour}`) : colour;
  }
}

export const i18n = new I18n();

/** The page's language against the server's. A language the reader picks holds until the
 * server's state names it too: a state sent before the server heard of the pick must not
 * switch the page back (the table flickered to English after a pick of Czech). */
export class LanguagePick {
  constructor() {
    this.picked = null;
  }

  pick(lang) {
    this.picked = lang;
  }

  /** The language to show, given the server's (`serverLang`) and the page's now. */
  of(serverLang, current) {
    if (this.picked && serverLang === this.picked) this.picked = null;
    return this.picked ?? serverLang ?? current;
  }
}

/** `i18n` with a game's strings over its own (the lobby words a game's form before it is active). */
export function withStrings(i18n, strings) {
  const words = Object.create(i18n);
  words.strings = { ...i18n.strings, ...strings };
  words.fallback = { ...i18n.fallback, ...strings };
  return words;
}
