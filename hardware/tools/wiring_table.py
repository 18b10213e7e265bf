"""The wiring tables (per wire, and per Pico pin), generated from wiring.json and pinmap.json."""

from __future__ import annotations

from hardware.tools.blocks import table
from hardware.tools.data import Endpoint, Wiring


def describe(wiring: Wiring, end: Endpoint) -> str:
    """'Pico pin 6 GP4 (i2c.sda)' or 'U2 TCS34725 colour sensor: SDA'."""
    if end.ref == wiring.pico.ref:
        number = wiring.pinout.by_name[end.pin]
        signal = f" (`{end.signal}`)" if end.signal else ""
        return f"Pico pin {number} **{end.pin}**{signal}"
    return f"{end.ref} {wiring.part(end.ref).title}: **{end.pin}**"


def wire_table(wiring: Wiring) -> str:
    rows = []
    for number, wire in enumerate(wiring.wires, start=1):
        colour, _hex = wiring.net_colours[wire.net]
        note = wire.note
        if wire.optional:
            note = "optional; " + note if note else "optional"
        rows.append(
            [
                str(number),
                describe(wiring, wire.a),
                describe(wiring, wire.b),
                wire.net,
                colour,
                note,
            ]
        )
    return table(["#", "from", "to", "net", "wire colour", "note"], rows)


def pico_pin_table(wiring: Wiring) -> str:
    """One row per used Pico pin, in physical order, listing where it goes."""
    pico = wiring.pico.ref
    used: dict[str, list[str]] = {}
    signals: dict[str, str] = {}
    for wire in wiring.wires:
        for here, there in ((wire.a, wire.b), (wire.b, wire.a)):
            if here.ref == pico:
                used.setdefault(here.pin, []).append(str(there))
                if here.signal:
                    signals[here.pin] = here.signal
    rows = []
    for name in sorted(used, key=lambda n: wiring.pinout.by_name[n]):
        signal = f"`{signals[name]}`" if name in signals else ""
        rows.append(
            [str(wiring.pinout.by_name[name]), name, signal, ", ".join(sorted(set(used[name])))]
        )
    return table(["Pico pin", "name", "pinmap.json key", "wired to"], rows)


def parts_table(wiring: Wiring) -> str:
    rows = [[part.ref, part.title, f"`{part.bom}`", part.where] for part in wiring.parts]
    return table(["ref", "part", "BOM id", "where it goes"], rows)


def beam_pin_table(wiring: Wiring) -> str:
    """The bring-up check of each break-beam: where to measure and what its parts are."""
    pico = wiring.pico.ref
    rows = []
    for part in wiring.parts:
        if not part.bom.startswith("phototransistor"):
            continue
        emitter = part.bom.replace("phototransistor", "ir_led")
        emitters = [p.ref for p in wiring.parts if p.bom == emitter]
        for wire in wiring.wires:
            for here, there in ((wire.a, wire.b), (wire.b, wire.a)):
                if here.ref == pico and here.signal and there.ref == part.ref:
                    pull_ups = sorted(
                        {
                            end.ref
                            for w in wiring.wires
                            if w.net == wire.net
                            for end in (w.a, w.b)
                            if end.ref.startswith("R")
                        }
                    )
                    rows.append(
                        [
                            f"`{here.signal}`",
                            f"pin {wiring.pinout.by_name[here.pin]} ({here.pin})",
                            ", ".join(emitters),
                            part.ref,
                            ", ".join(pull_ups),
                        ]
                    )
    header = ["beam (`pinmap.json`)", "measure at Pico", "emitter", "receiver", "pull-up"]
    return table(header, rows)
