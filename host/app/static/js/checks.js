// Throw checks (the castillo): open expectations and blocking issues with their resolutions.

import { h } from "./dom.js";
import { COLOURS } from "./board.js";

const confirmPick = new Map(); // issue id -> chosen colours

export function checksView(i18n, checks, { send, players = [] }) {
  if (!checks || (!checks.open?.length && !checks.issues?.length && !checks.scoring_check)) return null;
  const open = (checks.open ?? []).flatMap((o) => [
    o.waiting ? h("p.check-open", { "data-check": o.colour }, "⏳ ", i18n.t("check.open", { count: o.waiting, colour: i18n.colour(o.colour) })) : null,
    o.unannounced ? h("p.check-open", { "data-check": o.colour }, "⏳ ", i18n.t("check.unannounced", { count: o.unannounced, colour: i18n.colour(o.colour) })) : null,
  ]);
  const issues = (checks.issues ?? []).map((issue) => issueView(i18n, issue, send, players));
  return h(
    `div.check-box${checks.blocked ? ".blocked" : ""}`,
    {},
    checks.blocked ? h("strong", {}, i18n.t("check.blocked")) : null,
    checks.scoring_check ? h("p.check-open", {}, "⏳ ", i18n.t("check.scoring")) : null,
    open,
    issues,
  );
}

/** The issue's cubes in words; the server's English text where only it knows the numbers. */
function detail(i18n, issue) {
  if (["missing", "extra"].includes(issue.kind) && issue.colours) {
    return h("p", {}, Object.entries(issue.colours).map(([colour, count]) =>
      i18n.t(`check.${issue.kind}_detail`, { count, colour: i18n.colour(colour) })).join(", "));
  }
  if (["count", "emptied"].includes(issue.kind) && issue.text) return h("p.muted", { lang: "en" }, issue.text);
  return null;
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
        h("button.colour-btn", {
          type: "button", "data-confirm-colour": c, style: { background: COLOURS[c] }, "aria-label": i18n.colour(c),
          onclick: (event) => {
            const list = [...(confirmPick.get(issue.id) ?? []), c].slice(-n);
            confirmPick.set(issue.id, list);
            event.target.closest(".issue").querySelector(".picked").textContent = list.map((x) => i18n.colour(x)).join(", ");
          },
        }))),
      h("p.picked", {}, chosen.map((x) => i18n.colour(x)).join(", ")),
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
    }, i18n.has(`check.how.${how}`) ? i18n.t(`check.how.${how}`) : how),
  );
  return h("div.issue", { "data-issue-kind": issue.kind, "data-issue-id": issue.id }, body, h("div.row", {}, options));
}
