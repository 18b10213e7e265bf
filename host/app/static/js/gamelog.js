// The game log as the table and the seat pages show it (docs/table-api.md, `state.log`): one
// plain sentence per line, newest first, in the page's language (issue 11).

import { h } from "./dom.js";
import { COLOURS } from "./board.js";
import { logSentence, logText, revealSentence } from "./notation.js";
import { capitalise } from "./prompt.js";

/** An actor's display name; null for chance steps (their sentences name no actor). */
function actorName(i18n, actor) {
  if (actor === "chance") return null;
  if (actor === "table") return i18n.t("colour.table");
  if (actor === "tower") return i18n.t("tower.title");
  return capitalise(i18n.colour(actor));
}

/** `ctx.card`: the card the entry's actor took last (a choice's option is logged by its words);
 * `plugin`: a game's UI plugin, which words its own actions. */
export function logLine(i18n, e, ctx = {}, plugin = null) {
  const actor = actorName(i18n, e.actor) ?? i18n.t("colour.chance");
  const label = (text) => (plugin?.logText ? plugin.logText(i18n, text) : logText(i18n, text, ctx));
  switch (e.kind) {
    case "undo":
      return i18n.t("log.undo", { actor, text: label(e.text) });
    case "correction": {
      const how = e.text.startsWith("confirm ")
        ? `${i18n.t("check.confirm_send")}: ${e.text.slice(8).split(" ").map((c) => i18n.colour(c)).join(", ")}`
        : i18n.has(`check.how.${e.text}`) ? i18n.t(`check.how.${e.text}`) : e.text;
      return i18n.t("log.correction", { text: e.note ? `${how} (${e.note})` : how });
    }
    case "tower": {
      const key = `tower.event.${e.text}`;
      return `${actor}: ${i18n.has(key) ? i18n.t(key, { colour: "" }) : e.text}`;
    }
    case "problem":
      return i18n.t(`log.problem.${e.text}`, { entry: e.entry });
    case "scoring":
      return i18n.t("log.scoring", { text: e.text === "general" ? i18n.t("score.general", { round: e.round }) : i18n.card(e.text) });
    case "reveal":
      return revealSentence(i18n, e.text, e.discs, e.round);
    default:
      if (plugin?.logText) return i18n.t("log.line", { actor, text: plugin.logText(i18n, e.text) });
      return capitalise(logSentence(i18n, actorName(i18n, e.actor), e.text, ctx));
  }
}

/** The log's lines, newest first (`limit`: the newest that many only). */
export function logList(i18n, entries, { plugin = null, limit = 0 } = {}) {
  const taken = {};
  const cards = entries.map((e) => {
    if (e.kind !== "undo" && String(e.text).startsWith("card ")) taken[e.actor] = String(e.text).slice(5);
    return taken[e.actor];
  });
  let rows = entries.map((e, i) => [e, cards[i]]).reverse();
  if (limit) rows = rows.slice(0, limit);
  return h("ol.log", {}, rows.map(([e, card]) => h(
    "li",
    { "data-kind": e.kind ?? "action", "data-n": e.n },
    e.round ? h("span.log-round", {}, String(e.round)) : null,
    COLOURS[e.actor] ? h("span.swatch", { style: { background: COLOURS[e.actor] } }) : null,
    logLine(i18n, e, { card }, plugin),
  )));
}
