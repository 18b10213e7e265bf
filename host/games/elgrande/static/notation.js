// The action notation (docs/notation.md): parse a legal action, name it, group it, find its areas.
// What a verb is (a chance step, its group, its arguments) and the area tokens come from the
// engine's verb table (GET /api/games/elgrande/verbs, loaded by the shell: verbsOf).

import { verbsOf } from "/static/js/verbs.js";

const table = () => verbsOf("elgrande");

/** What the public sees of a secret argument (engine.core.verbs.HIDDEN). */
export const HIDDEN = "?";

export function parse(text) {
  const [verb = "", ...args] = String(text).trim().split(/\s+/);
  return { verb: verb.toLowerCase(), args, text };
}

// The choice panel's own look for some verbs (the UI's choice, not a fact of the verb table):
// the heading they share with other verbs, a quiet button for the ones that decline or finish.
const PANEL = {
  grey: { heading: "special" },
  special: { heading: "special" },
  skip: { heading: "special", quiet: true },
  movegrande: { heading: "grande" },
  viceroy: { heading: "king" },
  veto: { heading: "veto" },
  allow: { heading: "veto", quiet: true },
  done: { heading: "end", quiet: true },
};

/** The group (a heading of the choice panel) an action belongs to: the chance steps share one,
 * so do the power card's verbs; else the verb's own (or the one the panel gives it). */
export function groupOf(verb) {
  const verbs = table();
  if (verbs.isChance(verb)) return "chance";
  if (verbs.group(verb) === "power") return "power";
  return PANEL[verb]?.heading ?? verb;
}

/** The verb's button is a quiet one (it declines or finishes). */
export const isQuiet = (verb) => PANEL[verb]?.quiet === true;

/** The verb's first argument is a colour (its button shows that colour's swatch). */
export const namesColour = (verb) => table().argKind(verb, 0) === "colour";

/** The verb never takes a caballero into or out of the King's region (the table's tag). */
export const notKingRegion = (verb) => table().hasTag(verb, "not-king-region");

/** An area token of the notation (a region, castillo, France, Portugal, court). */
export const isArea = (token) => table().areas.has(token);

/** The areas an action points at (the map taps). */
export function areasOf(action) {
  return action.args.filter(isArea);
}

/** A button label for one action, in the current language. */
export function label(i18n, action, ctx = {}) {
  const { verb, args } = action;
  const area = (a) => i18n.area(a);
  const colour = (c) => i18n.colour(c);
  switch (verb) {
    case "power":
      return i18n.t("act.power", { n: args[0] });
    case "take":
      return i18n.t("act.take", { n: args[0] });
    case "recall":
      return i18n.t("act.recall", { area: area(args[0]) });
    case "card":
      return i18n.t("act.card", { card: i18n.card(args[0]) });
    case "place":
      return args[0] === "castillo"
        ? i18n.t("act.place.castillo")
        : i18n.t("act.place", { area: area(args[0]) });
    case "special":
      return i18n.t("act.special", { card: ctx.card ? i18n.card(ctx.card) : "" });
    case "skip":
      return i18n.t("act.skip");
    case "done":
      return i18n.t("act.done");
    case "pick":
      return i18n.t("act.pick", { colour: colour(args[0]), area: area(args[1]) });
    case "to":
      return args[0] === "castillo"
        ? i18n.t("act.to.castillo")
        : i18n.t("act.to", { area: area(args[0]) });
    case "return":
      return i18n.t("act.return", { colour: colour(args[0]), area: area(args[1]) });
    case "disc":
      return i18n.t("act.disc", { area: area(args[0]) });
    case "region":
      return i18n.t("act.region", { area: area(args[0]) });
    case "king":
      return i18n.t("act.king", { area: area(args[0]) });
    case "grande":
      return i18n.t("act.grande", { area: area(args[0]) });
    case "tile":
      return i18n.t("act.tile", { tile: args[0], area: area(args[1]) });
    case "powerback":
      return i18n.t("act.powerback", { n: args[0] });
    case "option":
      return (ctx.card && i18n.cardOption(ctx.card, args[0])) || i18n.t("act.option", { n: args[0] });
    case "veto":
      return i18n.t("act.veto");
    case "allow":
      return i18n.t("act.allow");
    case "first":
      return i18n.t("act.first", { colour: colour(args[0]) });
    case "kingcard":
      return i18n.t("act.kingcard", { area: area(args[0]) });
    case "home":
      return i18n.t("act.home", { colour: colour(args[0]), area: area(args[1]) });
    case "reveal":
      return i18n.t("act.reveal", { deck: args[0], card: i18n.card(args[1]) });
    case "remove":
      return !args[1] || args[1] === HIDDEN
        ? i18n.t("act.remove_unseen", { deck: args[0] })
        : i18n.t("act.remove", { deck: args[0], card: i18n.card(args[1]) });
    case "deal":
      return i18n.t("act.deal", { colour: colour(args[0]), card: i18n.card(args[1]) });
    case "dummycard":
      return i18n.t("act.dummycard", { area: area(args[0]) });
    case "dummypower":
      return i18n.t("act.dummypower", { n: args[0] });
    case "shift":
      return i18n.t("act.shift", { n: args[0], card: i18n.card(args[1]) });
    case "pass":
      return i18n.t("act.pass", { card: i18n.card(args[0]) });
    case "grey":
      return i18n.t("act.grey");
    case "movegrande":
      return i18n.t("act.movegrande", { colour: colour(args[0]), area: area(args[1]) });
    case "viceroy":
      return i18n.t("act.viceroy", { colour: colour(args[0]) });
    default:
      return action.text;
  }
}

/** A log line's secret argument the viewer may not see (null: the engine's; undefined: none). */
const unseen = (value) => value === null || value === undefined;

/** A log line's step as an action: its arguments in the verb table's order, a secret one the
 * viewer may not see as HIDDEN (for the button labels' words). */
function actionOf(line) {
  const params = line.params ?? {};
  const args = table().params(line.key).map((name) => params[name] ?? HIDDEN);
  return { verb: line.key, args, text: line.text };
}

/** A log line's step (`key`, `params`; a secret argument null) as a phrase without its actor. */
export function logText(i18n, line, ctx = {}) {
  const verb = line.key;
  const p = line.params ?? {};
  if (verb === "disc" && unseen(p.area)) return i18n.t("log.disc");
  if (verb === "powerback" && unseen(p.card_or_modifier)) return i18n.t("log.powerback");
  if (verb === "pass" && unseen(p.modifier)) return i18n.t("group.pass");
  if (verb === "deal" && unseen(p.modifier)) return i18n.t("log.deal", { colour: i18n.colour(p.colour) });
  if (verb === "power") return i18n.t("ui.power_card", { n: p.number });
  if (verb === "card") return i18n.t("log.card", { card: i18n.card(p.card) });
  return label(i18n, actionOf(line), ctx);
}

/**
 * One log line as one plain sentence (issue 11), from its step's `key` and `params`: `actor` is
 * the actor's display name (null for chance steps, which need none). A secret argument the
 * viewer may not see is null ("disc", "powerback", "pass", the card of a "deal"); revealed ones
 * and a seat's own come with their value. `ctx.card`: the card the actor took last.
 */
export function logSentence(i18n, actor, line, ctx = {}) {
  const verb = line.key;
  const p = line.params ?? {};
  const say = (key, params = {}) => i18n.t(`log.say.${key}`, { actor, ...params });
  const area = (a) => i18n.area(a);
  const colour = (c) => i18n.colour(c);
  switch (verb) {
    case "power":
      return say("power", { n: p.number });
    case "shift":
      return say("shift", { n: p.number, card: i18n.card(p.modifier) });
    case "take":
      return say("take", { n: p.number });
    case "recall":
      return say("recall", { area: area(p.area) });
    case "card":
      return say("card", { card: i18n.card(p.card) });
    case "place":
      return p.area === "castillo" ? say("place_castillo") : say("place", { area: area(p.area) });
    case "special":
      return ctx.card ? say("special", { card: i18n.card(ctx.card) }) : say("special_plain");
    case "skip":
    case "done":
    case "grey":
    case "veto":
    case "allow":
      return say(verb);
    case "pick":
      return say("pick", { colour: colour(p.colour), area: area(p.area) });
    case "to":
      return p.area === "castillo" ? say("to_castillo") : say("to", { area: area(p.area) });
    case "return":
      return say("return", { colour: colour(p.colour), area: area(p.area) });
    case "disc":
      return !unseen(p.area) ? say("disc", { area: area(p.area) }) : say("disc_secret");
    case "region":
    case "king":
    case "grande":
      return say(verb, { area: area(p.area) });
    case "tile":
      return say("tile", { tile: p.tile, area: area(p.area) });
    case "powerback": {
      const card = p.card_or_modifier;
      if (unseen(card)) return say("powerback_secret");
      return /^\d+$/.test(card) ? say("powerback", { n: card }) : say("powerback_modifier", { card: i18n.card(card) });
    }
    case "option":
      return say("option", { choice: (ctx.card && i18n.cardOption(ctx.card, p.number)) || p.number });
    case "first":
      return say("first", { colour: colour(p.colour) });
    case "kingcard":
      return say("kingcard", { area: area(p.area) });
    case "home":
      return say("home", { colour: colour(p.colour), area: area(p.area) });
    case "reveal":
      return say("reveal", { deck: p.deck, card: i18n.card(p.card) });
    case "remove":
      return unseen(p.card) ? say("remove_unseen", { deck: p.deck }) : say("remove", { deck: p.deck, card: i18n.card(p.card) });
    case "deal":
      return !unseen(p.modifier) ? say("deal", { colour: colour(p.colour), card: i18n.card(p.modifier) }) : say("deal_secret", { colour: colour(p.colour) });
    case "dummycard":
      return say("dummycard", { area: area(p.area) });
    case "dummypower":
      return say("dummypower", { n: p.number });
    case "pass":
      return say("pass_secret");
    case "movegrande":
      return say("movegrande", { colour: colour(p.colour), area: area(p.area) });
    case "viceroy":
      return say("viceroy", { colour: colour(p.colour) });
    case "castillo-fix": {
      const m = /^([a-z]+)([+-]\d+)$/.exec(p.colour_change ?? "");
      if (m) return say("castillo_fix", { colour: colour(m[1]), delta: m[2] });
      return say("other", { text: label(i18n, actionOf(line), ctx) });
    }
    default:
      return say("other", { text: label(i18n, actionOf(line), ctx) });
  }
}

/** A revealed set of secret discs as one sentence ("Coup: green → Valencia, blue → Sevilla"). */
export function revealSentence(i18n, card, discs, round) {
  const what = card === "general" ? i18n.t("score.general", { round }) : i18n.card(card);
  const list = Object.entries(discs ?? {}).map(([c, a]) => `${i18n.colour(c)} → ${i18n.area(a)}`).join(", ");
  return i18n.t("log.reveal", { what, discs: list });
}
