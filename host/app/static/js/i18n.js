// Translation tables: the shell's (static/i18n/{lang}.json) with the active game's bundle over
// them (GET /games/{game}/i18n/{lang}.json: its plugin folder's i18n/{lang}/*.json merged), and
// names from the game data.

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
    this.data = null; // GET /api/gamedata (card names), when the backend offers it
    this.edition = "2023";
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
    document.documentElement.lang = wanted;
  }

  /** A refusal in the reader's language: its key when translated, else the code's text. */
  refusal(err) {
    if (err.key && this.has(err.key)) return this.t(err.key, err.params ?? {});
    const key = `err.${err.code}`;
    return this.has(key) ? this.t(key, { reason: err.reason ?? "" }) : this.t("err.other", { reason: err.reason ?? err.code });
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

  area(token) {
    if (this.edition === "1995" && this.has(`area1995.${token}`)) return this.t(`area1995.${token}`);
    if (this.has(`area.${token}`)) return this.t(`area.${token}`);
    return token;
  }

  /** An action card's or a Power Shift modifier card's name in the current language. */
  card(id) {
    return this.cardOf(this.data, id);
  }

  /** The same from another edition's game data (the lobby shows any edition's cards). */
  cardOf(data, id) {
    const card = data?.cards?.[id] ?? data?.modifiers?.[id];
    if (card?.names) return card.names[this.lang] || card.names.en || id;
    const words = String(id).replace(/^95-/, "").replaceAll("-", " ");
    return words.charAt(0).toUpperCase() + words.slice(1);
  }

  /** A card's effect text in the current language (English where the data lacks it). */
  cardText(id) {
    const card = this.data?.cards?.[id] ?? this.data?.modifiers?.[id];
    return card?.texts?.[this.lang] || card?.text || "";
  }

  /** What option `n` (1-based) of a card with a choice does, or "" if the data does not say. */
  cardOption(id, n) {
    const option = this.data?.cards?.[id]?.options?.[Number(n) - 1];
    return option?.[this.lang] || option?.en || "";
  }
}

export const i18n = new I18n();

/** Game data for names and the board's values: the backend's route, if it has one. */
export async function loadGameData(edition) {
  return getJson(`/api/gamedata?edition=${encodeURIComponent(edition)}`).catch(() => null);
}
