// El Grande's UI plugin (host/app/static/js/plugins.js; the interface: docs/table-app.md).
// The table is one screen (layout "fit"): round track, prompt, the map, the choices, players,
// cards and tabs; a seat's page holds the hand, the secret discs and the map. Every function
// the shell calls gets the shell's i18n and words it over with El Grande's (words.js).

import { stylesheet } from "/static/js/dom.js";
import { loadMap } from "./board.js";
import * as log from "./log.js";
import { logText as actionText } from "./notation.js";
import * as seat from "./seat.js";
import * as table from "./table.js";
import { wordsOver } from "./words.js";

export { newGameForm, optionTags } from "./lobby.js";

/** The table page is exactly one screen (the shell's fit layout). */
export const layout = "fit";
/** The page parts this plugin fills (the shell empties none of them). */
export const tableParts = ["prompt", "choices", "board", "acting", "undo", "players", "cards", "track"];
export const seatParts = ["prompt", "mine", "choices", "undo", "hand", "board", "me", "players", "log"];

const STYLES = "/games/elgrande/plugin.css";

/** Before a state is drawn: the stylesheet, the map and the edition's game data. */
export async function prepare(state, i18n) {
  const edition = state.game?.edition ?? state.options?.edition ?? "2023";
  await Promise.all([stylesheet(STYLES), loadMap(), wordsOver(i18n).useEdition(edition)]);
}

const worded = (ctx) => ({ ...ctx, i18n: wordsOver(ctx.i18n) });

export const renderTable = (ctx, parts) => table.renderTable(worded(ctx), parts);
export const renderSeat = (ctx, parts) => seat.renderSeat(worded(ctx), parts);
export const tableTabs = (ctx) => table.tableTabs(worded(ctx));
export const tableNotices = (ctx) => table.tableNotices(worded(ctx));

/** The colours with caballeros in play (the throw checks and the dropper offer them). */
export const coloursInPlay = (state) => (state.game ? table.inPlay(state.game) : []);

export const logContext = log.logContext;
export const logLine = (i18n, entry, ctx) => log.logLine(wordsOver(i18n), entry, ctx);
export const logText = (i18n, line, ctx) => actionText(wordsOver(i18n), line, ctx);

/** The colour whose cube an undo would leave in the tower: the last move threw a caballero into
 * the castillo and the tower has seen it (El Grande's `place castillo`, or a move `to castillo`). */
export function cubeLeftByUndo(state) {
  const log = state?.log ?? [];
  const last = log[log.length - 1];
  const into = last?.kind === "action" && ["place", "to"].includes(last.key) && last.params?.area === "castillo";
  if (!into) return null;
  let colour = last.actor;
  if (last.key === "to") {
    const pick = log[log.length - 2];
    colour = pick?.key === "pick" ? pick.params?.colour : null;
  }
  const waiting = (state.checks?.open ?? []).some((o) => o.colour === colour && o.waiting);
  return colour && !waiting ? colour : null;
}

