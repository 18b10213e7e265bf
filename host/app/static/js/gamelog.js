// The game log as the table and the seat pages show it (docs/table-api.md, `state.log`): one
// line per entry, newest first, in the page's language. The shell words what every game shares
// (undo, corrections of the throw checks, the tower, problems); the game's plugin words its own
// entries (`logLine`, else `logText` for an action). An action's or undo's line says the step as
// the engine does: `key` (the verb) and `params` (each argument by name, a secret one null for a
// viewer who may not see it); plugins word it from those, never by parsing its `text`.

import { COLOURS } from "./colours.js";
import { capitalise, h } from "./dom.js";

/** An actor's display name; null for chance steps (their sentences name no actor). */
export function actorName(i18n, actor) {
  if (actor === "chance") return null;
  if (actor === "table") return i18n.t("colour.table");
  if (actor === "tower") return i18n.t("tower.title");
  return capitalise(i18n.colour(actor));
}

/** One entry's line. `ctx`: what the plugin's `logContext` says of this entry. */
export function logLine(i18n, e, ctx = {}, plugin = null) {
  const actor = actorName(i18n, e.actor) ?? i18n.t("colour.chance");
  // a step (`key`, `params`) in the plugin's words; its notation where the plugin has none
  const label = () => (plugin?.logText && e.key ? plugin.logText(i18n, e, ctx) : e.text);
  switch (e.kind) {
    case "undo":
      return i18n.t("log.undo", { actor, text: label() });
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
    default:
      return plugin?.logLine?.(i18n, e, ctx) ?? i18n.t("log.line", { actor, text: label() });
  }
}

/** The log's lines, newest first (`limit`: the newest that many only). */
export function logList(i18n, entries, { plugin = null, limit = 0 } = {}) {
  const context = plugin?.logContext ? plugin.logContext(entries) : [];
  let rows = entries.map((e, i) => [e, context[i] ?? {}]).reverse();
  if (limit) rows = rows.slice(0, limit);
  return h("ol.log", {}, rows.map(([e, ctx]) => h(
    "li",
    { "data-kind": e.kind ?? "action", "data-n": e.n },
    e.round ? h("span.log-round", {}, String(e.round)) : null,
    COLOURS[e.actor] ? h("span.swatch", { style: { background: COLOURS[e.actor] } }) : null,
    logLine(i18n, e, ctx, plugin),
  )));
}
