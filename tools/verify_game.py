#!/usr/bin/env python3
"""Check a finished Piratz game's shuffle from its public verification JSON alone.

Usage:
    python3 tools/verify_game.py verification.json
    python3 tools/verify_game.py https://piratz.example/api/games/<id>/verification/ \
        --token <your API key>
    curl ... | python3 tools/verify_game.py -

Python's standard library only, so you need not trust the server's code, nor this
repository beyond this one file: read it. It recomputes, from the published server seed
and client seeds, the commitment and the key, then deals the deck and the cubes and
redoes every reshuffle with the key, and checks the cube placement and every card the
log says a reveal turned up. Exit status 0: verified; 1: it does not verify; 2: nothing
to check yet (the game has not ended) or unusable input.

The derivation is a copy of games/kinds/piratz/rules (shuffle.py, engine.deal, fairness.py);
tests/games/test_fairness.py holds the two equal on real games.
"""

import argparse
import hashlib
import hmac
import json
import sys
import urllib.request

SCHEME = "piratz-shuffle-v1"
COMMITMENT_PREFIX = b"piratz-shuffle-commitment:v1:"
KEY_PREFIX = b"piratz-shuffle-key:v1:"
TREASURES = ("rings", "coins", "pearls", "gems", "goblets", "shells")
CUBE_VALUES = (4, 4, 4, 3, 3, 3, 2, 2, 2, 1, 1, 1)
# The deck (games/kinds/piratz/rules/deck.json): cards 1-50; its six skull cards leave a
# two-player game (rules P6).
CARD_IDS = tuple(range(1, 51))
SKULL_IDS = frozenset({7, 17, 26, 29, 40, 47})


def commitment(server_seed: bytes) -> str:
    return hashlib.sha256(COMMITMENT_PREFIX + server_seed).hexdigest()


def shuffle_key(server_seed: bytes, client_seeds: list) -> bytes:
    """SHA-256 over the prefix, the number of parts, and each part (the server seed, then
    each seat's client seed as ASCII, "" for none) preceded by its 4-byte length."""
    parts = [server_seed] + [(seed or "").encode("ascii") for seed in client_seeds]
    digest = hashlib.sha256(KEY_PREFIX)
    digest.update(len(parts).to_bytes(4, "big"))
    for part in parts:
        digest.update(len(part).to_bytes(4, "big"))
        digest.update(part)
    return digest.digest()


def keyed_order(key: bytes, label: str, number: int, items) -> list:
    """Items sorted by HMAC-SHA256(key, "label:number:item")."""
    prefix = f"{label}:{number}:"
    return sorted(items, key=lambda item: hmac.digest(key, f"{prefix}{item}".encode(), "sha256"))


def deal(players: int, key: bytes):
    """The draw pile (top first) and the cube placement (type -> values, highest first)."""
    in_play = CARD_IDS if players > 2 else tuple(c for c in CARD_IDS if c not in SKULL_IDS)
    draw = keyed_order(key, "deck", 0, in_play)
    per_type = 1 if players == 2 else 2
    order = keyed_order(key, "cubes", 0, range(len(CUBE_VALUES)))
    cubes = {
        name: sorted(
            (CUBE_VALUES[i] for i in order[t * per_type : (t + 1) * per_type]), reverse=True
        )
        for t, name in enumerate(TREASURES)
    }
    return draw, cubes


def check_deal(players: int, key: bytes, cubes: dict, log: list) -> dict:
    """Redo every shuffle; compare the cube placement and every revealed card.

    A reshuffle (rules P10) turns the discard pile into a new draw pile when a reveal
    finds the draw pile empty; the discard pile holds the cards buried (P13) in rounds
    that have ended (P17) and not yet reshuffled, all of which the log shows.
    """
    draw, derived_cubes = deal(players, key)
    shuffles = [
        {"label": "deck", "number": 0, "cards": sorted(draw), "order": list(draw)},
        {"label": "cubes", "number": 0, "placement": derived_cubes},
    ]
    mismatches = []
    shown = {name: sorted(cubes.get(name, []), reverse=True) for name in TREASURES}
    if shown != derived_cubes or set(cubes) != set(TREASURES):
        mismatches.append(
            {"what": "cubes", "number": None, "expected": derived_cubes, "found": cubes}
        )
    discard, buried, reshuffles = [], [], 0
    for entry in log:
        discard += [card for played, card in buried if played < entry["round"]]
        buried = [(played, card) for played, card in buried if played >= entry["round"]]
        action = entry["action"]
        expected = None
        if action.get("action") == "reveal":
            if not draw and discard:
                reshuffles += 1
                draw = keyed_order(key, "reshuffle", reshuffles, discard)
                shuffles.append(
                    {
                        "label": "reshuffle",
                        "number": reshuffles,
                        "cards": sorted(discard),
                        "order": list(draw),
                    }
                )
                discard = []
            expected = draw.pop(0) if draw else None
        if entry["revealed"] != expected:
            mismatches.append(
                {
                    "what": "revealed",
                    "number": entry["number"],
                    "expected": expected,
                    "found": entry["revealed"],
                }
            )
        if action.get("bury") is not None:
            buried.append((entry["round"], action["bury"]))
    return {"shuffles": shuffles, "mismatches": mismatches}


def verify(data: dict) -> tuple[bool | None, list[str]]:
    """(verified, report lines): None when there is nothing to check yet."""
    lines = []
    if data.get("scheme") != SCHEME:
        return False, [f"unknown scheme {data.get('scheme')!r} (this tool checks {SCHEME})"]
    if data.get("server_seed") is None:
        return None, ["the server seed is not published yet: verifiable after the end"]
    seed = bytes.fromhex(data["server_seed"])
    ok = commitment(seed) == data["commitment"]
    lines.append(f"commitment: {'ok' if ok else 'FAILED'} (sha256 of the prefix and the seed)")
    results = [ok]
    if data.get("log") is not None:
        seeds = [
            entry["client_seed"] for entry in sorted(data["client_seeds"], key=lambda e: e["seat"])
        ]
        key = shuffle_key(seed, seeds)
        ok = key.hex() == data["key"]
        lines.append(
            f"key: {'ok' if ok else 'FAILED'} (from the server seed and {len(seeds)} client seeds)"
        )
        results.append(ok)
        checked = check_deal(data["players"], key, data["cubes"], data["log"])
        reshuffles = sum(1 for s in checked["shuffles"] if s["label"] == "reshuffle")
        reveals = sum(1 for e in data["log"] if e["action"].get("action") == "reveal")
        for mismatch in checked["mismatches"]:
            where = "cubes" if mismatch["number"] is None else f"move {mismatch['number']}"
            lines.append(f"  {where}: expected {mismatch['expected']}, found {mismatch['found']}")
        ok = not checked["mismatches"]
        lines.append(
            f"deal: {'ok' if ok else 'FAILED'} (cube placement, {reveals} reveals, "
            f"the deck and {reshuffles} reshuffles)"
        )
        results.append(ok)
        if data.get("shuffles") is not None:
            ok = data["shuffles"] == checked["shuffles"]
            lines.append(f"published shuffles: {'ok' if ok else 'FAILED'} (as redone here)")
            results.append(ok)
    return all(results), lines


def _read(source: str, token: str | None) -> dict:
    if source == "-":
        return json.load(sys.stdin)
    if source.startswith(("http://", "https://")):
        request = urllib.request.Request(source, headers={"Accept": "application/json"})
        if token:
            request.add_header("Authorization", f"Token {token}")
        with urllib.request.urlopen(request, timeout=30) as response:
            return json.load(response)
    with open(source, encoding="utf-8") as file:
        return json.load(file)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("source", help="a file, an http(s) URL, or - for standard input")
    parser.add_argument("--token", help="your API key, for a URL of the API")
    args = parser.parse_args(argv)
    try:
        data = _read(args.source, args.token)
        verified, lines = verify(data)
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as error:
        print(f"cannot check this input: {error}", file=sys.stderr)
        return 2
    print(f"game {data.get('game')} ({data.get('status')})")
    for line in lines:
        print(line)
    if verified is None:
        return 2
    print("VERIFIED" if verified else "NOT VERIFIED")
    return 0 if verified else 1


if __name__ == "__main__":
    sys.exit(main())
