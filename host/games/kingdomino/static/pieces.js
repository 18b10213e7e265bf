// The colours of Kingdomino's pieces, shared by the plugin and the scoring assistant.

export const TERRAIN_COLOURS = { W: "#e2bf3f", F: "#2f6d35", L: "#3a80c6", G: "#94c457", S: "#8b7b58", M: "#5c5752" };
export const CASTLE_COLOURS = { pink: "#e46ba8", yellow: "#e6c619", green: "#2f9a4a", blue: "#2f63cc" };
