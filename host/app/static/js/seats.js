// The seats panel: one QR code and link per unclaimed seat (drawn here by qr.js), status per seat.
// The links carry the address devices use (`network.public_url` of GET /api/info); when the
// machine has no network, no code is shown: a phone could not open it.

import { capitalise, h } from "./dom.js";
import { COLOURS } from "./colours.js";
import { qrSvg } from "./qr.js";

function seatUrl(seat, base) {
  const raw = seat.token ? `/seat/${seat.token}` : seat.url;
  return raw ? new URL(raw, base ?? location.origin).href : null;
}

export function seatsView(i18n, state, { reissue, network }) {
  const seats = state?.seats ?? [];
  if (!seats.length) return h("p.muted", {}, i18n.t("ui.no_game"));
  const noNetwork = network?.mode === "none";
  const cards = seats.map((seat) => {
    if (seat.computer) {
      return h("div.seat-card", { "data-seat": seat.colour, "data-computer": seat.computer },
        h("h3", {}, h("span.swatch", { style: { background: COLOURS[seat.colour] } }), capitalise(i18n.colour(seat.colour))),
        h("p.seat-status.on", {}, i18n.t("ui.computer_seat", { n: seat.computer })));
    }
    const url = seatUrl(seat, network?.public_url);
    const status = seat.connected ? "ui.claimed" : seat.claimed ? "ui.claimed_offline" : "ui.unclaimed";
    const qr = url && !noNetwork ? h("div.qr", { "data-qr": seat.colour }) : null;
    if (qr) qr.innerHTML = qrSvg(url, { pixels: 168, label: i18n.t("ui.scan_me", { colour: i18n.colour(seat.colour) }) });
    return h(
      "div.seat-card",
      { "data-seat": seat.colour, "data-claimed": seat.claimed ? "1" : "0" },
      h("h3", {}, h("span.swatch", { style: { background: COLOURS[seat.colour] } }), capitalise(i18n.colour(seat.colour))),
      h(`p.seat-status${seat.connected ? ".on" : ""}`, {}, i18n.t(status), seat.lang ? ` · ${seat.lang.toUpperCase()}` : ""),
      qr,
      qr ? h("p.scan", {}, i18n.t("ui.scan_me", { colour: i18n.colour(seat.colour) })) : null,
      url ? h("a.seat-link", { href: url, target: "_blank", rel: "noopener", "data-seat-link": seat.colour }, url) : null,
      h("button.secondary", { type: "button", onclick: () => reissue(seat.colour) }, i18n.t("ui.reissue")),
    );
  });
  const allClaimed = seats.every((s) => s.claimed);
  const reach = noNetwork ? "seats.no_network" : network?.mode === "local" ? "seats.local" : null;
  return h(
    "div.seats",
    {},
    reach ? h("p.reach-note", { id: "reach-note", "data-reach": network.mode, role: "status" }, i18n.t(reach)) : null,
    allClaimed ? h("p.ok", {}, i18n.t("ui.all_seats_claimed")) : noNetwork ? null : h("p.muted", {}, i18n.t("ui.qr_note")),
    h("div.seat-grid", {}, cards),
  );
}
