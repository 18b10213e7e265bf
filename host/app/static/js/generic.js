// The generic game plugin: how the shell shows a game that has no plugin of its own
// (host/games/<id>/static/plugin.js). The prompt in words, the legal actions as buttons, and the
// public summary of the game's view. A plugin exports the same two functions.

import { fill, h } from "./dom.js";

/** The prompt in the reader's language (the server's English text when the key is unknown). */
export function promptWords(i18n, prompt) {
  if (!prompt) return "";
  const key = `prompt.${prompt.key}`;
  const params = { actor: (prompt.actors ?? []).join(", "), ...(prompt.params ?? {}) };
  if (prompt.key === "over" && prompt.params?.scores) {
    const scores = Object.entries(prompt.params.scores).map(([who, n]) => `${who} ${n}`).join(", ");
    return `${i18n.t(key)}: ${scores}`;
  }
  return i18n.has(key) ? i18n.t(key, params) : prompt.text ?? prompt.key;
}

function summary(view) {
  const rows = Object.entries(view ?? {}).filter(([key]) => !["log", "legal"].includes(key));
  return h("dl.facts.generic-view", {}, rows.flatMap(([key, value]) => [
    h("dt", {}, key),
    h("dd", { "data-field": key }, typeof value === "string" ? value : JSON.stringify(value)),
  ]));
}

function buttons(legal, act, disabled) {
  return h("div.choice-list", {}, legal.map((text) =>
    h("button.choice", { type: "button", "data-action": text, disabled, onclick: () => act(text) }, text)));
}

/** The shared table: `parts` are the page's elements ({prompt, choices, board}). */
export function renderTable({ state, i18n, act }, parts) {
  fill(parts.prompt, h("span.prompt-text", { id: "prompt-text" }, promptWords(i18n, state.prompt)));
  fill(parts.choices, buttons(state.legal ?? [], act, Boolean(state.checks?.blocked)));
  fill(parts.board, summary(state.game));
}

/** A seat's own page. */
export function renderSeat({ state, i18n, act }, parts) {
  const legal = state.legal ?? [];
  fill(parts.prompt, legal.length ? h("span.phase", {}, i18n.t("ui.your_turn")) : null,
    h("span.prompt-text", { id: "prompt-text" }, promptWords(i18n, state.prompt)));
  fill(parts.choices, legal.length ? buttons(legal, act, Boolean(state.checks?.blocked)) : h("p.muted", {}, i18n.t("ui.nothing_to_do")));
  fill(parts.board, summary(state.game));
}
