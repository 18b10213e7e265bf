// El Caballero's map as SVG: area cards drawn from their descriptions (docs/elcaballero-cards.md),
// land regions tinted by the owner of the majority, region sizes, caballero cards with their
// numbers, ships and castillos. The regions are the engine's (the view's `regions`, each area
// card naming the region of each of its parts): nothing here joins them. A card tried on the
// map is drawn from the engine's preview of it (preview.js).

import { esc } from "/static/js/dom.js";
import { COLOURS } from "/static/js/colours.js";
import { labelsOfRegions } from "./labels.js";

export const LAND = 0;
export const SEA = 1;
export const SIDES = "NESW";
const STEP = [[0, -1], [1, 0], [0, 1], [-1, 0]]; // N E S W; y grows southwards
const FILL = { [LAND]: "#d6bf7a", [SEA]: "#5b95c9" };
const CELL = 60;
// the smallest text on the map, in map units: a page draws the map at least so large that this is
// readable (plugin.js: 14 px on a tablet, 11 px on a phone)
export const MIN_FONT = 14;
const FONT = { treasure: 14, badge: 15, number: 16, landNumber: 21 };

/** A card's regions from its one-word description ("LNSg1+SE+SWf1"), printed orientation. */
export function parseCard(text) {
  return String(text).split("+").map((part) => {
    let mask = 0;
    let i = 1;
    while (i < part.length && SIDES.includes(part[i])) mask |= 1 << SIDES.indexOf(part[i++]);
    return { kind: part[0] === "L" ? LAND : SEA, mask, treasure: i < part.length ? Number(part.slice(i + 1)) : 0 };
  });
}

/** An edge mask turned clockwise by `turns` quarter turns (N goes to E). */
export function turned(mask, turns) {
  const r = ((turns % 4) + 4) % 4;
  return ((mask << r) | (mask >> (4 - r))) & 15;
}

/** The card's regions as they lie on the map, turned so that its printed north faces `rotation`. */
export function onMap(text, rotation) {
  return parseCard(text).map((r) => ({ ...r, mask: turned(r.mask, rotation) }));
}

export const cellXY = (cell) => cell.split(",").map(Number);
export const cellOf = (x, y) => `${x},${y}`;
export function neighbour(cell, side) {
  const [x, y] = cellXY(cell);
  return cellOf(x + STEP[side][0], y + STEP[side][1]);
}

/** A view's area cards by cell, each with its regions as they lie on the map (`shapes`) and the
 * index in the view's `regions` of the map region each belongs to (`regions`: from the engine,
 * views.py `areas_view`; absent on a card drawn before the engine placed it). */
const byCell = new WeakMap();
export function mapOf(view) {
  const areas = view.areas ?? [];
  let cards = byCell.get(areas);
  if (!cards) {
    cards = new Map(areas.map((a) => [a.cell, { ...a, shapes: onMap(a.card, a.rotation) }]));
    byCell.set(areas, cards);
  }
  return { cards, regions: view.regions ?? [] };
}

/** What a cell faces on `side`: {kind, region (index in the view's regions)}, or null (no area
 * card there). */
function facing(map, cell, side) {
  const card = map.cards.get(neighbour(cell, side));
  if (!card) return null;
  const back = (side + 2) % 4;
  const i = card.shapes.findIndex((r) => r.mask >> back & 1);
  return { kind: card.shapes[i].kind, region: card.regions?.[i] };
}

/** The regions a cell faces, each once: [{region, kind}] in the order of the sides N E S W. */
export function facingRegions(map, cell) {
  const out = [];
  for (let side = 0; side < 4; side++) {
    const seen = facing(map, cell, side);
    if (seen && !out.some((o) => o.region === seen.region)) out.push(seen);
  }
  return out;
}

/** The sides of a cell that face land (map sides). */
export function landSides(map, cell) {
  return [0, 1, 2, 3].filter((side) => facing(map, cell, side)?.kind === LAND);
}

/** The land regions a cell faces, one per side that faces land. */
export function landRegionsAround(map, cell) {
  return landSides(map, cell).map((side) => facing(map, cell, side).region);
}

/** The colour with the most caballeros in a region (null: nobody, or a tie for the most). */
export function leader(totals) {
  const rows = Object.entries(totals).filter(([, n]) => n > 0).sort((a, b) => b[1] - a[1]);
  if (!rows.length || (rows.length > 1 && rows[1][1] === rows[0][1])) return null;
  return rows[0][0];
}

function blend(a, b, t) {
  const rgb = (hex) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  const [x, y] = [rgb(a), rgb(b)];
  return `rgb(${x.map((v, i) => Math.round(v + (y[i] - v) * t)).join(",")})`;
}

const bits = (mask) => [0, 1, 2, 3].filter((d) => mask >> d & 1).length;

/** Where a region's marks go on its card (0..1): the closed ones in the middle, side by side. */
export function hubs(regions) {
  const closed = regions.map((r, i) => (r.mask ? -1 : i)).filter((i) => i >= 0);
  return regions.map((r, i) => {
    if (!r.mask) return [0.5 + (closed.indexOf(i) - (closed.length - 1) / 2) * 0.32, 0.5];
    const sides = [0, 1, 2, 3].filter((d) => r.mask >> d & 1);
    const x = sides.reduce((s, d) => s + STEP[d][0], 0) / sides.length;
    const y = sides.reduce((s, d) => s + STEP[d][1], 0) / sides.length;
    return [0.5 + x * 0.3, 0.5 + y * 0.3];
  });
}

/**
 * One area card's SVG at (x0, y0), `regions` in map orientation; `tint(i)` is the colour of
 * region i's majority owner (or null); `label(i)` an optional size mark for region i.
 */
export function cardSvg(regions, x0, y0, { size = CELL, tint = () => null, label = () => null, extra = "" } = {}) {
  const S = size;
  const fillOf = (i) => {
    const base = FILL[regions[i].kind];
    const colour = tint(i);
    return colour ? blend(base, COLOURS[colour] ?? "#888888", 0.62) : base;
  };
  const other = (i) => FILL[1 - regions[i].kind];
  const c = [S / 2, S / 2];
  const corners = [[0, 0], [S, 0], [S, S], [0, S]]; // NW NE SE SW
  const at = (d) => regions.findIndex((r) => r.mask >> d & 1);
  // the region in the middle: the one reaching most edges (one joining opposite edges first)
  let centre = 0;
  regions.forEach((r, i) => {
    const better = bits(r.mask) - bits(regions[centre].mask) || ((r.mask & 5) === 5 || (r.mask & 10) === 10 ? 1 : 0);
    if (better > 0) centre = i;
  });
  const p = ([x, y]) => `${(x0 + x).toFixed(1)},${(y0 + y).toFixed(1)}`;
  let out = `<g class="ec-card"${extra}>`;
  for (let d = 0; d < 4; d++) {
    out += `<polygon points="${p(corners[d])} ${p(corners[(d + 1) % 4])} ${p(c)}" fill="${fillOf(at(d))}"/>`;
  }
  const k = 0.16 * S;
  out += `<rect x="${x0 + c[0] - k}" y="${y0 + c[1] - k}" width="${2 * k}" height="${2 * k}" fill="${fillOf(centre)}"/>`;
  const line = (a, b, colour, w) => `<line x1="${p(a).split(",")[0]}" y1="${p(a).split(",")[1]}" x2="${p(b).split(",")[0]}" y2="${p(b).split(",")[1]}" stroke="${colour}" stroke-width="${w}" stroke-linecap="round"/>`;
  for (let d = 0; d < 4; d++) {
    const [a, b] = [at(d), at((d + 1) % 4)];
    if (a !== b && regions[a].kind === regions[b].kind) out += line(corners[(d + 1) % 4], c, other(a), 0.08 * S);
    if (a !== centre && regions[a].kind === regions[centre].kind) {
      // this edge's region stops short of the middle one: a strip of the other kind between
      const [dx, dy] = STEP[d];
      const q = 0.21 * S;
      const across = [dy, -dx];
      out += line([c[0] + dx * q + across[0] * q, c[1] + dy * q + across[1] * q], [c[0] + dx * q - across[0] * q, c[1] + dy * q - across[1] * q], other(a), 0.07 * S);
    }
  }
  const spots = hubs(regions);
  const clamp = (v, lo, hi) => Math.min(hi, Math.max(lo, v));
  const tall = (FONT.badge * 1.3) / S;
  const spotsEarly = hubs(regions);
  // what a badge must not cover: the gold and fish marks, then the badges placed so far:
  // [x, y, half width, half height] (0..1 of the card)
  const placed = regions.filter((r) => r.treasure).map((r) => {
    const i = regions.indexOf(r);
    return [spotsEarly[i][0], spotsEarly[i][1], 0.19, 0.19];
  });
  regions.forEach((r, i) => {
    const [hx, hy] = [x0 + spots[i][0] * S, y0 + spots[i][1] * S];
    if (!r.mask) out += `<circle cx="${hx}" cy="${hy}" r="${0.15 * S}" fill="${fillOf(i)}" stroke="${other(i)}" stroke-width="${0.04 * S}"/>`;
    if (r.treasure) {
      const mark = r.kind === LAND ? "ec-gold" : "ec-fish";
      out += `<g class="${mark}"><circle cx="${hx}" cy="${hy}" r="${0.19 * S}"/><text x="${hx}" y="${hy + FONT.treasure * 0.36}" font-size="${FONT.treasure}">${r.treasure}</text></g>`;
    }
    const mark = label(i);
    if (mark !== null && mark !== undefined) {
      // the region's name and size: a badge kept on the card, off its gold or fish
      const width = 0.6 * FONT.badge * String(mark.text).length + 6;
      const half = (width / 2 + 1) / S;
      const hx0 = clamp(spots[i][0], half, 1 - half);
      const hy0 = clamp(spots[i][1], 0.13, 0.87);
      // off a gold or fish mark and off another region's badge: the free spot on the card
      // nearest the region's hub (two badges on one card lie one above the other; a card is
      // too narrow for two side by side), else the spot that covers the least
      const cover = (x, y) => placed.reduce((sum, [px, py, pw, ph]) => {
        const w = Math.min(x + half, px + pw) - Math.max(x - half, px - pw);
        const t = Math.min(y + tall / 2, py + ph) - Math.max(y - tall / 2, py - ph);
        return sum + (w > 0.005 && t > 0.005 ? w * t : 0);
      }, 0);
      let [bx, by, least] = [hx0, hy0, cover(hx0, hy0)];
      if (least > 0) {
        const spotsToTry = [];
        for (let x = half; x < 1 - half + 0.001; x += 0.025) for (let y = 0.1; y < 0.901; y += 0.025) spotsToTry.push([x, y]);
        spotsToTry.sort((a, b) => Math.hypot(a[0] - hx0, a[1] - hy0) - Math.hypot(b[0] - hx0, b[1] - hy0));
        for (const [x, y] of spotsToTry) {
          const c = cover(x, y);
          if (c < least - 1e-9) [bx, by, least] = [x, y, c];
          if (c === 0) break;
        }
      }
      placed.push([bx, by, half, tall / 2]);
      const [cx, cy] = [x0 + bx * S, y0 + by * S];
      out += `<g class="ec-badge ${r.kind === LAND ? "land" : "sea"}" data-label="${esc(mark.label)}" data-kind="${r.kind === LAND ? "land" : "sea"}">` +
        `<rect x="${cx - width / 2}" y="${cy - FONT.badge * 0.62}" width="${width}" height="${FONT.badge * 1.24}" rx="${FONT.badge * 0.4}"/>` +
        `<text class="ec-size" x="${cx}" y="${cy + FONT.badge * 0.36}" font-size="${FONT.badge}">${esc(mark.text)}</text></g>`;
    }
  });
  return `${out}</g>`;
}

/** A caballero card at (x0, y0): owner's frame, the numbers towards each side (the one facing
 * land stands out), ships on its sea edges, a castillo in the middle. */
function caballeroSvg(c, x0, y0, facingLand) {
  const S = CELL;
  const colour = COLOURS[c.owner] ?? "#888";
  let out = `<g class="ec-caballero" data-owner="${esc(c.owner)}" data-cabcell="${esc(c.cell)}">`;
  out += `<rect x="${x0 + 3}" y="${y0 + 3}" width="${S - 6}" height="${S - 6}" rx="5" fill="#f7f1e3" stroke="${colour}" stroke-width="5"/>`;
  for (let d = 0; d < 4; d++) {
    const [dx, dy] = STEP[d];
    const land = facingLand.includes(d);
    const size = land ? FONT.landNumber : FONT.number;
    const [tx, ty] = [x0 + S / 2 + dx * 0.3 * S, y0 + S / 2 + dy * 0.3 * S + size * 0.36];
    out += `<text class="ec-number${land ? " land" : ""}" x="${tx}" y="${ty}" font-size="${size}" fill="${land ? colour : "#555"}">${c.numbers[d]}</text>`;
    if ((c.ships ?? []).includes(SIDES[d])) {
      const [sx, sy] = [x0 + S / 2 + dx * 0.44 * S, y0 + S / 2 + dy * 0.44 * S];
      out += `<g class="ec-ship" data-side="${SIDES[d]}"><path d="M${sx - 8} ${sy} L${sx + 8} ${sy} L${sx + 5} ${sy + 5} L${sx - 5} ${sy + 5} Z" fill="#6b4a2b"/>` +
        `<path d="M${sx} ${sy - 10} L${sx} ${sy} L${sx + 7} ${sy} Z" fill="${colour}" stroke="#222" stroke-width="0.8"/></g>`;
    }
  }
  if (c.castillo) {
    const [cx, cy] = [x0 + S / 2, y0 + S / 2];
    out += `<path class="ec-castillo" d="M${cx - 8} ${cy + 8} L${cx - 8} ${cy - 6} L${cx - 5} ${cy - 6} L${cx - 5} ${cy - 9} L${cx - 2} ${cy - 9} L${cx - 2} ${cy - 6} L${cx + 2} ${cy - 6} L${cx + 2} ${cy - 9} L${cx + 5} ${cy - 9} L${cx + 5} ${cy - 6} L${cx + 8} ${cy - 6} L${cx + 8} ${cy + 8} Z" fill="#8c7b66" stroke="#222" stroke-width="1"/>`;
  }
  if (c.grande) out += `<circle class="ec-grande" cx="${x0 + S - 12}" cy="${y0 + 12}" r="6" fill="${colour}" stroke="#111" stroke-width="2"/>`;
  return `${out}</g>`;
}

/**
 * The whole map: `game` is the view; `targets` Set of cells to mark as tappable; `selected` the
 * focused cell; `ghost` an area card tried at a cell ({cell, card, rotation}), drawn plain until
 * `after`, the map the engine says the placement makes ({areas, caballeros, regions}: the
 * preview's), is drawn instead of the view's; `lost` cells of caballero cards it knocks off.
 */
export function mapSvg(game, { targets = new Set(), ghost = null, selected = null, after = null, lost = new Set() } = {}) {
  const shown = after ?? game;
  const areas = ghost && !after ? [...(game.areas ?? []), ghost] : shown.areas ?? [];
  const caballeros = shown.caballeros ?? [];
  const map = mapOf({ areas, regions: shown.regions });
  const regions = map.regions;
  const cells = [...areas.map((a) => a.cell), ...caballeros.map((c) => c.cell), ...lost, ...targets];
  if (!cells.length) cells.push("0,0"); // before the start card: where it will lie
  const xs = cells.map((c) => cellXY(c)[0]);
  const ys = cells.map((c) => cellXY(c)[1]);
  const [minX, minY] = [Math.min(...xs), Math.min(...ys)];
  const [w, h] = [Math.max(...xs) - minX + 1, Math.max(...ys) - minY + 1];
  const at = (cell) => {
    const [x, y] = cellXY(cell);
    return [(x - minX) * CELL, (y - minY) * CELL];
  };
  // each region's name and size are marked once, on its top-left card (labels.js)
  const names = labelsOfRegions(regions);
  const badges = new Map(); // region index → {cell, label, text}
  regions.forEach((r, i) => {
    const first = (r.cards ?? []).map((c) => [cellXY(c), c]).sort((a, b) => a[0][1] - b[0][1] || a[0][0] - b[0][0])[0]?.[1];
    badges.set(i, { cell: first, label: names[i], text: `${r.type === "land" ? "" : "≈"}${names[i]}·${r.size}` });
  });
  let out = `<svg class="ec-map-svg" viewBox="-4 -4 ${w * CELL + 8} ${h * CELL + 8}" data-w="${w * CELL + 8}" data-h="${h * CELL + 8}" xmlns="http://www.w3.org/2000/svg" role="img">`;
  for (const [cell, card] of map.cards) {
    const [x0, y0] = at(cell);
    const index = (i) => card.regions?.[i];
    const isGhost = ghost && cell === ghost.cell;
    out += cardSvg(card.shapes, x0, y0, {
      tint: (i) => (card.shapes[i].kind === LAND && regions[index(i)] ? leader(regions[index(i)].caballeros ?? {}) : null),
      label: (i) => {
        const badge = badges.get(index(i));
        if (!badge || badge.cell !== cell) return null;
        badges.delete(index(i)); // once, on the first of its regions on that card
        return badge;
      },
      extra: ` data-area="${esc(cell)}"${isGhost ? ' opacity="0.85"' : ""}`,
    });
    if (isGhost) out += `<rect class="ec-ghost" x="${x0 + 1}" y="${y0 + 1}" width="${CELL - 2}" height="${CELL - 2}"/>`;
  }
  for (const c of caballeros) {
    const [x0, y0] = at(c.cell);
    out += caballeroSvg(c, x0, y0, landSides(map, c.cell));
  }
  for (const cell of lost) {
    const [x0, y0] = at(cell);
    out += `<g class="ec-lost" data-lost="${esc(cell)}"><line x1="${x0 + 6}" y1="${y0 + 6}" x2="${x0 + CELL - 6}" y2="${y0 + CELL - 6}"/><line x1="${x0 + CELL - 6}" y1="${y0 + 6}" x2="${x0 + 6}" y2="${y0 + CELL - 6}"/></g>`;
  }
  for (const cell of targets) {
    const [x0, y0] = at(cell);
    const chosen = cell === selected ? " chosen" : "";
    out += `<rect class="ec-target${chosen}" data-cell="${esc(cell)}" x="${x0 + 3}" y="${y0 + 3}" width="${CELL - 6}" height="${CELL - 6}" rx="6"/>`;
  }
  return `${out}</svg>`;
}

/** A market card (printed orientation) as a small SVG. */
export function cardPicture(text) {
  const regions = parseCard(text);
  return `<svg class="ec-card-svg" viewBox="-2 -2 ${CELL + 4} ${CELL + 4}" xmlns="http://www.w3.org/2000/svg" role="img">` +
    `${cardSvg(regions, 0, 0)}<rect x="0" y="0" width="${CELL}" height="${CELL}" fill="none" stroke="#333" stroke-width="1.5"/></svg>`;
}
