// The names of the map's regions, the same on the map, in the scoring breakdown and in the log
// (the adapter's log facts follow the same rule, host/games/elcaballero/adapter.py): islands are
// lettered A, B, C, ... and seas numbered 1, 2, 3, ..., each kind in reading order of its
// top-left card (the northmost row first, then from the west), ties by treasure, then size.

/** The cell "x,y" as [y, x]: the reading order of cells. */
const readingKey = (cell) => {
  const [x, y] = String(cell).split(",").map(Number);
  return [y, x];
};

function firstCell(cells) {
  let best = null;
  for (const cell of cells) {
    const k = readingKey(cell);
    if (!best || k[0] < best[0] || (k[0] === best[0] && k[1] < best[1])) best = k;
  }
  return best ?? [0, 0];
}

/** "A".."Z", then "AA", "AB", ... */
export function letters(i) {
  let out = "";
  let n = i + 1;
  while (n > 0) {
    const r = (n - 1) % 26;
    out = String.fromCharCode(65 + r) + out;
    n = Math.floor((n - 1) / 26);
  }
  return out;
}

/**
 * `regions`: [{land: bool, cells: [cell], treasure: n}] → their labels, in the same order
 * ("A" for an island, "1" for a sea).
 */
export function regionLabels(regions) {
  const labels = new Array(regions.length).fill("");
  for (const land of [true, false]) {
    const order = regions.map((r, i) => ({ r, i, at: firstCell(r.cells) })).filter(({ r }) => r.land === land);
    order.sort((a, b) => a.at[0] - b.at[0] || a.at[1] - b.at[1] || a.r.treasure - b.r.treasure || a.r.cells.length - b.r.cells.length);
    order.forEach(({ i }, n) => { labels[i] = land ? letters(n) : String(n + 1); });
  }
  return labels;
}

/** A scoring's (or the view's) regions → their labels. */
export function labelsOfRegions(regions) {
  return regionLabels((regions ?? []).map((r) => ({
    land: r.type === "land", cells: r.cards ?? [], treasure: (r.type === "land" ? r.gold : r.fish) ?? 0,
  })));
}

/** A region in words ("island B", "sea 2"). */
export function regionName(i18n, land, label) {
  return i18n.t(land ? "ec.island" : "ec.sea", { n: label });
}
