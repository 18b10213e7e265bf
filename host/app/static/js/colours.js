// The colours of the players' pieces by name (the names games and the server use for seats),
// as the pages draw them: swatches, seat cards, the log, a game's own board.

export const COLOURS = {
  purple: "#7d3fa3",
  green: "#2f8a3f",
  blue: "#2b63c8",
  orange: "#ee8a1e",
  red: "#cf3a2b",
  yellow: "#e6c619",
  black: "#262626",
  white: "#f2f2ee",
  pink: "#e0709f",
};
