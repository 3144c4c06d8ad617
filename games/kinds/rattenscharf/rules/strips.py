"""The strip list (R3, R4), loaded from ``strips.json`` so that an owner of the box can
swap in the exact list without touching code, plus the symbol tables derived from it."""

import json
from pathlib import Path

COLOURS = ("red", "green")  # R1: seat 0 plays red, seat 1 green
EMPTY = "empty"
START = "start"
MAX_STRIPS = 100  # R15: the no-pass proof holds up to 103 strips on a 31 x 31 table


class StripDataError(ValueError):
    """The strip data does not have the shape R3 describes."""


def _load(path):
    data = json.loads(Path(path).read_text("utf-8"))
    if data.get("game") != "rattenscharf" or tuple(data.get("colours", ())) != COLOURS:
        raise StripDataError("not a Rattenscharf strip list for colours red, green")
    spices = {}  # symbol -> seat of its colour
    for seat, colour in enumerate(COLOURS):
        for name in data["spices"][colour]:
            spices[f"{colour}:{name}"] = seat
    rats = {f"{colour}:rat": seat for seat, colour in enumerate(COLOURS)}
    symbols = set(spices) | set(rats) | {EMPTY, START}
    start = data["start"]
    if start["id"] != 0:
        raise StripDataError("the start strip has id 0")
    strips = {0: tuple(start["fields"])}
    for entry in data["strips"]:
        strip = entry["id"]
        if type(strip) is not int or strip in strips:
            raise StripDataError(f"strip id {strip!r} is not a new int")
        strips[strip] = tuple(entry["fields"])
    if sorted(strips) != list(range(len(strips))):
        raise StripDataError("strip ids are 1..N")
    if len(strips) - 1 > MAX_STRIPS:
        raise StripDataError(f"at most {MAX_STRIPS} strips (R15)")
    for strip, fields in strips.items():
        if len(fields) != 3 or not set(fields) <= symbols:
            raise StripDataError(f"strip {strip} needs 3 known symbols")
    return strips, spices, rats


# STRIPS: id -> its 3 fields in printed order (id 0 is the start strip).
# SPICE_SEAT / RAT_SEAT: symbol -> the seat whose colour it has (R2).
STRIPS, SPICE_SEAT, RAT_SEAT = _load(Path(__file__).with_name("strips.json"))
STRIP_IDS = tuple(sorted(strip for strip in STRIPS if strip))
