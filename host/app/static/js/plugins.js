// A game's UI plugin: its own module (host/games/<id>/static/plugin.js, named in
// GET /api/catalogue) or the generic one (generic.js). The interface: docs/table-app.md. A game's
// verb table is loaded with it before a state is drawn (verbs.js: the plugin reads it by `verbsOf`).

import * as generic from "./generic.js";
import { getJson } from "./net.js";
import { loadVerbs } from "./verbs.js";

const plugins = new Map();
let catalogue = null;

function fetchCatalogue() {
  catalogue ??= getJson("/api/catalogue").catch(() => ({ games: [] }));
  return catalogue;
}

async function entryOf(game) {
  return (await fetchCatalogue()).games?.find((g) => g.id === game) ?? null;
}

fetchCatalogue(); // while the page starts: the first state's plugin is found without waiting

async function load(game) {
  const entry = await entryOf(game);
  if (entry?.plugin) {
    try {
      return await import(entry.plugin);
    } catch (err) {
      console.warn(`the ${game} plugin did not load; the generic one shows the game`, err);
    }
  }
  return generic;
}

/** The plugin of a game (by its engine.registry id); the generic one with no game. */
export function pluginFor(game) {
  if (!game) return Promise.resolve(generic);
  if (!plugins.has(game)) plugins.set(game, load(game));
  return plugins.get(game);
}

/** A game's title from the catalogue, or null with no game. */
export async function gameTitle(game) {
  if (!game) return null;
  return (await entryOf(game))?.title ?? null;
}

/** What a game uses of the kit: its catalogue entry's capabilities ({tower, lights}); null with
 * no game or when the catalogue does not know it. */
export async function gameUses(game) {
  if (!game) return null;
  const entry = await entryOf(game);
  return entry ? { tower: entry.tower === true, lights: entry.lights === true } : null;
}

/** Ready to draw `state`: the game's strings in `lang` (the page's i18n switched to them), its
 * plugin (prepared: its data, its map, its styles), its verb table (`verbsOf`: fetched once), its
 * title and what it uses of the kit (`gameUses`), fetched at once. */
export async function gameFor(state, i18n, lang) {
  const game = state.game_type ?? null;
  const words = lang !== i18n.lang || game !== i18n.game ? i18n.use(lang, game) : null;
  const [, plugin, title, uses] = await Promise.all([words, pluginFor(game), gameTitle(game), gameUses(game), loadVerbs(game)]);
  if (state.game) await plugin.prepare?.(state, i18n);
  return { plugin, title, uses };
}

/** Empty the page's parts the plugin does not fill (its `tableParts` or `seatParts`). */
export function clearUnused(parts, used = ["prompt", "choices", "board"]) {
  for (const [name, el] of Object.entries(parts)) if (!used.includes(name)) el.replaceChildren();
}
