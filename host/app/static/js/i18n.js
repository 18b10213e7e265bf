// Translation tables (static/i18n/{lang}.json) and names from the game data.

export const LANGUAGES = ["en", "cs", "pl", "uk"];
const cache = new Map();

async function table(lang) {
  if (!cache.has(lang)) {
    cache.set(
      lang,
      fetch(`/static/i18n/${lang}.json`).then((r) => (r.ok ? r.json() : {})),
    );
  }
  return cache.get(lang);
}

export class I18n {
  constructor() {
    this.lang = "en";
    this.strings = {};
    this.fallback = {};
    this.data = null; // GET /api/gamedata (card names), when the backend offers it
    this.edition = "2023";
  }

  async use(lang) {
    const wanted = LANGUAGES.includes(lang) ? lang : "en";
    const [strings, fallback] = await Promise.all([table(wanted), table("en")]);
    this.lang = wanted;
    this.strings = strings;
    this.fallback = fallback;
    document.documentElement.lang = wanted;
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
    return this.t(`colour.${colour}`);
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

  cardText(id) {
    return (this.data?.cards?.[id] ?? this.data?.modifiers?.[id])?.text ?? "";
  }
}

export const i18n = new I18n();

/** Game data for names and the board's values: the backend's route, if it has one. */
export async function loadGameData(edition) {
  try {
    const r = await fetch(`/api/gamedata?edition=${encodeURIComponent(edition)}`);
    return r.ok ? await r.json() : null;
  } catch {
    return null;
  }
}
