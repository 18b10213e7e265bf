// Scoring breakdowns (per area: counts, places, ties, points, bonuses and why a bonus was lost)
// and the chart of scores per round.

import { capitalise, h, esc } from "/static/js/dom.js";
import { COLOURS } from "/static/js/colours.js";
import { colourName, swatched } from "./colournames.js";

/** A breakdown's reason ({key: "note.*", params}) in the current language. */
export function noteText(i18n, reason) {
  const params = reason.params ?? {};
  return i18n.t(reason.key, { ...params, colour: params.colour ? i18n.colour(params.colour) : "" });
}

// The tokens a breakdown's cell shows (the legend explains the same ones).
const countToken = (n) => `${n}×`;
const rankToken = (i18n, n, tied) => i18n.t("score.rank_n", { n }) + (tied ? ` ${i18n.t("score.tied")}` : "");
const pointsToken = (n) => `+${n}`;
const bonusToken = (i18n, n) => `+${n} ${i18n.t("score.bonus")}`;

/** What the cell's tokens mean, each shown as the cell shows it. */
export function scoringLegend(i18n) {
  const item = (cls, token, key) =>
    h("span.legend-item", { "data-legend": key }, h(`span.token.${cls}`, {}, token), ` ${i18n.t(`score.legend.${key}`)}`);
  return h(
    "p.scoring-legend",
    {},
    item("count", countToken(2), "count"),
    item("rank", rankToken(i18n, 1, false), "rank"),
    item("rank", rankToken(i18n, 2, true), "tied"),
    item("pts", pointsToken(4), "points"),
    item("bonus", bonusToken(i18n, 2), "bonus"),
  );
}

/** "Purple → Galicia, Green → court": each colour named with its swatch. */
function whereTo(i18n, entries) {
  return entries.flatMap(([p, a], i) => [i ? ", " : "", colourName(i18n, p), ` → ${i18n.area(a)}`]);
}

export function scoringTitle(i18n, scoring) {
  const what =
    scoring.kind === "general"
      ? i18n.t("score.general", { round: scoring.round })
      : i18n.t("score.card", { card: i18n.card(scoring.kind), round: scoring.round });
  return i18n.t("score.title", { what });
}

/** One scoring event as a table (areas × players). */
export function scoringView(i18n, scoring, players) {
  const head = h(
    "tr",
    {},
    h("th", { scope: "col" }, i18n.t("score.area")),
    players.map((p) =>
      h("th.player-col", { scope: "col" }, colourName(i18n, p)),
    ),
  );
  const rows = [];
  for (const area of scoring.areas) {
    const token = area.token;
    const tied = new Set(area.tied ?? []);
    rows.push(
      h(
        "tr.area-row",
        { "data-area": token },
        h("th", { scope: "row" }, h("div.area-name", {}, i18n.area(token)), h("div.values", {}, area.values.join("-"))),
        players.map((p) => {
          const count = area.counts[p];
          if (!count) return h("td.empty", {}, "·");
          const rank = area.ranks[p];
          const points = area.points[p] ?? 0;
          const bonus = area.bonus[p] ?? 0;
          return h(
            `td.cell${rank === 1 ? ".first" : ""}${tied.has(p) ? ".tied" : ""}`,
            { title: "" },
            h("span.count", {}, countToken(count)),
            h("span.rank", {}, rankToken(i18n, rank, tied.has(p))),
            h("span.pts", {}, pointsToken(points)),
            bonus ? h("span.bonus", {}, bonusToken(i18n, bonus)) : null,
          );
        }),
      ),
    );
    if (area.why?.length) {
      rows.push(
        h(
          "tr.notes",
          {},
          h("td", { colspan: players.length + 1 }, area.why.map((reason) => h("div.note", { "data-note": reason.key }, swatched(i18n, (words) => capitalise(noteText(words, reason)))))),
        ),
      );
    }
  }
  const totals = h(
    "tr.totals",
    {},
    h("th", { scope: "row" }, i18n.t("score.totals")),
    players.map((p) => h("td", {}, String(scoring.totals?.[p] ?? ""))),
  );
  const extra = [];
  if (scoring.discs) {
    extra.push(
      h(
        "p.discs",
        {},
        `${i18n.t("score.discs")}: `,
        whereTo(i18n, Object.entries(scoring.discs)),
      ),
    );
  }
  if (scoring.moved) {
    extra.push(
      h(
        "p.moved",
        {},
        `${i18n.t("score.moved")}: `,
        whereTo(i18n, Object.entries(scoring.moved)),
      ),
    );
  }
  return h(
    "article.scoring",
    { "data-kind": scoring.kind, "data-round": scoring.round },
    h("h3", {}, scoringTitle(i18n, scoring)),
    extra,
    scoringLegend(i18n),
    h("div.table-wrap", {}, h("table.breakdown", {}, h("thead", {}, head), h("tbody", {}, rows, totals))),
  );
}

/** Points of the chart: the start, every round's end, and every general scoring's result. */
export function chartPoints(game) {
  const players = game.players ?? [];
  const out = [{ label: "0", scores: players.map(() => 0) }];
  const generals = (game.scorings ?? []).filter((s) => s.kind === "general");
  for (const entry of game.score_history ?? []) {
    out.push({ label: String(entry.round), scores: entry.scores });
    const scoring = generals.find((s) => s.round === entry.round);
    if (scoring) {
      out.push({ label: `${entry.round}✓`, scores: players.map((p) => scoring.totals[p]), scoring: true });
    }
  }
  return out;
}

/** The chart of scores per round as an SVG string. */
export function scoreChart(i18n, game) {
  const players = game.players ?? [];
  const pts = chartPoints(game);
  const W = 640;
  const H = 300;
  const left = 44;
  const bottom = 34;
  const top = 16;
  const right = 16;
  const max = Math.max(10, ...pts.flatMap((p) => p.scores));
  const yMax = Math.ceil(max / 10) * 10;
  const x = (i) => left + (pts.length <= 1 ? 0 : (i * (W - left - right)) / (pts.length - 1));
  const y = (v) => top + (1 - v / yMax) * (H - top - bottom);
  let svg =
    `<svg class="chart" viewBox="0 0 ${W} ${H}" role="img" xmlns="http://www.w3.org/2000/svg" ` +
    `aria-label="${esc(i18n.t("score.chart_title"))}">`;
  for (let v = 0; v <= yMax; v += yMax / 5) {
    svg += `<line class="grid" x1="${left}" x2="${W - right}" y1="${y(v)}" y2="${y(v)}"/>`;
    svg += `<text class="axis" x="${left - 6}" y="${y(v) + 4}" text-anchor="end">${Math.round(v)}</text>`;
  }
  pts.forEach((p, i) => {
    if (p.scoring) {
      svg += `<line class="scoring-mark" x1="${x(i)}" x2="${x(i)}" y1="${top}" y2="${H - bottom}"/>`;
    }
    svg += `<text class="axis" x="${x(i)}" y="${H - bottom + 18}" text-anchor="middle">${esc(p.label)}</text>`;
  });
  players.forEach((player, k) => {
    const line = pts.map((p, i) => `${x(i)},${y(p.scores[k] ?? 0)}`).join(" ");
    const colour = COLOURS[player] ?? "#888";
    svg += `<polyline class="series" data-colour="${esc(player)}" points="${line}" stroke="${colour}"/>`;
    pts.forEach((p, i) => {
      svg += `<circle cx="${x(i)}" cy="${y(p.scores[k] ?? 0)}" r="3.5" fill="${colour}"/>`;
    });
  });
  svg += `<text class="axis" x="${W - right}" y="${H - 4}" text-anchor="end">${esc(i18n.t("ui.round"))}</text>`;
  return `${svg}</svg>`;
}
