// The action notation (docs/notation.md): parse a legal action, name it, group it, find its areas.

export const REGIONS = [
  "Galicia", "Navarra", "Aragon", "Cataluna", "Castilla", "Toledo", "Valencia", "Sevilla", "Granada",
];
export const AREAS = new Set([...REGIONS, "castillo", "France", "Portugal", "court"]);

export function parse(text) {
  const [verb = "", ...args] = String(text).trim().split(/\s+/);
  return { verb: verb.toLowerCase(), args, text };
}

/** The group (a heading of the choice panel) an action belongs to. */
export function groupOf(verb) {
  if (["first", "kingcard", "home", "reveal", "remove", "deal", "dummycard", "dummypower"].includes(verb)) {
    return "chance";
  }
  if (verb === "shift") return "power";
  if (verb === "grey") return "special";
  if (verb === "movegrande") return "grande";
  if (verb === "viceroy") return "king";
  if (["special", "skip"].includes(verb)) return "special";
  if (["veto", "allow"].includes(verb)) return "veto";
  if (verb === "done") return "end";
  return verb;
}

/** The areas an action points at (the map taps). */
export function areasOf(action) {
  return action.args.filter((a) => AREAS.has(a));
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
      return !args[1] || args[1] === "?"
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
  if (action.verb === "disc" && !action.args.length) return i18n.t("log.disc");
  if (action.verb === "powerback" && !action.args.length) return i18n.t("log.powerback");
  if (action.verb === "pass" && !action.args.length) return i18n.t("group.pass");
  if (action.verb === "deal" && action.args.length === 1) return i18n.t("log.deal", { colour: i18n.colour(action.args[0]) });
  if (action.verb === "power") return i18n.t("ui.power_card", { n: action.args[0] });
  if (action.verb === "card") return i18n.t("log.card", { card: i18n.card(action.args[0]) });
  return label(i18n, action, ctx);
}
