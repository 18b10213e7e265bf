// The Wi-Fi card (docs/table-app.md, "Its own Wi-Fi"): while the table runs its own Wi-Fi
// (`network.own_network` of GET /api/info), a QR code a phone scans to join it, then the seat
// codes take it to its seat; the network's name and password are there to type too. The
// password is the table's only: GET /api/wifi and its QR code need the table role.
// And on the host's own screen, the pairing code for another tablet (GET /api/pairing).

import { fill, h } from "./dom.js";
import { getJson, tableToken } from "./net.js";

const wifi = { key: null, card: null, qrUrl: null, error: null, loading: false };
const pairing = { at: -Infinity, answer: null, refused: false };
const PAIRING_REREAD_MS = 15_000; // SIGHUP may have replaced the code meanwhile

async function fetchQr() {
  const token = tableToken.get();
  const reply = await fetch("/api/wifi/qr.svg", { headers: token ? { Authorization: `Bearer ${token}` } : {} });
  if (!reply.ok) throw { code: reply.status, reason: reply.statusText };
  return URL.createObjectURL(await reply.blob());
}

async function load(key, i18n) {
  wifi.loading = true;
  try {
    const card = await getJson("/api/wifi");
    const qrUrl = card.qr ? await fetchQr() : null;
    if (wifi.key !== key) return; // the network changed meanwhile: a newer load runs
    if (wifi.qrUrl) URL.revokeObjectURL(wifi.qrUrl);
    Object.assign(wifi, { card, qrUrl, error: null });
  } catch (err) {
    if (wifi.key === key) wifi.error = err;
  } finally {
    wifi.loading = false;
  }
  fillSlots(i18n);
}

function cardBody(i18n) {
  const title = h("h3", {}, i18n.t("wifi.title"));
  if (wifi.error) return [title, h("p.muted", {}, i18n.t("wifi.unavailable", { reason: i18n.refusal(wifi.error) }))];
  const card = wifi.card;
  if (!card) return [title, h("p.muted", {}, "…")];
  if (!card.own_network) return [];
  if (!card.ssid) return [title, h("p.muted", {}, i18n.t("wifi.no_credentials"))];
  const qr = wifi.qrUrl ? h("img.wifi-qr", { src: wifi.qrUrl, alt: i18n.t("wifi.qr_label", { ssid: card.ssid }), "data-wifi-qr": "1" }) : null;
  return [
    title,
    h("div.wifi-body", {},
      qr,
      h("div.wifi-text", {},
        h("p", {}, i18n.t("wifi.step_join")),
        h("dl.wifi-facts", {},
          h("dt", {}, i18n.t("wifi.network")), h("dd", { "data-wifi-ssid": "1" }, card.ssid),
          h("dt", {}, i18n.t("wifi.password")), h("dd.wifi-password", { "data-wifi-password": "1" }, card.password)),
        h("p", {}, i18n.t("wifi.step_seat")),
        h("p.muted", {}, i18n.t("wifi.no_internet")))),
  ];
}

function fillSlots(i18n) {
  for (const slot of document.querySelectorAll(".wifi-slot")) {
    const body = cardBody(i18n);
    slot.hidden = !body.length;
    fill(slot, ...body);
  }
}

/** The Wi-Fi card's slot (null unless the table runs its own Wi-Fi); filled when its details
 * are in, and again when the network changes. */
export function wifiCard(i18n, network) {
  if (!network?.own_network) {
    wifi.key = null;
    return null;
  }
  const key = JSON.stringify(network);
  if (wifi.key !== key) {
    wifi.key = key;
    wifi.card = null;
    wifi.error = null;
    load(key, i18n);
  }
  const body = cardBody(i18n);
  return h("section.wifi-card.wifi-slot", { "aria-label": i18n.t("wifi.title"), hidden: !body.length }, body);
}

/** On the host's own screen: the pairing code another tablet enters (GET /api/pairing answers
 * the host's screen only: the caller asks only there). */
export function pairingNote(i18n) {
  const note = h("p.pairing-note.muted", { hidden: true });
  const show = () => {
    const answer = pairing.answer;
    note.hidden = !answer?.code;
    if (answer?.code) {
      fill(note, answer.url ? i18n.t("pair.on_host", { url: answer.url, code: answer.code }) : i18n.t("pair.code_only", { code: answer.code }));
    }
  };
  show();
  if (!pairing.refused && performance.now() - pairing.at > PAIRING_REREAD_MS) {
    pairing.at = performance.now();
    getJson("/api/pairing").then((answer) => {
      pairing.answer = answer;
      for (const el of document.querySelectorAll(".pairing-note")) el.replaceWith(pairingNote(i18n));
    }, (err) => {
      if (err?.code === "forbidden") pairing.refused = true;
    });
  }
  return note;
}
