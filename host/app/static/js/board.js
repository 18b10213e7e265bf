// The board: an SVG map of the 9 regions, France, Portugal and the castillo, with caballeros,
// the King, the Grandes and the scoring tiles. Geometry comes from static/data/map.json.

import { esc } from "./dom.js";
import { getJson } from "./net.js";

export const COLOURS = {
  purple: "#7d3fa3",
  green: "#2f8a3f",
  blue: "#2b63c8",
  orange: "#ee8a1e",
  red: "#cf3a2b",
  yellow: "#e6c619",
  black: "#262626",
  white: "#f2f2ee",
  pink: "#e0709f", // Kingdomino's fourth castle
};

let MAP = null;

export async function loadMap() {
  if (!MAP) MAP = await getJson("/static/data/map.json");
  return MAP;
}

const points = (pts) => pts.map(([x, y]) => `${x},${y}`).join(" ");

function crown(x, y) {
  return (
    `<g class="king" transform="translate(${x - 14} ${y - 12})">` +
    `<path d="M2 22 L0 4 L8 12 L14 0 L20 12 L28 4 L26 22 Z" fill="#f2c230" stroke="#6b4c00" ` +
    `stroke-width="2"/><rect x="2" y="22" width="24" height="4" fill="#6b4c00"/></g>`
  );
}

function grande(x, y, colour) {
  const fill = COLOURS[colour] ?? "#999";
  return (
    `<g class="grande" data-colour="${esc(colour)}" transform="translate(${x - 10} ${y - 14})">` +
    `<circle cx="10" cy="5" r="5" fill="${fill}" stroke="#111" stroke-width="1.5"/>` +
    `<path d="M3 28 L6 10 L14 10 L17 28 Z" fill="${fill}" stroke="#111" stroke-width="1.5"/></g>`
  );
}

function chip(x, y, colour, count) {
  const fill = COLOURS[colour] ?? "#999";
  return (
    `<g class="chip" data-colour="${esc(colour)}" data-count="${count}">` +
    `<rect x="${x - 14}" y="${y - 14}" width="28" height="28" rx="5" fill="${fill}" ` +
    `stroke="#1a1a1a" stroke-width="1.5"/>` +
    `<text x="${x}" y="${y + 6}" class="chip-n">${count}</text></g>`
  );
}

function chipRows(cx, top, entries, perRow = 3) {
  return itemRows(cx, top, entries.map(([colour, n]) => ["chip", colour, n]), perRow);
}

/** The King, Grandes and caballeros of an area in centred rows (32 px a step). */
function itemRows(cx, top, items, perRow) {
  let out = "";
  for (let i = 0; i < items.length; i += perRow) {
    const row = items.slice(i, i + perRow);
    const start = cx - ((row.length - 1) * 32) / 2;
    const y = top + (i / perRow) * 34;
    row.forEach((item, j) => {
      const x = start + j * 32;
      if (item[0] === "king") out += crown(x, y);
      else if (item[0] === "grande") out += grande(x, y, item[1]);
      else out += chip(x, y, item[1], item[2]);
    });
  }
  return out;
}

/** Values shown on an area: a scoring tile's if one lies there, else the printed ones. */
function valuesFor(token, game, data) {
  const tile = Object.entries(game.tiles ?? {}).find(([, where]) => where === token);
  if (tile) return { text: tile[0], tile: true };
  if (!data) return null;
  const places = (game.players?.length ?? 4) <= 3 ? 2 : 3;
  if (token === "castillo") return { text: data.castillo_values?.slice(0, places).join("-") };
  const region = data.regions?.find((r) => r.token === token);
  if (!region) return null;
  const values = places === 2 ? region.values_2_3_players : region.values;
  return { text: values.join("-") };
}

/**
 * The board as an SVG string.
 * opts: { i18n, data, lit: Set of areas to light, taps: Set of tappable areas, openCastillo }
 */
export function boardSvg(game, opts) {
  const { i18n, data, lit = new Set(), taps = new Set() } = opts;
  const map = MAP;
  const [x0, y0, w, hgt] = map.viewBox;
  const king = game.king;
  const grandesAt = {};
  for (const [colour, where] of Object.entries(game.grandes ?? {})) {
    (grandesAt[where] ??= []).push(colour);
  }
  let svg =
    `<svg class="board" viewBox="${x0} ${y0} ${w} ${hgt}" role="group" ` +
    `aria-label="${esc(i18n.t("ui.board"))}" xmlns="http://www.w3.org/2000/svg">` +
    `<rect class="sea" x="${x0}" y="${y0}" width="${w}" height="${hgt}"/>`;
  for (const [token, b] of Object.entries(map.borders)) {
    svg +=
      `<g class="border-land" data-border="${token}"><polygon points="${points(b.points)}"/>` +
      `<text class="border-name" x="${b.label[0]}" y="${b.label[1]}">${esc(i18n.area(token))}</text></g>`;
  }
  let contents = "";
  let outlines = "";
  for (const [token, r] of Object.entries(map.regions)) {
    const classes = ["region"];
    if (lit.has(token)) classes.push("lit");
    if (taps.has(token)) classes.push("tap");
    if (token === king) classes.push("king-region");
    const [lx, ly] = r.label;
    const values = valuesFor(token, game, data);
    const here = Object.entries(game.board?.[token] ?? {});
    const items = [];
    if (token === king) items.push(["king"]);
    for (const colour of grandesAt[token] ?? []) items.push(["grande", colour]);
    for (const [colour, n] of here) items.push(["chip", colour, n]);
    const label = `${i18n.area(token)}: ${here.map(([c, n]) => `${i18n.colour(c)} ${n}`).join(", ")}`;
    // shapes first, then every label and piece above all shapes, then the lit outlines on top
    svg +=
      `<g class="${classes.join(" ")}" data-area="${token}"${taps.has(token) ? ' role="button" tabindex="0"' : ""} ` +
      `aria-label="${esc(label)}"><polygon points="${points(r.points)}"/></g>`;
    contents +=
      `<g class="region-content" data-content="${token}">` +
      `<text class="region-name" x="${lx}" y="${ly}">${esc(i18n.area(token))}</text>` +
      (values ? `<text class="values${values.tile ? " tile" : ""}" x="${lx}" y="${ly + 18}">${esc(values.text)}</text>` : "") +
      itemRows(lx, ly + 42, items, r.perRow ?? 4) +
      "</g>";
    if (lit.has(token)) outlines += `<polygon class="lit-outline" points="${points(r.points)}"/>`;
  }
  svg += contents + outlines;
  svg += castilloSvg(game, opts);
  return `${svg}</svg>`;
}

function castilloSvg(game, opts) {
  const { i18n, data, lit = new Set(), taps = new Set() } = opts;
  const { center, label } = MAP.castillo;
  const [cx, cy] = center;
  const classes = ["region", "castillo"];
  if (lit.has("castillo")) classes.push("lit");
  if (taps.has("castillo")) classes.push("tap");
  const total = game.castillo?.total ?? 0;
  const values = valuesFor("castillo", game, data);
  let out =
    `<g class="${classes.join(" ")}" data-area="castillo"${taps.has("castillo") ? ' role="button" tabindex="0"' : ""} ` +
    `aria-label="${esc(`${i18n.area("castillo")}: ${total}`)}">` +
    `<circle class="hit" cx="${cx}" cy="${cy}" r="78"/>` +
    `<path class="tower" d="M${cx - 44} ${cy + 56} L${cx - 38} ${cy - 34} L${cx - 46} ${cy - 34} ` +
    `L${cx - 46} ${cy - 62} L${cx - 30} ${cy - 62} L${cx - 30} ${cy - 50} L${cx - 8} ${cy - 50} ` +
    `L${cx - 8} ${cy - 62} L${cx + 8} ${cy - 62} L${cx + 8} ${cy - 50} L${cx + 30} ${cy - 50} ` +
    `L${cx + 30} ${cy - 62} L${cx + 46} ${cy - 62} L${cx + 46} ${cy - 34} L${cx + 38} ${cy - 34} ` +
    `L${cx + 44} ${cy + 56} Z"/>` +
    `<text class="castillo-total" x="${cx}" y="${cy + 14}">${total}</text>` +
    `<text class="region-name" x="${label[0]}" y="${label[1] - 12}">${esc(i18n.area("castillo"))}</text>`;
  if (values) {
    out += `<text class="values${values.tile ? " tile" : ""}" x="${label[0]}" y="${label[1] + 6}">${esc(values.text)}</text>`;
  }
  const contents = game.castillo?.contents;
  if (contents) {
    out += chipRows(cx, cy - 100, Object.entries(contents).filter(([, n]) => n), 5);
  }
  return `${out}</g>`;
}

/** Wire taps on the board: `onArea(token)` for a tappable area. */
export function onBoardTap(container, onArea) {
  const handler = (event) => {
    const g = event.target.closest?.("[data-area]");
    if (g && g.classList.contains("tap")) onArea(g.dataset.area);
  };
  container.addEventListener("click", handler);
  container.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") handler(event);
  });
}
