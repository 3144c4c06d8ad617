"""Keyed, deterministic shuffles: every random choice in a game derives from its secret key."""

import hashlib
import hmac
import secrets

KEY_BYTES = 32


def derive_key(seed):
    """Return the game's 32-byte secret key.

    ``seed=None`` draws it from the operating system's cryptographic RNG (P6: production
    shuffles are secret to everyone); an int makes the whole game reproducible.
    """
    if seed is None:
        return secrets.token_bytes(KEY_BYTES)
    if type(seed) is not int:
        raise ValueError(f"seed must be an int or None, not {seed!r}")
    return hashlib.sha256(f"piratz-seed:{seed}".encode()).digest()


def keyed_order(key, label, number, items):
    """Return ``items`` as a tuple in an order fixed by ``key``, ``label`` and ``number``.

    Items are sorted by HMAC-SHA256(key, "label:number:item"): without the key the order
    is unpredictable, with it the order is reproducible, so ``apply`` stays a pure
    function even though a reshuffle happens in the middle of the game (P10). ``label``
    and ``number`` keep the deck, the cubes and each reshuffle independent. Items must
    have distinct ``str`` forms.
    """
    prefix = f"{label}:{number}:"
    return tuple(
        sorted(items, key=lambda item: hmac.digest(key, f"{prefix}{item}".encode(), "sha256"))
    )
