"""The Wi-Fi card on the table page (Debian's headless Chromium, Playwright), with a real
`castillo run` in a namespace whose machine runs its own Wi-Fi: the card in the lobby and beside
the seat codes, its QR image, name and password; the seat codes carry the access point's address;
the host's screen shows the pairing code; a seat page shows no password; the card goes when the
machine is on a known network again, without a reload."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from host.app import own_network
from tests.app.netns import NETNS_MISSING, castillo_run
from tests.app.ui_browser import chromium_missing, watch_errors
from tests.app.ui_strings import shell_strings
from tests.appliance_host.helpers import AP_ADDRESS, access_point_namespace, own_wifi
from tests.appliance_host.test_sighup_pairing import PLAYERS

MISSING = chromium_missing() or (
    f"no network namespaces: {NETNS_MISSING}" if NETNS_MISSING else None
)
pytestmark = pytest.mark.skipif(MISSING is not None, reason=f"browser test: {MISSING}")


def test_the_table_shows_the_wifi_card_and_seat_codes_for_that_network(tmp_path: Path) -> None:
    from tests.app.netns import browsers_in

    data, _ = own_wifi(tmp_path)
    made = own_network.load_credentials(data)
    assert made is not None
    with (
        access_point_namespace() as ns,
        castillo_run(ns, "--data-dir", str(data)) as served,
        browsers_in(ns) as (browser,),
    ):
        here = next(u for u in served.urls() if "127.0.0.1" in u).rstrip("/")
        port = here.rsplit(":", 1)[1]
        errors: list[str] = []
        page = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
        watch_errors(page, errors)
        page.goto(here + "/")
        # the lobby: the card first, its QR image drawn, the name and password to type
        card = page.locator(".lobby-wifi .wifi-card")
        card.locator("img[data-wifi-qr]").wait_for()
        page.wait_for_function(
            "document.querySelector('.lobby-wifi img[data-wifi-qr]').naturalWidth > 100"
        )
        assert card.locator("[data-wifi-ssid]").inner_text() == made.ssid
        assert card.locator("[data-wifi-password]").inner_text() == made.password
        assert shell_strings("en")["wifi.title"] in card.inner_text()

        body = json.dumps({"players": PLAYERS, "mode": "dealer", "seed": 5, "short_game": True})
        page.evaluate(
            """async (body) => {
                const r = await fetch("/api/games", {method: "POST", body,
                  headers: {"Content-Type": "application/json"}});
                if (!r.ok) throw new Error(await r.text());
            }""",
            body,
        )
        page.locator("[data-tab='seats']").click()
        pane = page.locator(".seats-with-wifi")
        pane.locator(".wifi-card img[data-wifi-qr]").wait_for()
        links = pane.locator("[data-seat-link]")
        assert links.count() == len(PLAYERS)
        hrefs = [links.nth(i).get_attribute("href") or "" for i in range(links.count())]
        assert all(h.startswith(f"http://{AP_ADDRESS}:{port}/seat/") for h in hrefs), hrefs
        note = page.locator(".pairing-note")
        note.wait_for()
        assert served.pairing_code in note.inner_text()  # the host's screen shows it

        # in Czech
        page.select_option("#lang", "cs")
        page.wait_for_function("document.documentElement.lang === 'cs'")
        cs = shell_strings("cs")
        assert cs["wifi.title"] in page.locator(".seats-with-wifi .wifi-card").inner_text()

        # a phone's seat page (here on loopback): no password anywhere in it
        seat = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
        watch_errors(seat, errors)
        token = hrefs[0].rsplit("/", 1)[1]
        seat.goto(f"{here}/seat/{token}")
        seat.wait_for_selector("body[data-ready='1']")  # its state came and was drawn
        assert made.password not in seat.content()

        # a known network again: the card goes (the app reads the state every 2 s)
        own_network.write_state(data, own_network.OwnNetworkState(False))
        page.locator(".wifi-card").wait_for(state="detached", timeout=15_000)
        assert made.password not in page.content()
        assert not errors, errors
        printed = "\n".join([*served.lines, *served.more_lines(wait_s=0.5)])
        assert made.ssid in printed or AP_ADDRESS in printed  # it did print about the network
        assert made.password not in printed  # … never the password
