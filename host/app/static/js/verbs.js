// A game's verb table as its pages use it (GET /api/games/<id>/verbs; docs/table-api.md): which
// verbs are chance steps, each verb's group, tags and argument kinds, the game's area tokens and
// the kinds of its prompts' and refusals' parameters. Fetched once per game while its plugin
// loads (plugins.js), so a plugin reads it without waiting: `verbsOf(game)`. A plugin derives
// its groups, chance verbs, areas and parameter kinds from here, never from lists of its own.

import { getJson } from "./net.js";

export class VerbTable {
  constructor(json = {}) {
    this.game = json.game ?? null;
    this.verbs = new Map((json.verbs ?? []).map((verb) => [verb.name, verb]));
    this.areas = new Set(json.areas ?? []);
    this.paramKinds = json.param_kinds ?? {};
  }

  has(verb) {
    return this.verbs.has(verb);
  }

  /** A chance step (an outcome entered at the table or drawn by the dealer). */
  isChance(verb) {
    return this.verbs.get(verb)?.chance === true;
  }

  /** The verb's group in the table ("" for none or an unknown verb). */
  group(verb) {
    return this.verbs.get(verb)?.group ?? "";
  }

  /** The verb answers that pending step (a frame's kind). */
  answers(verb, step) {
    return this.verbs.get(verb)?.steps?.includes(step) === true;
  }

  hasTag(verb, tag) {
    return this.verbs.get(verb)?.tags?.includes(tag) === true;
  }

  /** The kind of the verb's argument at `index` ("colour", "area", "cell", …; undefined: none). */
  argKind(verb, index) {
    return this.verbs.get(verb)?.args?.[index];
  }

  /** The names of the verb's arguments in a log line's `params`, in order ([] for none). */
  params(verb) {
    return this.verbs.get(verb)?.params ?? [];
  }

  /** The kind of a parameter of a `family` ("prompt", "refusal"); undefined when not declared. */
  paramKind(family, name) {
    return this.paramKinds[family]?.[name];
  }
}

const EMPTY = new VerbTable();
const loaded = new Map(); // game -> VerbTable
const pending = new Map(); // game -> Promise<VerbTable>

/** Fetch a game's table once (a failed fetch is tried again on the next call). */
export function loadVerbs(game) {
  if (!game) return Promise.resolve(EMPTY);
  if (loaded.has(game)) return Promise.resolve(loaded.get(game));
  if (!pending.has(game)) {
    const fetched = getJson(`/api/games/${encodeURIComponent(game)}/verbs`)
      .then((json) => {
        const table = new VerbTable(json);
        loaded.set(game, table);
        return table;
      })
      .catch((err) => {
        console.warn(`the ${game} verb table did not load`, err);
        return EMPTY;
      })
      .finally(() => pending.delete(game));
    pending.set(game, fetched);
  }
  return pending.get(game);
}

/** A game's table once loaded (an empty one before: no verb is a chance step, no area known). */
export function verbsOf(game) {
  return loaded.get(game) ?? EMPTY;
}
