// The simulation's dropper panel (throw virtual cubes into the simulated tower, lift the
// castillo) and the tower's recent events.

import { capitalise, h } from "./dom.js";
import { COLOURS } from "./colours.js";

const panel = { colour: null, count: 1, how: "single" };
const HOWS = ["single", "handful", "merged", "grande", "stuck"];
const SIM_COLOURS = ["purple", "green", "blue", "orange", "red", "yellow", "black", "white"];

/** `players`: the colours with pieces in play (the game's plugin says which). */
export function dropperView(i18n, state, { send, players = [] }) {
  // the players' colours first, then the others the simulated sensor knows (a cube of a colour
  // not in the game comes back "uncertain": the table is asked to confirm it)
  const palette = [...players, ...SIM_COLOURS.filter((c) => !players.includes(c))];
  if (!panel.colour || !palette.includes(panel.colour)) {
    panel.colour = state?.acting_as && palette.includes(state.acting_as) ? state.acting_as : palette[0];
  }
  const root = h("div.dropper", { id: "dropper" });
  const redraw = () => root.replaceWith(dropperView(i18n, state, { send, players }));
  root.append(
    h("h3", {}, i18n.t("drop.title")),
    h("div.row", { role: "radiogroup", "aria-label": i18n.t("drop.colour") },
      palette.map((c) =>
        h(`button.colour-btn${panel.colour === c ? ".on" : ""}`, {
          type: "button", role: "radio", "aria-checked": panel.colour === c ? "true" : "false",
          "data-drop-colour": c, style: { background: COLOURS[c] }, "aria-label": i18n.colour(c),
          onclick: () => { panel.colour = c; redraw(); },
        }, panel.colour === c ? "✓" : "", players.includes(c) ? null : h("span.not-in-game", { "aria-hidden": "true" }, "?")))),
    h("div.row", {},
      h("span.label", {}, i18n.t("drop.count")),
      h("button.step", { type: "button", "data-drop-less": "1", onclick: () => { panel.count = Math.max(1, panel.count - 1); redraw(); } }, "−"),
      h("span.count", { "data-drop-count": "1" }, String(panel.count)),
      h("button.step", { type: "button", "data-drop-more": "1", onclick: () => { panel.count = Math.min(12, panel.count + 1); redraw(); } }, "+")),
    h("div.row", { role: "radiogroup", "aria-label": i18n.t("drop.how") },
      HOWS.map((how) =>
        h(`button.how-btn${panel.how === how ? ".on" : ""}`, {
          type: "button", role: "radio", "aria-checked": panel.how === how ? "true" : "false", "data-drop-how": how,
          onclick: () => { panel.how = how; redraw(); },
        }, i18n.t(`drop.how.${how}`)))),
    h("div.row", {},
      h("button.primary", {
        type: "button", id: "drop-btn",
        onclick: async () => {
          const cubes = Array.from({ length: panel.how === "grande" ? 1 : panel.count }, () => panel.colour);
          await send({ type: "drop", cubes, how: panel.how });
        },
      }, i18n.t("drop.throw", { count: panel.how === "grande" ? 1 : panel.count, colour: i18n.colour(panel.colour) })),
      gateButton(i18n, send, true, state?.checks?.gate_open === true),
      gateButton(i18n, send, false, state?.checks?.gate_open === false)),
  );
  return root;
}

function gateButton(i18n, send, open, on) {
  return h(`button.secondary.gate-btn${on ? ".on" : ""}`, {
    type: "button", "data-gate": open ? "open" : "close", "aria-pressed": on ? "true" : "false",
    onclick: () => send({ type: "gate", open }),
  }, i18n.t(open ? "drop.gate_open" : "drop.gate_close"));
}

/** The tower's warning in the page's language (the server's English text as a fallback); its
 * times (`warning_params`, epoch seconds: an interruption's from/to) in local clock time. */
export function towerWarning(i18n, tower) {
  if (!tower?.warning) return "";
  if (!tower.warning_key || !i18n.has(tower.warning_key)) return tower.warning;
  const params = {};
  for (const [name, value] of Object.entries(tower.warning_params ?? {})) {
    params[name] = typeof value === "number" ? new Date(value * 1000).toLocaleTimeString(i18n.lang) : value;
  }
  return i18n.t(tower.warning_key, params);
}

export function towerEvents(i18n, state) {
  const tower = state?.tower;
  if (!tower) return h("div");
  const recent = [...(tower.recent ?? [])].reverse().map((e) => {
    const key = `tower.event.${e.kind}`;
    const text = i18n.has(key) ? i18n.t(key, { colour: e.colour ? i18n.colour(e.colour) : "" }) : i18n.t("tower.event.other", { kind: e.kind });
    const at = e.at ? new Date(e.at * 1000).toLocaleTimeString() : "";
    return h("li", {}, e.colour ? h("span.swatch", { style: { background: COLOURS[e.colour] ?? "#888" } }) : null, `${at} ${text}`);
  });
  return h(
    "div.tower-info",
    {},
    h("h3", {}, `${i18n.t("tower.title")}: ${capitalise(i18n.t(`tower.mode.${tower.mode}`))} — ${i18n.t(`tower.state.${tower.state}`)}`),
    tower.port ? h("p.muted", {}, tower.port) : null,
    tower.warning ? h("p.warn", {}, `⚠ ${towerWarning(i18n, tower)}`) : null,
    h("ul.tower-events", {}, recent),
  );
}
