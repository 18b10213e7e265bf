// Throw checks (a game with the tower): open expectations and blocking issues with their
// resolutions. `players`: the colours with pieces in play (the game's plugin says which).

import { capitalise, fill, h } from "./dom.js";
import { COLOURS } from "./colours.js";
import { confirmDialog } from "./confirm.js";

const confirmPick = new Map(); // issue id -> chosen colours

export function checksView(i18n, checks, { send, players = [] }) {
  const warnings = Object.entries(checks?.warnings ?? {});
  if (!checks || (!checks.open?.length && !checks.issues?.length && !checks.scoring_check && !warnings.length)) return null;
  const open = (checks.open ?? []).flatMap((o) => [
    o.waiting ? h("p.check-open", { "data-check": o.colour }, h("span.hourglass", { "aria-hidden": "true" }), withColour(i18n, "check.open", { count: o.waiting, colour: o.colour }, "colour")) : null,
    o.unannounced ? h("p.check-open", { "data-check": o.colour }, h("span.hourglass", { "aria-hidden": "true" }), withColour(i18n, "check.unannounced", { count: o.unannounced, colour: o.colour }, "colour")) : null,
  ]);
  const issues = (checks.issues ?? []).map((issue) => issueView(i18n, issue, send, players));
  return h(
    `div.check-box${checks.blocked ? ".blocked" : ""}`,
    {},
    checks.blocked ? h("strong", {}, i18n.t("check.blocked")) : null,
    checks.scoring_check ? h("p.check-open", {}, h("span.hourglass", { "aria-hidden": "true" }), i18n.t("check.scoring")) : null,
    open,
    issues,
    warnings.map(([key, text]) => (key === "stuck" ? stuckChute(i18n, text) :
      h("p.check-warning", { "data-check-warning": key }, "⚠ ", i18n.has(`check.warn.${key}`) ? i18n.t(`check.warn.${key}`) : text))),
  );
}

/** The tower's stuck chute (its beam blocked for long: a cube caught in it), shown as what it
 * is: a drawing of the chute with the cube caught, what happened, and what to do. */
export function stuckChute(i18n, text = "") {
  const what = i18n.has("check.stuck.title") ? i18n.t("check.stuck.title") : text;
  const how = i18n.has("check.warn.stuck") ? i18n.t("check.warn.stuck") : "";
  const drawing =
    '<svg viewBox="0 0 40 48" aria-hidden="true" xmlns="http://www.w3.org/2000/svg">' +
    '<path d="M6 2 L34 2 L26 30 L26 46 L14 46 L14 30 Z" fill="#efe3c8" stroke="#5c4520" stroke-width="3" stroke-linejoin="round"/>' +
    '<rect x="15" y="22" width="10" height="10" rx="2" fill="#cf3a2b" stroke="#1a1a1a" stroke-width="1.5" transform="rotate(-12 20 27)"/>' +
    '<path d="M8 28 L2 34 M32 28 L38 34" stroke="#d23a2a" stroke-width="3" stroke-linecap="round"/></svg>';
  const icon = h("span.chute-icon");
  icon.innerHTML = drawing; // a fixed drawing, no text from anywhere
  return h("div.stuck-chute", { role: "alert", "data-check-warning": "stuck", id: "stuck-chute" },
    icon, h("div", {}, h("strong.stuck-title", {}, what), how ? h("p.stuck-how", {}, how) : null));
}

/** A colour's name as a player's name: capitalised, after its swatch. */
function named(i18n, colour) {
  return h("span.colour-name", { "data-colour": colour },
    COLOURS[colour] ? h("span.swatch", { style: { background: COLOURS[colour] }, "aria-hidden": "true" }) : null,
    capitalise(i18n.colour(colour)));
}

/** `i18n.t(key, params)` with the colour parameter `name` drawn as a named swatch. */
function withColour(i18n, key, params, name) {
  const mark = "\uE000";
  const text = i18n.t(key, { ...params, [name]: mark });
  const at = text.indexOf(mark);
  if (at < 0) return text;
  return [text.slice(0, at), named(i18n, params[name]), text.slice(at + mark.length)];
}

/** "2 × green, 1 × orange" in the page's language. */
function cubes(i18n, counts) {
  return Object.entries(counts ?? {}).map(([colour, count]) => i18n.t("check.cubes", { count, colour: i18n.colour(colour) })).join(", ");
}

/** The words of one fix: what to do with the pieces (per issue kind, else the plain label). */
function fixLabel(i18n, issue, how) {
  const [colour] = Object.keys(issue.colours ?? {});
  const [thrown] = Object.keys(issue.thrown ?? {});
  const params = { colour: i18n.colour(colour ?? ""), announced: i18n.colour(colour ?? ""), thrown: i18n.colour(thrown ?? "") };
  for (const key of [`check.how.${issue.kind}.${how}`, `check.how.${how}`]) if (i18n.has(key)) return i18n.t(key, params);
  return how;
}

/** Undo, after asking for the cube to be taken out first when it is already in the tower.
 * `cubeLeftByUndo(state)`: the game's plugin says which colour's cube the undo would leave. */
export async function undoWithCare(i18n, state, send, message, cubeLeftByUndo = null) {
  const colour = cubeLeftByUndo?.(state) ?? null;
  if (colour && !(await confirmDialog(i18n, i18n.t("check.undo_thrown", { colour: i18n.colour(colour) }), i18n.t("ui.undo")))) return;
  send(message);
}

/** The issue's cubes in words; the server's English text where only it knows the numbers. */
function detail(i18n, issue) {
  if (["missing", "extra", "undone"].includes(issue.kind) && issue.colours) {
    return h("p", {}, Object.entries(issue.colours).map(([colour, count]) =>
      i18n.t(`check.${issue.kind}_detail`, { count, colour: i18n.colour(colour) })).join(", "));
  }
  if (issue.kind === "wrong_colour") {
    const [announced] = Object.keys(issue.colours ?? {});
    const [thrown] = Object.keys(issue.thrown ?? {});
    return h("p", {}, i18n.t("check.wrong_colour_detail", { announced: i18n.colour(announced), thrown: i18n.colour(thrown) }));
  }
  if (issue.kind === "take_out") {
    const what = issue.grande ? i18n.t("check.take_out_grande") : i18n.t("check.take_out_detail", { cubes: cubes(i18n, issue.colours) });
    const then = issue.rethrow ? i18n.t("check.take_out_rethrow", { cubes: cubes(i18n, issue.rethrow) }) : "";
    return h("p", {}, [what, then].filter(Boolean).join(" "));
  }
  if (issue.kind === "grande") return h("p", {}, i18n.t("check.grande_detail"));
  if (issue.kind === "interrupted") {
    const clock = (s) => new Date(s * 1000).toLocaleTimeString(i18n.lang);
    return h("p", {}, i18n.t("check.interrupted_detail", { from: clock(issue.from), to: clock(issue.to) }));
  }
  if (["count", "emptied"].includes(issue.kind) && issue.text) return h("p.muted", { lang: "en" }, issue.text);
  return null;
}

/** The colours picked so far, each named with its swatch. */
function pickedNames(i18n, list) {
  return list.flatMap((c, i) => [i ? ", " : "", named(i18n, c)]);
}

function issueView(i18n, issue, send, players) {
  const title = i18n.has(`check.kind.${issue.kind}`) ? i18n.t(`check.kind.${issue.kind}`) : issue.kind;
  const body = [h("h4", {}, title), detail(i18n, issue)];
  if (issue.kind === "confirm") {
    const n = issue.cubes ?? (Object.values(issue.colours ?? {}).reduce((a, b) => a + b, 0) || 1);
    if (!confirmPick.has(issue.id) && issue.best) confirmPick.set(issue.id, Array(n).fill(issue.best));
    const chosen = confirmPick.get(issue.id) ?? [];
    const palette = players.length ? players : Object.keys(COLOURS).filter((c) => c !== "yellow");
    body.push(
      h("p", {}, i18n.t("check.confirm")),
      h("div.row", {}, palette.map((c) =>
        h("button.colour-btn.named", {
          type: "button", "data-confirm-colour": c,
          onclick: (event) => {
            const list = [...(confirmPick.get(issue.id) ?? []), c].slice(-n);
            confirmPick.set(issue.id, list);
            fill(event.target.closest(".issue").querySelector(".picked"), pickedNames(i18n, list));
          },
        }, h("span.swatch", { style: { background: COLOURS[c] }, "aria-hidden": "true" }), h("span.colour-label", {}, capitalise(i18n.colour(c)))))),
      h("p.picked", {}, pickedNames(i18n, chosen)),
      h("button.primary", {
        type: "button", "data-confirm": issue.id,
        onclick: () => send({ type: "confirm", check: issue.id, colours: confirmPick.get(issue.id) ?? [] }),
      }, i18n.t("check.confirm_send")),
    );
  }
  const options = (issue.options ?? []).map((how) =>
    h("button.secondary", {
      type: "button", "data-resolve": how, "data-issue": issue.id,
      onclick: () => (how === "undo" ? send({ type: "undo" }) : send({ type: "resolve", issue: issue.id, how })),
    }, fixLabel(i18n, issue, how)),
  );
  return h("div.issue", { "data-issue-kind": issue.kind, "data-issue-id": issue.id }, body, h("div.row", {}, options));
}
