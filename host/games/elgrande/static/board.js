// The board: an SVG map of the 9 regions, France, Portugal and the castillo, with caballeros,
// the King, the Grandes and the scoring tiles. Geometry comes from map.json beside this module.

import { COLOURS } from "/static/js/colours.js";
import { esc } from "/static/js/dom.js";
import { getJson } from "/static/js/net.js";


let MAP = null;

export async function loadMap() {
  if (!MAP) MAP = await getJson("/games/elgrande/map.json");
  return MAP;
}

const points = (pts) => pts.map(([x, y]) => `${x},${y}`).join(" ");

function crown(x, y, s = 1) {
  return (
    `<g class="king" transform="translate(${x - 14 * s} ${y - 12 * s}) scale(${s})">` +
    `<path d="M2 22 L0 4 L8 12 L14 0 L20 12 L28 4 L26 22 Z" fill="#f2c230" stroke="#6b4c00" ` +
    `stroke-width="2"/><rect x="2" y="22" width="24" height="4" fill="#6b4c00"/></g>`
  );
}

function grande(x, y, colour, s = 1) {
  const fill = COLOURS[colour] ?? "#999";
  return (
    `<g class="grande" data-colour="${esc(colour)}" transform="translate(${x - 10 * s} ${y - 14 * s}) scale(${s})">` +
    `<circle cx="10" cy="5" r="5" fill="${fill}" stroke="#111" stroke-width="1.5"/>` +
    `<path d="M3 28 L6 10 L14 10 L17 28 Z" fill="${fill}" stroke="#111" stroke-width="1.5"/></g>`
  );
}

/** A caballero count: a square of the colour, the number in it (two digits: a wider one). */
function chip(x, y, colour, count, z) {
  const fill = COLOURS[colour] ?? "#999";
  const w = count >= 10 ? z.chip * 1.3 : z.chip;
  return (
    `<g class="chip" data-colour="${esc(colour)}" data-count="${count}">` +
    `<rect x="${r1(x - w / 2)}" y="${r1(y - z.chip / 2)}" width="${r1(w)}" height="${r1(z.chip)}" ` +
    `rx="${r1(z.chip / 6)}" fill="${fill}" stroke="#1a1a1a" stroke-width="1.5"/>` +
    `<text x="${r1(x)}" y="${r1(y + z.count * 0.36)}" class="chip-n">${count}</text></g>`
  );
}

const r1 = (v) => Math.round(v * 10) / 10;
const up = (v) => Math.ceil(v * 10) / 10; // a font size: never below what was asked

function chipRows(cx, top, entries, perRow, z) {
  return itemRows(cx, top, entries.map(([colour, n]) => ["chip", colour, n]), perRow, z);
}

/** The King, Grandes and caballeros of an area in centred rows (a chip and a gap a step). */
function itemRows(cx, top, items, perRow, z) {
  let out = "";
  const step = z.chip + 3;
  for (let i = 0; i < items.length; i += perRow) {
    const row = items.slice(i, i + perRow);
    const start = cx - ((row.length - 1) * step) / 2;
    const y = top + (i / perRow) * (z.chip + 5);
    row.forEach((item, j) => {
      const x = start + j * step;
      if (item[0] === "king") out += crown(x, y, z.chip / 28);
      else if (item[0] === "grande") out += grande(x, y, item[1], z.chip / 28);
      else out += chip(x, y, item[1], item[2], z);
    });
  }
  return out;
}

/**
 * The smallest text a board must show, in CSS px on the screen: the table's board is read from
 * about 1 m away, a phone's in the hand.
 */
export const READABLE = {
  table: { name: 18, value: 18, count: 24 },
  phone: { name: 13, value: 12, count: 14 },
};

/**
 * Board units per CSS pixel when the board is drawn into `container`: with `fill`, the SVG fills
 * the container (its aspect kept, sea around it), else it is as wide as the container.
 */
export function unitsPerPx(container, fill = false) {
  const [, , w, hgt] = MAP.viewBox;
  const width = container.clientWidth;
  const height = container.clientHeight;
  if (!width) return 1;
  return fill && height ? Math.max(w / width, hgt / height) : w / width;
}

/** Text and piece sizes in board units for `k` units per pixel, never below the drawing's own. */
function sizes(k, readable) {
  const m = k * 1.01; // 1 % to spare: the container's size in whole pixels rounds the scale
  const z = {
    name: Math.max(21, readable.name * m),
    value: Math.max(15, readable.value * m),
    count: Math.max(17, readable.count * m),
  };
  z.chip = Math.max(28, z.count * 1.2);
  return z;
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
 * opts: { i18n, data, lit: Set of areas to light, taps: Set of tappable areas, openCastillo,
 *   k: board units per CSS pixel on the screen (unitsPerPx), readable: READABLE.table or .phone }
 * Text grows with `k` so that it is never smaller on the screen than `readable` says.
 */
export function boardSvg(game, opts) {
  const { i18n, data, lit = new Set(), taps = new Set() } = opts;
  const z = sizes(opts.k ?? 1, opts.readable ?? READABLE.phone);
  const map = MAP;
  const [x0, y0, w, hgt] = map.viewBox;
  const king = game.king;
  const grandesAt = {};
  for (const [colour, where] of Object.entries(game.grandes ?? {})) {
    (grandesAt[where] ??= []).push(colour);
  }
  let svg =
    `<svg class="board" viewBox="${x0} ${y0} ${w} ${hgt}" role="group" ` +
    `style="--name:${up(z.name)}px;--value:${up(z.value)}px;--count:${up(z.count)}px;--border:${up(z.name * 0.95)}px" ` +
    `aria-label="${esc(i18n.t("ui.board"))}" xmlns="http://www.w3.org/2000/svg">` +
    `<rect class="sea" x="${x0}" y="${y0}" width="${w}" height="${hgt}"/>`;
  for (const [token, b] of Object.entries(map.borders)) {
    svg +=
      `<g class="border-land" data-border="${token}"><polygon points="${points(b.points)}"/>` +
      `<text class="border-name" x="${b.label[0]}" y="${b.label[1]}">${esc(i18n.area(token))}</text></g>`;
  }
  let contents = "";
  let outlines = "";
  let pieces = "";
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
    // shapes first, then every label, then the pieces above all labels, then the lit outlines
    svg +=
      `<g class="${classes.join(" ")}" data-area="${token}"${taps.has(token) ? ' role="button" tabindex="0"' : ""} ` +
      `aria-label="${esc(label)}"><polygon points="${points(r.points)}"/></g>`;
    contents +=
      `<g class="region-content" data-content="${token}">` +
      `<text class="region-name" x="${lx}" y="${ly}">${esc(i18n.area(token))}</text>` +
      (values ? `<text class="values${values.tile ? " tile" : ""}" x="${lx}" y="${r1(ly + z.value * 1.05)}">${esc(values.text)}</text>` : "") +
      "</g>";
    // the pieces above every name: a crowded region's last row may reach a neighbour's name,
    // and a count matters more than a name the map already shows
    pieces += `<g class="region-content" data-pieces="${token}">${piecesOf(r, items, ly + z.value * 1.3 + z.chip / 2 + 4, z)}</g>`;
    if (lit.has(token)) outlines += `<polygon class="lit-outline" points="${points(r.points)}"/>`;
  }
  svg += contents + pieces + outlines;
  svg += castilloSvg(game, opts, z);
  return `${svg}</svg>`;
}

/** A region's pieces in rows from `top` (the first row's centre), as many a row as it is wide. */
function piecesOf(region, items, top, z) {
  if (!items.length) return "";
  const { n, cx } = perRow(region, z, top, items.length);
  return itemRows(cx, top, items, n, z);
}

/** Pieces per row in a region (and the row's centre): as many as its width holds at `y`. */
function perRow(region, z, y, count) {
  const [lx] = region.label;
  let left = -Infinity;
  let right = Infinity;
  const pts = region.points;
  // where the row's line crosses the region's edges, nearest the label on either side
  pts.forEach(([x1, y1], i) => {
    const [x2, y2] = pts[(i + 1) % pts.length];
    if ((y1 <= y) === (y2 <= y)) return;
    const x = x1 + ((y - y1) * (x2 - x1)) / (y2 - y1);
    if (x <= lx) left = Math.max(left, x);
    else right = Math.min(right, x);
  });
  if (!Number.isFinite(left) || !Number.isFinite(right)) {
    return { n: Math.max(2, Math.round(((region.perRow ?? 4) * 32) / (z.chip + 3))), cx: lx };
  }
  const room = right - left - 8;
  const n = Math.max(2, Math.floor((room + 3) / (z.chip + 3)));
  // under the label when the row fits there, else centred in the region's width
  const wide = Math.min(n, count) * (z.chip + 3) - 3;
  const cx = lx - wide / 2 >= left + 4 && lx + wide / 2 <= right - 4 ? lx : (left + right) / 2;
  return { n, cx };
}

function castilloSvg(game, opts, z) {
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
    out += `<text class="values${values.tile ? " tile" : ""}" x="${label[0]}" y="${r1(label[1] - 12 + z.value * 1.05)}">${esc(values.text)}</text>`;
  }
  const contents = game.castillo?.contents;
  if (contents) {
    out += chipRows(cx, cy - 80 - z.chip, Object.entries(contents).filter(([, n]) => n), Math.max(2, Math.round(160 / (z.chip + 3))), z);
  }
  return `${out}</g>`;
}

/** Wire taps on the board: `onArea(token)` for a tappable area; `onOther(token or null)` for a
 * tap on anything else of the map (an unlit region, France or Portugal, the sea). */
export function onBoardTap(container, onArea, onOther = null) {
  const handler = (event) => {
    const g = event.target.closest?.("[data-area]");
    if (g && g.classList.contains("tap")) onArea(g.dataset.area);
    else if (onOther && event.type === "click" && event.target.closest?.("svg.board")) {
      onOther(g?.dataset.area ?? event.target.closest("[data-border]")?.dataset.border ?? null);
    }
  };
  container.addEventListener("click", handler);
  container.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") handler(event);
  });
}

/**
 * Pieces never cover a name: after the board is drawn (its text measured by the browser), a
 * region's pieces that overlap any name or values line (its own, a neighbour's, France's) are
 * moved, by the smallest step, to where they cover none, inside their region if they can
 * (a crowded region's rows, or a board squeezed by a panel, can reach a neighbour's name).
 */
export function keepNamesClear(container) {
  const svg = container.querySelector("svg.board");
  if (!svg || !svg.getBoundingClientRect().width) return; // not on the screen: nothing measured
  const box = (el) => {
    const b = el.getBBox();
    return { x: b.x, y: b.y, r: b.x + b.width, b: b.y + b.height };
  };
  const labels = [...svg.querySelectorAll(".region-name, .values, .border-name, .castillo-total")].map(box);
  const groups = [...svg.querySelectorAll("g[data-pieces]")].filter((g) => g.childElementCount);
  const placed = groups.map(box);
  // a point in a region's outline (map.json's polygon, board units: the svg's own)
  const within = (pts, x, y) => {
    let odd = false;
    for (let i = 0, j = pts.length - 1; i < pts.length; j = i++) {
      const [xi, yi] = pts[i];
      const [xj, yj] = pts[j];
      if ((yi > y) !== (yj > y) && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) odd = !odd;
    }
    return odd;
  };
  const inside = (token, b) => {
    const pts = MAP?.regions?.[token]?.points;
    if (!pts) return true;
    return [[b.x + 2, b.y + 2], [b.r - 2, b.y + 2], [b.x + 2, b.b - 2], [b.r - 2, b.b - 2]].every(([x, y]) => within(pts, x, y));
  };
  const steps = [];
  for (let dy = -200; dy <= 200; dy += 4) for (let dx = -200; dx <= 200; dx += 4) steps.push([dx, dy]);
  steps.sort((a, b) => Math.hypot(...a) - Math.hypot(...b));
  // how much of the names (and of other regions' pieces) a box at `c` would cover
  const overlap = (c, boxes) => {
    let area = 0;
    for (const l of boxes) {
      const w = Math.min(c.r, l.r) - Math.max(c.x, l.x) + 2;
      const hgt = Math.min(c.b, l.b) - Math.max(c.y, l.y) + 2;
      if (w > 0 && hgt > 0) area += w * hgt;
    }
    return area;
  };
  groups.forEach((g, i) => {
    const b = placed[i];
    const boxes = [...labels, ...placed.filter((_, j) => j !== i)];
    const now = overlap(b, boxes);
    if (!now) return;
    // the nearest spot covering nothing, in the region if one is; else the one covering least
    let best = null;
    for (const [dx, dy] of steps) {
      const c = { x: b.x + dx, y: b.y + dy, r: b.r + dx, b: b.b + dy };
      const o = overlap(c, boxes);
      if (best && o >= best.cost) continue;
      const cost = o + (inside(g.dataset.pieces, c) ? 0 : 0.5);
      if (!best || cost < best.cost) best = { dx, dy, c, cost };
      if (cost === 0) break;
    }
    if (!best || best.cost >= now) return;
    g.setAttribute("transform", `translate(${best.dx} ${best.dy})`);
    placed[i] = best.c;
  });
  svg.dataset.namesClear = String(groups.length); // measured and laid out (tests wait on it)
}
