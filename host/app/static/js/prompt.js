// The prompt in plain words. The server's state table (host/app/prompts.py) sends a stable `key`
// with raw `params`; this module translates it. When there is no server prompt (or on a seat page,
// which has prompts of its own) the same keys are derived here from the game view.

import { parse } from "./notation.js";

/** The prompt to show: {key, params} with raw tokens as params. */
export function promptFor(state, seat = null) {
  const game = state.game;
  if (!game) return { key: "none", params: {} };
  const legal = (seat ? state.legal ?? game.legal : state.legal) ?? [];
  if (seat) {
    const mine = seatPrompt(game, legal);
    if (mine) return mine;
  }
  const server = state.prompt;
  if (server?.key) {
    return refine(game, { key: server.key, params: { actor: server.actors, ...server.params }, text: server.text });
  }
  return refine(game, derive(game, legal));
}

/** The server says "main.place" also once the special action is over: say "or finish" then. */
function refine(game, prompt) {
  if (prompt.key === "main.place" && game.turn && game.turn.special !== "not started") {
    return { ...prompt, key: "main.place_only" };
  }
  if (["choice.option", "main.place", "main.placing", "main.special"].includes(prompt.key) && !prompt.params.card) {
    return { ...prompt, params: { ...prompt.params, card: game.turn?.card } };
  }
  return prompt;
}

function seatPrompt(game, legal) {
  const verbs = new Set(legal.map((t) => parse(t).verb));
  if (verbs.has("disc")) {
    return { key: game.step?.purpose === "general" ? "seat.disc.general" : "seat.disc", params: {} };
  }
  if (verbs.has("power")) return { key: "seat.power", params: {} };
  if (verbs.has("powerback")) return { key: "seat.powerback", params: {} };
  if (verbs.has("pass")) return { key: "seat.pass", params: {} };
  if (verbs.has("deal")) return { key: "seat.deal", params: { n: (game.modifier_hand?.length ?? 0) + 1 } };
  if (!legal.length) {
    const who = (game.acting ?? []).filter((c) => c !== "chance");
    if (game.phase !== "over" && who.length) return { key: "seat.wait", params: { who } };
  }
  return null;
}

/** The state table, client side: the same keys as host/app/prompts.py. */
function derive(game, legal) {
  const actor = (game.acting ?? []).filter((c) => c !== "chance");
  const step = game.step;
  const turn = game.turn;
  if (game.phase === "over") return { key: "over", params: {} };
  if (step) {
    switch (step.step) {
      case "disc":
        return { key: `disc.${step.purpose}`, params: { waiting_for: step.waiting_for ?? [] } };
      case "move":
        return step.picked
          ? { key: "move.to", params: { actor, colour: step.picked[0], from: step.picked[1] } }
          : { key: "move.pick", params: { actor } };
      case "return":
        return { key: "return", params: { actor, left: step.left, colour: step.colour } };
      case "recall":
        return { key: "recall", params: { actor, left: step.left } };
      case "place":
        return { key: "place", params: { actor, left: step.left } };
      case "veto":
        return { key: "veto", params: { actor, against: step.against } };
      default: {
        const purpose = step.purpose ? `.${step.purpose}` : "";
        return { key: `choice.${step.step}${purpose}`, params: { actor } };
      }
    }
  }
  switch (game.phase) {
    case "setup_first":
      return { key: "setup.first", params: {} };
    case "setup_king":
      return { key: "setup.king", params: {} };
    case "setup_home": {
      const first = legal.map(parse).find((a) => a.verb === "home");
      return { key: "setup.home", params: { colour: first?.args[0] } };
    }
    case "reveal": {
      const first = legal.map(parse).find((a) => a.verb === "reveal");
      return { key: "reveal", params: { deck: first?.args[0] ?? "" } };
    }
    case "power":
    case "card":
      return { key: game.phase, params: { actor } };
    case "take":
      return { key: "take", params: { actor, max: turn?.take } };
    case "main": {
      if (!turn) break;
      const params = { actor, left: turn.place_left, card: turn.card };
      if (turn.placing) return { key: "main.placing", params };
      if (!turn.placed && turn.place_left) return { key: "main.place", params };
      return { key: "main.special", params };
    }
    default:
      break;
  }
  return { key: "none", params: {} };
}

const COLOUR_PARAMS = new Set(["colour", "against"]);
const COLOUR_LISTS = new Set(["actor", "waiting_for", "who"]);
const AREA_PARAMS = new Set(["from", "area"]);

/** The prompt's words: colour, area and card tokens named in the current language. */
export function promptText(i18n, prompt) {
  const words = {};
  for (const [name, value] of Object.entries(prompt.params ?? {})) {
    if (COLOUR_LISTS.has(name)) {
      const list = Array.isArray(value) ? value : [value];
      words[name] = list
        .filter((c) => c && c !== "chance")
        .map((c) => (c === "table" ? i18n.t("colour.table") : i18n.colour(c)))
        .join(", ");
    } else if (COLOUR_PARAMS.has(name) && value) {
      words[name] = i18n.colour(value);
    } else if (AREA_PARAMS.has(name) && value) {
      words[name] = i18n.area(value);
    } else if (name === "card" && value) {
      words[name] = i18n.card(value);
    } else {
      words[name] = value;
    }
  }
  const key = `prompt.${prompt.key}`;
  return capitalise(i18n.has(key) ? i18n.t(key, words) : prompt.text ?? prompt.key);
}

export const capitalise = (s) => (s ? s.charAt(0).toUpperCase() + s.slice(1) : s);
