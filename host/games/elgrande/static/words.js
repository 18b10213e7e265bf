// El Grande's words over the shell's translations: region and card names, card texts, from the
// edition's game data (GET /api/gamedata). `wordsOver(i18n)` is the shell's i18n object with
// these added; it sees every language change of the shell's (it inherits from it).

import { getJson } from "/static/js/net.js";

const DATA = new Map(); // edition → Promise<game data | null>, each fetched once

/** The game data of an edition (names, card texts, the board's values); null if unreachable. */
export function gameData(edition) {
  if (!DATA.has(edition)) {
    DATA.set(edition, getJson(`/api/gamedata?edition=${encodeURIComponent(edition)}`).catch(() => null));
  }
  return DATA.get(edition);
}

const METHODS = {
  /** A region's (or France's, Portugal's, the castillo's) name in the current language. */
  area(token) {
    if (this.edition === "1995" && this.has(`area1995.${token}`)) return this.t(`area1995.${token}`);
    if (this.has(`area.${token}`)) return this.t(`area.${token}`);
    return token;
  },

  /** An action card's or a Power Shift modifier card's name in the current language. */
  card(id) {
    return this.cardOf(this.data, id);
  },

  /** The same from another edition's game data (the lobby shows any edition's cards). */
  cardOf(data, id) {
    const card = data?.cards?.[id] ?? data?.modifiers?.[id] ?? data?.older_cards?.[id];
    if (card?.names) return card.names[this.lang] || card.names.en || id;
    const words = String(id).replace(/^95-/, "").replaceAll("-", " ");
    return words.charAt(0).toUpperCase() + words.slice(1);
  },

  /** A card's effect text in the current language (English where the data lacks it). */
  cardText(id) {
    const card = this.data?.cards?.[id] ?? this.data?.modifiers?.[id];
    return card?.texts?.[this.lang] || card?.text || "";
  },

  /** What option `n` (1-based) of a card with a choice does, or "" if the data does not say. */
  cardOption(id, n) {
    const option = this.data?.cards?.[id]?.options?.[Number(n) - 1];
    return option?.[this.lang] || option?.en || "";
  },

  /** Use an edition's game data (fetched once). */
  async useEdition(edition) {
    if (this.edition === edition && this.data) return;
    const data = await gameData(edition);
    this.edition = edition;
    this.data = data;
  },
};

const made = new WeakMap();
const worded = new WeakSet(); // the objects wordsOver made

/** The shell's `i18n` with El Grande's words (one object per shell i18n, kept). An object that
 * already has them is returned as it is: the seat page's log hands the plugin the worded i18n,
 * and a second layer over it would have no game data (card names fell back to English ids). */
export function wordsOver(i18n) {
  if (worded.has(i18n)) return i18n;
  if (!made.has(i18n)) {
    const words = Object.assign(Object.create(i18n), METHODS, { data: null, edition: "2023" });
    made.set(i18n, words);
    worded.add(words);
  }
  return made.get(i18n);
}
