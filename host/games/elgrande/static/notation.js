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

/** A log line's text for an action (secret steps arrive redacted: "disc", "powerback"). */
export function logText(i18n, text, ctx = {}) {
  const action = parse(text);
  // a secret argument arrives as HIDDEN (the engine's one redaction, `deal purple ?`)
  const secret = (at) => action.args.length <= at || action.args[at] === HIDDEN;
  if (action.verb === "disc" && secret(0)) return i18n.t("log.disc");
  if (action.verb === "powerback" && secret(0)) return i18n.t("log.powerback");
  if (action.verb === "pass" && secret(0)) return i18n.t("group.pass");
  if (action.verb === "deal" && secret(1)) return i18n.t("log.deal", { colour: i18n.colour(action.args[0]) });
  if (action.verb === "power") return i18n.t("ui.power_card", { n: action.args[0] });
  if (action.verb === "card") return i18n.t("log.card", { card: i18n.card(action.args[0]) });
  return label(i18n, action, ctx);
}

/**
 * One log line as one plain sentence (issue 11): `actor` is the actor's display name (null for
 * chance steps, which need none). Secret steps arrive redacted ("disc ?", "powerback ?", "pass ?",
 * "deal purple ?"); revealed ones with their argument. `ctx.card`: the card the actor took last.
 */
export function logSentence(i18n, actor, text, ctx = {}) {
  const { verb, args } = parse(text);
  const say = (key, params = {}) => i18n.t(`log.say.${key}`, { actor, ...params });
  const area = (a) => i18n.area(a);
  const colour = (c) => i18n.colour(c);
  switch (verb) {
    case "power":
      return say("power", { n: args[0] });
    case "shift":
      return say("shift", { n: args[0], card: i18n.card(args[1]) });
    case "take":
      return say("take", { n: args[0] });
    case "recall":
      return say("recall", { area: area(args[0]) });
    case "card":
      return say("card", { card: i18n.card(args[0]) });
    case "place":
      return args[0] === "castillo" ? say("place_castillo") : say("place", { area: area(args[0]) });
    case "special":
      return ctx.card ? say("special", { card: i18n.card(ctx.card) }) : say("special_plain");
    case "skip":
    case "done":
    case "grey":
    case "veto":
    case "allow":
      return say(verb);
    case "pick":
      return say("pick", { colour: colour(args[0]), area: area(args[1]) });
    case "to":
      return args[0] === "castillo" ? say("to_castillo") : say("to", { area: area(args[0]) });
    case "return":
      return say("return", { colour: colour(args[0]), area: area(args[1]) });
    case "disc":
      return args.length && args[0] !== HIDDEN ? say("disc", { area: area(args[0]) }) : say("disc_secret");
    case "region":
    case "king":
    case "grande":
      return say(verb, { area: area(args[0]) });
    case "tile":
      return say("tile", { tile: args[0], area: area(args[1]) });
    case "powerback":
      if (!args.length || args[0] === HIDDEN) return say("powerback_secret");
      return /^\d+$/.test(args[0]) ? say("powerback", { n: args[0] }) : say("powerback_modifier", { card: i18n.card(args[0]) });
    case "option":
      return say("option", { choice: (ctx.card && i18n.cardOption(ctx.card, args[0])) || args[0] });
    case "first":
      return say("first", { colour: colour(args[0]) });
    case "kingcard":
      return say("kingcard", { area: area(args[0]) });
    case "home":
      return say("home", { colour: colour(args[0]), area: area(args[1]) });
    case "reveal":
      return say("reveal", { deck: args[0], card: i18n.card(args[1]) });
    case "remove":
      return !args[1] || args[1] === HIDDEN ? say("remove_unseen", { deck: args[0] }) : say("remove", { deck: args[0], card: i18n.card(args[1]) });
    case "deal":
      return args.length > 1 && args[1] !== HIDDEN ? say("deal", { colour: colour(args[0]), card: i18n.card(args[1]) }) : say("deal_secret", { colour: colour(args[0]) });
    case "dummycard":
      return say("dummycard", { area: area(args[0]) });
    case "dummypower":
      return say("dummypower", { n: args[0] });
    case "pass":
      return say("pass_secret");
    case "movegrande":
      return say("movegrande", { colour: colour(args[0]), area: area(args[1]) });
    case "viceroy":
      return say("viceroy", { colour: colour(args[0]) });
    case "castillo-fix": {
      const m = /^([a-z]+)([+-]\d+)$/.exec(args[0] ?? "");
      if (m) return say("castillo_fix", { colour: colour(m[1]), delta: m[2] });
      return say("other", { text: label(i18n, parse(text), ctx) });
    }
    default:
      return say("other", { text: label(i18n, parse(text), ctx) });
  }
}

/** A revealed set of secret discs as one sentence ("Coup: green → Valencia, blue → Sevilla"). */
export function revealSentence(i18n, card, discs, round) {
  const what = card === "general" ? i18n.t("score.general", { round }) : i18n.card(card);
  const list = Object.entries(discs ?? {}).map(([c, a]) => `${i18n.colour(c)} → ${i18n.area(a)}`).join(", ");
  return i18n.t("log.reveal", { what, discs: list });
}
