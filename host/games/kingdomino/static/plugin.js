// Kingdomino's UI plugin (host/app/static/js/plugins.js): the table shows both lines, whose king
// acts, every kingdom with its territories outlined and its running score, sized to fill the
// tablet's screen (the shell's fit layout); the last move is shown on the board (the domino just
// placed outlined in its kingdom, the domino just claimed marked) and named in the prompt. A
// seat's page places (tap a lit square, rotate, tap again or "Place") and claims by tapping, with
// a hint shown on the board. Squares follow docs/kingdomino-notation.md ("c4": column c, row 4 of
// the window around the castle); the page never shows that notation: the log is sentences and a
// move is shown where it is made.

import { fill, h, stylesheet } from "/static/js/dom.js";
import { verbsOf } from "/static/js/verbs.js";
import { CASTLE_COLOURS, TERRAIN_COLOURS } from "/games/kingdomino/pieces.js";

const STEP = { n: [-1, 0], e: [0, 1], s: [1, 0], w: [0, -1] };
const OPPOSITE = { n: "s", e: "w", s: "n", w: "e" };
const ROTATION = ["e", "s", "w", "n"]; // a quarter turn clockwise each

// What this page holds between two states: the domino being placed (orientation, chosen
// square), a hint, and the last render's arguments (a tap re-renders on its own).
const local = { pick: null, hint: null, asking: false, last: null };

/** The stylesheet is loaded before the first drawing (a page that moves under a tap misplaces it). */
export const prepare = () => stylesheet("/games/kingdomino/plugin.css");

/** The table page is exactly one screen (the shell's fit layout): the board fills what the
 * prompt and the side panel leave, and the kingdoms are sized to it (fitTable). */
export const layout = "fit";

// ------------------------------------------------------------------ squares
const colOf = (square) => square.charCodeAt(0) - 97;
const rowOf = (square) => Number(square.slice(1)) - 1;
const nameOf = (row, col) => `${String.fromCharCode(97 + col)}${row + 1}`;
const neighbour = (square, dir) => nameOf(rowOf(square) + STEP[dir][0], colOf(square) + STEP[dir][1]);

/** A kingdom's squares by name: {terrain, crowns} or {castle: true}. */
function squaresOf(seat) {
  const out = new Map();
  const top = rowOf(seat.top_left);
  const left = colOf(seat.top_left);
  seat.kingdom.forEach((row, i) => row.split(" ").forEach((text, j) => {
    if (text === ".") return;
    out.set(nameOf(top + i, left + j), text === "C" ? { castle: true } : { terrain: text[0], crowns: Number(text.slice(1)) });
  }));
  return out;
}

/** Each square's territory (connected squares of one terrain), for the outlines. */
function territoriesOf(squares) {
  const region = new Map();
  let next = 0;
  for (const [start, square] of squares) {
    if (region.has(start)) continue;
    const id = next++;
    const stack = [start];
    region.set(start, id);
    while (stack.length) {
      const here = stack.pop();
      for (const dir of ROTATION) {
        const there = neighbour(here, dir);
        const other = squares.get(there);
        if (!region.has(there) && other && !square.castle && !other.castle && other.terrain === square.terrain) {
          region.set(there, id);
          stack.push(there);
        }
      }
    }
  }
  return region;
}

function halves(faces) {
  return faces.split(" ").map((text) => ({ terrain: text[0], crowns: Number(text.slice(1)) }));
}

// ------------------------------------------------------------------ actions in notation
function parsed(text) {
  const [verb, domino, where] = text.split(" ");
  return { verb, domino: Number(domino), where };
}

/** The legal placements by orientation: dir → Map(first half's square → the action's text). A
 * domino with two like halves is offered in every orientation (named the canonical way). */
function placementsOf(legal, twin) {
  const out = Object.fromEntries(ROTATION.map((dir) => [dir, new Map()]));
  for (const text of legal) {
    const { verb, where } = parsed(text);
    if (verb !== "place") continue;
    const square = where.slice(0, -1);
    const dir = where.slice(-1);
    out[dir].set(square, text);
    if (twin) out[OPPOSITE[dir]].set(neighbour(square, dir), text);
  }
  return out;
}

function kingLabel(i18n, king) {
  if (!king) return "";
  const [colour, n] = king.split("-");
  return capitalise(n ? i18n.t("kingdomino.ui.king_n", { colour: i18n.colour(colour), n }) : i18n.colour(colour));
}

function actionWords(i18n, text) {
  const { verb, domino } = parsed(text);
  return stepWords(i18n, verb, domino, text.split(" ")[1]) ?? text;
}

/** A step in words: its verb, the domino it names, the seat a king is drawn for (null: a verb
 * without words of its own). */
function stepWords(i18n, verb, domino, seat) {
  if (verb === "draw") return i18n.t("kingdomino.ui.does.draw", { domino });
  if (verb === "king") return i18n.t("kingdomino.ui.does.king", { colour: i18n.colour(seat) });
  if (verb === "place") return i18n.t("kingdomino.ui.does.place", { domino });
  if (verb === "claim") return i18n.t("kingdomino.ui.does.claim", { domino });
  if (verb === "discard") return i18n.t("kingdomino.ui.does.discard", { domino });
  return null;
}

// ------------------------------------------------------------------ pieces
/** A square's crowns: one crown drawn, with their number beside it from two on (readable at
 * any square size). */
function crownsView(n) {
  if (!n) return null;
  return h("span.kd-crowns", { "data-crowns": n }, "♛", n > 1 ? h("span.kd-crown-n", {}, String(n)) : null);
}

function face(half, extra = "") {
  return h(`span.kd-half${extra}`, { style: { background: TERRAIN_COLOURS[half.terrain] ?? "#ccc" }, "data-terrain": half.terrain },
    crownsView(half.crowns));
}

/** A domino's faces in words: "forest, 1 crown / lake". */
function facesWords(i18n, faces) {
  if (!faces) return "";
  return halves(faces).map((half) => {
    const terrain = i18n.t(`kingdomino.terrain.${half.terrain}`);
    return half.crowns ? i18n.t("kingdomino.half", { terrain, crowns: i18n.t(`kingdomino.crowns.${half.crowns}`) }) : terrain;
  }).join(" / ");
}

// ------------------------------------------------------------------ the last move
/** The last player's turn, from the game's own log (so it survives a restart): who moved, the
 * domino placed (or discarded) with its squares, and the domino claimed. Chance steps drawn
 * since (the next line) do not hide it: it stays until the next player's move. */
function lastMove(game) {
  const log = game.log ?? [];
  let i = log.length - 1;
  while (i >= 0 && log[i][0] === "chance") i--;
  if (i < 0) return null;
  const who = log[i][0];
  const move = { who, placed: 0, discarded: false, squares: [], claimed: 0 };
  for (; i >= 0 && log[i][0] === who; i--) {
    const { verb, domino, where } = parsed(log[i][1]);
    if (verb === "claim" && !move.claimed) {
      move.claimed = domino;
      continue;
    }
    if (verbsOf("kingdomino").answers(verb, "place")) { // placed or discarded its domino
      move.placed = domino;
      move.discarded = verb === "discard";
      if (verb === "place") {
        const square = where.slice(0, -1);
        move.squares = [square, neighbour(square, where.slice(-1))];
      }
    }
    break;
  }
  return move;
}

function lastMoveWords(i18n, move) {
  if (!move) return null;
  const who = capitalise(i18n.colour(move.who));
  const params = { who, placed: move.placed, claimed: move.claimed };
  let key;
  if (move.placed && move.claimed) key = move.discarded ? "discard_claim" : "place_claim";
  else if (move.placed) key = move.discarded ? "discard" : "place";
  else key = "claim";
  return h("span.kd-last-move", { id: "kd-last-move", "data-who": move.who, "data-placed": move.placed || null, "data-claimed": move.claimed || null },
    h("span.kd-swatch", { style: { background: CASTLE_COLOURS[move.who] } }), i18n.t(`kingdomino.ui.last.${key}`, params));
}

function dominoView(i18n, entry, { claim, current, act, last }) {
  const [a, b] = halves(entry.faces);
  const colour = entry.king && !entry.placed ? entry.king.split("-")[0] : null;
  const attrs = { "data-domino": entry.domino, title: facesWords(i18n, entry.faces), "data-last": last ? "1" : null };
  const body = [
    h("span.kd-number", {}, String(entry.domino)),
    h("span.kd-faces", {}, face(a), face(b),
      colour ? h("span.kd-king", { style: { background: CASTLE_COLOURS[colour] }, "data-king": entry.king }, kingLabel(i18n, entry.king)) : null),
  ];
  if (claim) {
    return h(`button.kd-domino.claimable${last ? ".last" : ""}`, { ...attrs, type: "button", "data-action": claim, onclick: () => act(claim) }, body);
  }
  return h(`div.kd-domino${current ? ".current" : ""}${entry.placed ? ".placed" : ""}${last ? ".last" : ""}`, attrs, body);
}

function linesView(i18n, game, legal, act, last = null) {
  const claims = new Set(legal.filter((t) => t.startsWith("claim ")));
  const hinted = local.hint?.text?.startsWith("claim ") ? local.hint.text : null;
  const line = (entries, key, claimable) => h("section.kd-line", { "data-line": key },
    h("h3", {}, i18n.t(`kingdomino.ui.line_${key}`)),
    entries.length
      ? h("div.kd-dominoes", {}, entries.map((entry) => {
        const text = `claim ${entry.domino}`;
        const el = dominoView(i18n, entry, { claim: claimable && claims.has(text) ? text : null, current: key === "current" && entry.domino === game.domino, act, last: last?.claimed === entry.domino });
        if (hinted === text) el.classList.add("hinted");
        return el;
      }))
      : h("p.muted", {}, i18n.t("kingdomino.ui.line_empty")));
  const pile = h("p.kd-pile", {}, i18n.t("kingdomino.ui.drawn", { drawn: game.drawn, of: game.in_play }));
  return h("div.kd-lines", {}, line(game.line, "current", false), line(game.next_line, "next", true), pile);
}

/** One kingdom as a grid. opts: {offers: Map(square → onTap), ghost: Map(square → half),
 * area: [rows, cols] to show at least, small} */
function kingdomView(i18n, seat, colour, opts = {}) {
  const squares = squaresOf(seat);
  const region = territoriesOf(squares);
  const names = [...squares.keys(), ...(opts.area ?? []), ...(opts.ghost?.keys() ?? [])];
  const rows = names.map(rowOf);
  const cols = names.map(colOf);
  const [top, bottom, left, right] = [Math.min(...rows), Math.max(...rows), Math.min(...cols), Math.max(...cols)];
  const cells = [];
  const last = opts.last ?? [];
  for (let row = top; row <= bottom; row++) {
    for (let col = left; col <= right; col++) {
      const name = nameOf(row, col);
      const square = squares.get(name);
      const ghost = opts.ghost?.get(name);
      const offer = opts.offers?.get(name);
      const classes = [];
      const style = {};
      let content = null;
      if (square?.castle) {
        classes.push("castle");
        style.background = CASTLE_COLOURS[colour];
        content = "♜";
      } else if (square) {
        style.background = TERRAIN_COLOURS[square.terrain];
        content = crownsView(square.crowns);
        if (last.includes(name)) classes.push("last");
        for (const dir of ROTATION) {
          if (region.get(neighbour(name, dir)) !== region.get(name)) classes.push(`edge-${dir}`);
        }
      } else if (ghost) {
        classes.push("ghost");
        style.background = TERRAIN_COLOURS[ghost.terrain];
        content = crownsView(ghost.crowns);
      } else {
        classes.push("empty");
      }
      style.gridRow = String(row - top + 1);
      style.gridColumn = String(col - left + 1);
      const attrs = { "data-square": name, style };
      if (offer) {
        classes.push("offer");
        cells.push(h(`button.kd-sq.${classes.join(".")}`, { ...attrs, type: "button", onclick: offer }, content));
      } else {
        cells.push(h(`div.kd-sq${classes.length ? `.${classes.join(".")}` : ""}`, attrs, content));
      }
    }
  }
  // the domino just placed: one outline around its two squares
  const placed = last.filter((name) => squares.has(name));
  if (placed.length === 2) {
    const [r1, r2] = placed.map(rowOf).sort((x, y) => x - y);
    const [c1, c2] = placed.map(colOf).sort((x, y) => x - y);
    cells.push(h("div.kd-last-outline", { "aria-hidden": "true", style: { gridRow: `${r1 - top + 1} / ${r2 - top + 2}`, gridColumn: `${c1 - left + 1} / ${c2 - left + 2}` } }));
  }
  const width = right - left + 1;
  const height = bottom - top + 1;
  return h(`div.kd-grid${opts.small ? ".small" : ""}`, { "data-cols": width, "data-rows": height, style: { gridTemplateColumns: `repeat(${width}, var(--kd-cell))`, gridTemplateRows: `repeat(${height}, var(--kd-cell))` } }, cells);
}

function kingdomCard(i18n, game, seat, index, opts = {}) {
  const acting = (game.acting ?? []).includes(seat.colour);
  const total = game.totals?.[index] ?? seat.score;
  const last = opts.lastMove?.who === seat.colour ? opts.lastMove.squares : [];
  return h(`section.kd-kingdom${acting ? ".acting" : ""}`, { "data-kingdom": seat.colour },
    h("h3", {},
      h("span.kd-swatch", { style: { background: CASTLE_COLOURS[seat.colour] } }),
      h("span.kd-name", {}, capitalise(i18n.colour(seat.colour))),
      h("span.kd-score", { "data-score": seat.colour }, String(total))),
    h("div.kd-grid-wrap", {}, kingdomView(i18n, seat, seat.colour, { ...opts, last })),
    h("p.kd-tally", {}, i18n.t("kingdomino.ui.tally", { dominoes: seat.dominoes, discarded: seat.discarded })));
}

// ------------------------------------------------------------------ placing
function pickFor(game, legal) {
  const domino = game.domino;
  const entry = game.line.find((e) => e.domino === domino);
  if (!entry) return null;
  const [a, b] = halves(entry.faces);
  const twin = a.terrain === b.terrain && a.crowns === b.crowns;
  const offers = placementsOf(legal, twin);
  const key = `${domino}/${legal.join(",")}`;
  if (local.pick?.key !== key) {
    const dir = ROTATION.find((d) => offers[d].size) ?? "e";
    local.pick = { key, domino, dir, square: null };
  }
  return { ...local.pick, halves: [a, b], offers, all: ROTATION.flatMap((d) => [...offers[d].keys()].flatMap((sq) => [sq, neighbour(sq, d)])) };
}

/** The grid options of the domino being placed: lit squares, the preview. */
function placingGrid(pick, act, redraw) {
  const offers = new Map();
  for (const [square, text] of pick.offers[pick.dir]) {
    offers.set(square, () => {
      if (local.pick.square === square) act(text);
      else {
        local.pick.square = square;
        redraw();
      }
    });
  }
  const ghost = new Map();
  if (pick.square) {
    ghost.set(pick.square, pick.halves[0]);
    ghost.set(neighbour(pick.square, pick.dir), pick.halves[1]);
  }
  return { offers, ghost, area: pick.all };
}

function rotate(redraw) {
  const pick = local.pick;
  pick.dir = ROTATION[(ROTATION.indexOf(pick.dir) + 1) % 4];
  pick.square = null;
  redraw();
}

function placingControls(i18n, pick, act, redraw) {
  const chosen = pick.square ? pick.offers[pick.dir].get(pick.square) : null;
  const none = pick.offers[pick.dir].size === 0;
  return h("div.kd-placing", {},
    h("div.kd-hand", {}, h("span.kd-number", {}, String(pick.domino)),
      h(`span.kd-faces.dir-${pick.dir}`, {}, face(pick.halves[0]), face(pick.halves[1]))),
    h("p.hint", { id: "kd-placing-help" }, i18n.t(none ? "kingdomino.ui.none_this_way" : "kingdomino.ui.tap_square")),
    h("div.kd-buttons", {},
      h("button.secondary", { type: "button", id: "kd-rotate", onclick: () => rotate(redraw) }, `⟳ ${i18n.t("kingdomino.ui.rotate")}`),
      h("button.primary", { type: "button", id: "kd-drop", disabled: !chosen, "data-action": chosen ?? null, onclick: () => chosen && act(chosen) }, i18n.t("kingdomino.ui.drop"))));
}

function discardControls(i18n, text, act) {
  const { domino } = parsed(text);
  return h("div.kd-placing", {},
    h("p.kd-why", { id: "kd-discard-why" }, i18n.t("kingdomino.ui.discard_why", { domino })),
    h("button.primary", { type: "button", "data-action": text, onclick: () => act(text) }, i18n.t("kingdomino.ui.discard", { domino })));
}

/** A hint shown as the pick (placement) or the lit domino (claim). */
function applyHint(text) {
  const { verb, where } = parsed(text);
  if (verb === "place" && local.pick) {
    const square = where.slice(0, -1);
    const dir = where.slice(-1);
    local.pick.dir = dir;
    local.pick.square = square;
  }
}

/** The hint in words: where is shown on the board (the pick's preview, the marked domino). */
function hintWords(i18n, text) {
  const { verb, domino } = parsed(text);
  if (verb === "place") return i18n.t("kingdomino.ui.hint_place", { domino });
  if (verb === "claim") return i18n.t("kingdomino.ui.hint_claim", { domino });
  return i18n.t("kingdomino.ui.hint_is", { move: actionWords(i18n, text) });
}

async function askHint(send, key, redraw) {
  local.asking = true;
  redraw();
  const answer = await send({ type: "hint" });
  local.asking = false;
  if (answer?.hint) {
    local.hint = { key, text: answer.hint };
    applyHint(answer.hint);
  }
  redraw();
}

// ------------------------------------------------------------------ prompts and the end
function promptText(i18n, game, state, me) {
  if (game.step === "over") return i18n.t("kingdomino.ui.prompt.over");
  const who = game.acting.filter((c) => c !== "chance").map((c) => capitalise(i18n.colour(c))).join(", ");
  const king = kingLabel(i18n, game.acting_king);
  const mine = me && game.acting.includes(me);
  // one king each: the king is the player (no "Pink (pink)")
  const one = !game.acting_king.includes("-") ? "_one" : "";
  switch (game.step) {
    case "draw":
      return i18n.t("kingdomino.ui.prompt.draw", { n: game.next_line.length });
    case "king":
      return i18n.t("kingdomino.ui.prompt.king");
    case "place":
      return i18n.t(`kingdomino.ui.prompt.${mine ? "my_place" : "place"}${one}`, { who, king, domino: game.domino });
    case "claim":
      return i18n.t(`kingdomino.ui.prompt.${mine ? "my_claim" : "claim"}${one}`, { who, king });
    default:
      return who;
  }
}

function breakdownView(i18n, game) {
  const result = game.result ?? { winners: [], decided_by: "score" };
  const order = game.seats.map((seat, i) => ({ seat, total: game.totals[i], i })).sort((x, y) => y.total - x.total);
  const winners = result.winners.map((c) => capitalise(i18n.colour(c))).join(", ");
  const decided = result.decided_by === "score" ? null : h("p.kd-decided", { "data-decided-by": result.decided_by }, i18n.t(`kingdomino.ui.decided.${result.decided_by}`));
  return h("div.kd-final", { id: "kd-final" },
    h("h2", {}, i18n.t("kingdomino.ui.final")),
    h("p", {}, h("a", { href: "/games/kingdomino/score.html", target: "_blank", rel: "noopener" }, i18n.t("kingdomino.ui.scoring_assistant"))),
    h("p.winner", { "data-winners": result.winners.join(" ") }, i18n.t(result.winners.length > 1 ? "kingdomino.ui.winners" : "kingdomino.ui.winner", { who: winners })),
    decided,
    h("div.kd-breakdowns", {}, order.map(({ seat, total, i }) => h("section.kd-breakdown", { "data-breakdown": seat.colour },
      h("h3", {}, h("span.kd-swatch", { style: { background: CASTLE_COLOURS[seat.colour] } }), `${capitalise(i18n.colour(seat.colour))}: ${total}`),
      h("ul", {},
        [...seat.territories].sort((x, y) => y.points - x.points).map((t) =>
          h("li", { "data-points": t.points }, i18n.t("kingdomino.ui.territory", { terrain: i18n.t(`kingdomino.terrain.${t.terrain[0].toUpperCase()}`), squares: t.squares, crowns: t.crowns, points: t.points }))),
        seat.middle_kingdom ? h("li.bonus", {}, i18n.t("kingdomino.ui.bonus.middle_kingdom", { n: seat.middle_kingdom })) : null,
        seat.harmony ? h("li.bonus", {}, i18n.t("kingdomino.ui.bonus.harmony", { n: seat.harmony })) : null,
        game.games > 1 ? h("li.bonus", {}, i18n.t("kingdomino.ui.dynasty_games", { scores: game.past_games.map((row) => row[i]).join(" + ") })) : null,
        result.decided_by !== "score" && game.games === 1
          ? h("li.tie", {}, i18n.t("kingdomino.ui.tie_figures", { largest: result.largest[i], crowns: result.crowns[i] }))
          : null)))));
}

const capitalise = (s) => (s ? s.charAt(0).toUpperCase() + s.slice(1) : s);

function undoButton(i18n, state, send) {
  if (!state.can_undo) return null;
  const message = state.acting_as && state.role === "table" ? { type: "undo", as: state.acting_as } : { type: "undo" };
  return h("button.secondary.undo", { type: "button", "data-undo": "1", onclick: () => send(message) }, `↶ ${i18n.t("ui.undo")}`);
}

function hintButton(i18n, send, key, redraw) {
  if (local.asking) return h("button.secondary", { type: "button", id: "kd-hint", disabled: true }, i18n.t("kingdomino.ui.thinking"));
  return h("button.secondary", { type: "button", id: "kd-hint", onclick: () => askHint(send, key, redraw) }, i18n.t("kingdomino.ui.hint"));
}

/** The acting seat's controls (a phone, or the table acting for it): placing or claiming. */
function turnControls(i18n, game, legal, act, extra) {
  if (legal.length === 1 && legal[0].startsWith("discard ")) return discardControls(i18n, legal[0], act);
  const pick = legal.some((t) => t.startsWith("place ")) ? pickFor(game, legal) : null;
  if (pick) return placingControls(i18n, pick, act, extra.redraw);
  if (legal.some((t) => t.startsWith("claim "))) return h("p.hint", { id: "kd-claim-help" }, i18n.t("kingdomino.ui.tap_claim"));
  return null;
}

function chanceControls(i18n, game, legal, act) {
  if (game.step === "draw") {
    return h("div.kd-numbers", { id: "kd-draw" }, legal.map((text) =>
      h("button.choice.kd-num", { type: "button", "data-action": text, onclick: () => act(text) }, text.split(" ")[1])));
  }
  return h("div.kd-buttons", { id: "kd-kings" }, legal.map((text) => {
    const colour = text.split(" ")[1];
    return h("button.choice", { type: "button", "data-action": text, onclick: () => act(text) },
      h("span.kd-swatch", { style: { background: CASTLE_COLOURS[colour] } }), capitalise(i18n.colour(colour)));
  }));
}

/** The computer's move at the table: thinking, or its pick shown for the players to make with
 * the pieces and confirm (table mode). */
function computerControls(i18n, state, act) {
  const computer = state.computer;
  if (!computer) return null;
  const who = capitalise(i18n.colour(computer.colour));
  if (!computer.proposal) return h("p.kd-computer", { id: "kd-computer", "data-thinking": "1" }, i18n.t("kingdomino.ui.computer_thinking", { who }));
  return h("div.kd-computer", { id: "kd-computer" },
    h("p", {}, i18n.t("kingdomino.ui.computer_proposes", { who, move: actionWords(i18n, computer.proposal) })),
    h("button.primary", { type: "button", id: "kd-confirm", "data-action": computer.proposal, onclick: () => act(computer.proposal) }, i18n.t("kingdomino.ui.confirm")));
}

function positionKey(game) {
  return `${game.game}/${game.log.length}`;
}

function ghostOf(game, text, colour) {
  const { verb, domino, where } = parsed(text ?? "");
  if (verb !== "place") return null;
  const entry = game.line.find((e) => e.domino === domino);
  if (!entry) return null;
  const [a, b] = halves(entry.faces);
  const square = where.slice(0, -1);
  return { colour, ghost: new Map([[square, a], [neighbour(square, where.slice(-1)), b]]) };
}

// ------------------------------------------------------------------ fitting the table's screen
// The kingdom a person places on gets this much more of the board than a square count gives
// it: at 1024 x 768 its squares 33 -> 38 px (the others 40 -> 34-45 px).
const PLACING_SHARE = 1.1;

/** The table's board sized to the space the shell's fit layout gives it: the lines beside the
 * kingdoms (a wide board), above them in rows or in two blocks (a tall one), the kingdoms in the arrangement of rows
 * and columns whose squares come out largest, each square as large as its kingdom's slot allows
 * (the text keeps its size: only the squares grow). Tried on the page itself: each arrangement
 * is laid out and its kingdoms' slots measured. */
function fitTable(board) {
  const table = board.querySelector(".kd-table");
  if (!table || !board.clientWidth || !board.clientHeight) return;
  const kingdoms = table.querySelector(".kd-kingdoms");
  const cards = [...kingdoms.querySelectorAll(".kd-kingdom")];
  if (getComputedStyle(board).getPropertyValue("--board-fill").trim() !== "1") {
    // a phone: the page flows (the shell's fit layout is a tablet's), the squares keep their size
    delete table.dataset.lines;
    kingdoms.style.gridTemplateColumns = kingdoms.style.gridTemplateRows = "";
    for (const card of cards) card.style.removeProperty("--kd-cell");
    board.dataset.drawnFor = `${board.clientWidth}x${board.clientHeight}`;
    return;
  }
  const n = cards.length;
  const minimum = (local.size ?? 5);
  const extents = cards.map((card) => {
    const grid = card.querySelector(".kd-grid");
    return [Math.max(minimum, Number(grid.dataset.cols)), Math.max(minimum, Number(grid.dataset.rows))];
  });
  // the kingdom a person places on (its squares lit to tap) gets a larger share of the board
  const shares = cards.map((card, i) => {
    const share = card.querySelector(".kd-sq.offer") ? PLACING_SHARE : 1;
    return [extents[i][0] * share, extents[i][1] * share];
  });
  let best = null;
  for (const lines of ["side", "top", "grid"]) for (const head of ["top", "side"]) {
    for (let columns = 1; columns <= n; columns++) {
      if (columns > 1 && Math.ceil(n / columns) === Math.ceil(n / (columns - 1))) continue; // same rows, narrower
      table.dataset.lines = lines;
      kingdoms.dataset.head = head;
      tracks(kingdoms, shares, columns);
      const cells = cards.map((card, i) => {
        const wrap = card.querySelector(".kd-grid-wrap");
        return Math.floor(Math.min(wrap.clientWidth / extents[i][0], wrap.clientHeight / extents[i][1]));
      });
      const cell = cells.reduce((sum, c) => sum + c, 0); // the kingdoms' squares, all told
      if (!best || cell > best.cell) best = { lines, head, columns, cell, cells };
    }
  }
  table.dataset.lines = best.lines;
  kingdoms.dataset.head = best.head;
  tracks(kingdoms, shares, best.columns);
  cards.forEach((card, i) => {
    const wrap = card.querySelector(".kd-grid-wrap");
    const cell = Math.floor(Math.min(wrap.clientWidth / extents[i][0], wrap.clientHeight / extents[i][1], 96));
    card.style.setProperty("--kd-cell", `${Math.max(cell, 16)}px`);
  });
  board.dataset.drawnFor = `${board.clientWidth}x${board.clientHeight}`;
}

/** The kingdoms' rows and columns shared out by their squares: a row as tall as its kingdoms'
 * most squares down, a column as wide as its most squares across (the kingdom being placed on
 * has a row and a column more, the squares it may reach: its slot grows to match). */
function tracks(kingdoms, extents, columns) {
  const rows = Math.ceil(extents.length / columns);
  const across = Array.from({ length: columns }, (_, c) => Math.max(...extents.filter((_, i) => i % columns === c).map((e) => e[0])));
  const down = Array.from({ length: rows }, (_, r) => Math.max(...extents.slice(r * columns, (r + 1) * columns).map((e) => e[1])));
  kingdoms.style.gridTemplateColumns = across.map((w) => `minmax(0, ${w}fr)`).join(" ");
  kingdoms.style.gridTemplateRows = down.map((w) => `minmax(0, ${w}fr)`).join(" ");
}

/** The board fitted again when its size changes (a turned tablet, the side panel). */
function watchSize(board) {
  if (board.dataset.wired === "kingdomino-table") return;
  board.dataset.wired = "kingdomino-table";
  new ResizeObserver(() => {
    if (!board.querySelector(".kd-table")) return;
    if (board.dataset.drawnFor !== `${board.clientWidth}x${board.clientHeight}`) fitTable(board);
  }).observe(board);
}

// ------------------------------------------------------------------ the plugin's pages
/** A step of the public log (`key`, `params`) in words (the shell's log tab: an undone move). */
export function logText(i18n, line) {
  const p = line.params ?? {};
  return stepWords(i18n, line.key, Number(p.number), p.seat) ?? line.text;
}

/** One entry of the public log as a sentence ("Blue claimed domino 28 (forest, 1 crown /
 * lake).") from its step's `key` and `params`: the adapter adds each domino's `faces`; null for
 * the kinds the shell words. */
export function logLine(i18n, e) {
  if (e.kind && e.kind !== "action") return null;
  const verb = e.key;
  const p = e.params ?? {};
  const domino = Number(p.number);
  const faces = facesWords(i18n, e.faces);
  const who = e.actor === "chance" ? "" : capitalise(i18n.colour(e.actor));
  if (verb === "draw") return i18n.t("kingdomino.log.draw", { domino, faces });
  if (verb === "king") return i18n.t("kingdomino.log.king", { colour: capitalise(i18n.colour(p.seat)) });
  if (verbsOf("kingdomino").group(verb) === "turn") return i18n.t(`kingdomino.log.${verb}`, { who, domino, faces });
  return null;
}

/** The shared table. */
export function renderTable(ctx, parts) {
  const { state, i18n, act, send } = ctx;
  const game = state.game;
  local.size = game.size;
  const redraw = () => renderTable(ctx, parts);
  if (local.hint && local.hint.key !== positionKey(game)) local.hint = null;
  const legal = state.legal ?? [];
  const last = lastMove(game);
  fill(parts.prompt, lastMoveWords(i18n, last), h("span.prompt-text", { id: "prompt-text" }, promptText(i18n, game, state, null)));
  const proposal = state.computer?.proposal ? ghostOf(game, state.computer.proposal, state.computer.colour) : null;
  const actor = game.acting.find((c) => c !== "chance");
  const placing = !state.computer && actor && legal.some((t) => t.startsWith("place ")) ? pickFor(game, legal) : null;
  const kingdoms = game.seats.map((seat, i) => {
    let opts = {};
    if (placing && seat.colour === actor) opts = placingGrid(placing, act, redraw);
    else if (proposal && seat.colour === proposal.colour) opts = { ghost: proposal.ghost };
    return kingdomCard(i18n, game, seat, i, { ...opts, lastMove: last });
  });
  fill(parts.board, h("div.kd-table", { "data-logged": game.log.length }, linesView(i18n, game, state.computer ? [] : legal, act, last), h("div.kd-kingdoms", { "data-count": kingdoms.length }, kingdoms)));
  fitTable(parts.board);
  watchSize(parts.board);
  let controls;
  if (game.step === "over") controls = breakdownView(i18n, game);
  else if (state.computer) controls = computerControls(i18n, state, act);
  else if (game.acting.includes("chance")) controls = chanceControls(i18n, game, legal, act);
  else controls = turnControls(i18n, game, legal, act, { redraw });
  fill(parts.choices, controls, h("div.kd-buttons", {}, undoButton(i18n, state, send)));
}

/** A seat's own page (a phone): its kings, its turn's controls, its kingdom, the lines. */
export function renderSeat(ctx, parts) {
  const { state, i18n, act, send } = ctx;
  const game = state.game;
  const me = state.seat;
  const redraw = () => renderSeat(ctx, parts);
  const key = positionKey(game);
  if (local.hint && local.hint.key !== key) local.hint = null;
  const legal = state.legal ?? [];
  const mine = legal.length > 0;
  const last = lastMove(game);
  fill(parts.prompt, mine ? h("span.phase", {}, i18n.t("ui.your_turn")) : null,
    lastMoveWords(i18n, last),
    h("span.prompt-text", { id: "prompt-text" }, promptText(i18n, game, state, me)));
  parts.prompt.classList.toggle("my-turn", mine);
  const index = game.seats.findIndex((s) => s.colour === me);
  const seat = game.seats[index];
  const pick = mine && legal.some((t) => t.startsWith("place ")) ? pickFor(game, legal) : null;
  const grid = { ...(pick ? placingGrid(pick, act, redraw) : {}), lastMove: last };
  const kings = [...game.line.map((e) => [e, "current"]), ...game.next_line.map((e) => [e, "next"])]
    .filter(([e]) => e.king && !e.placed && e.king.split("-")[0] === me)
    .map(([e, line]) => h("li", { "data-my-king": e.king }, i18n.t("kingdomino.ui.my_king", { king: kingLabel(i18n, e.king), domino: e.domino, line: i18n.t(`kingdomino.ui.line_${line}`) })));
  const controls = game.step === "over" ? breakdownView(i18n, game) : mine ? turnControls(i18n, game, legal, act, { redraw }) : null;
  fill(parts.choices,
    kings.length ? h("div.kd-my-kings", {}, h("h3", {}, i18n.t("kingdomino.ui.my_kings")), h("ul", {}, kings)) : null,
    controls,
    local.hint ? h("p.kd-hint-text", { id: "kd-hint-text" }, hintWords(i18n, local.hint.text)) : null,
    h("div.kd-buttons", {}, mine && game.step !== "over" ? hintButton(i18n, send, key, redraw) : null, undoButton(i18n, state, send)),
    !mine && game.step !== "over" ? h("p.muted", {}, i18n.t("ui.nothing_to_do")) : null);
  const others = game.seats.map((s, i) => [s, i]).filter(([s]) => s.colour !== me);
  fill(parts.board, h("div.kd-seat", { "data-logged": game.log.length },
    seat ? kingdomCard(i18n, game, seat, index, grid) : null,
    linesView(i18n, game, legal, act, last),
    h("div.kd-kingdoms.others", {}, others.map(([s, i]) => kingdomCard(i18n, game, s, i, { small: true, lastMove: last })))));
}
