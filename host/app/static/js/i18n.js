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

  /** The string for `key` with {name} placeholders filled from `params`. */
  t(key, params = {}) {
    const template = this.strings[key] ?? this.fallback[key] ?? key;
    return template.replace(/\{(\w+)\}/g, (all, name) =>
      name in params && params[name] !== undefined && params[name] !== null
        ? String(params[name])
        : all,
    );
  }

  colour(colour) {
    return this.has(`colour.${colour}`) ? this.t(`colour.${colour}`) : colour;
  }
}

export const i18n = new I18n();

/** `i18n` with a game's strings over its own (the lobby words a game's form before it is active). */
export function withStrings(i18n, strings) {
  const words = Object.create(i18n);
  words.strings = { ...i18n.strings, ...strings };
  words.fallback = { ...i18n.fallback, ...strings };
  return words;
}
