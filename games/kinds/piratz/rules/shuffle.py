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


# A checkable shuffle (docs/shuffle.md). The service draws a secret
# server seed and publishes its commitment before any player has chosen anything; each
# player may add a client seed; the game's key mixes them all. Published after the end,
# the seed lets anyone redo every shuffle with tools/verify_game.py, a stdlib-only copy
# of these functions that tests hold equal to them.
SERVER_SEED_BYTES = 32
COMMITMENT_PREFIX = b"piratz-shuffle-commitment:v1:"
KEY_PREFIX = b"piratz-shuffle-key:v1:"
CLIENT_SEED_MAX_LENGTH = 64
CLIENT_SEED_ALPHABET = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")


def commitment(server_seed):
    """The public commitment to ``server_seed`` (bytes): hex SHA-256 of a prefix and the seed.

    The prefix separates this hash from every other use of the seed (the key below), so
    publishing the commitment says nothing about the key.
    """
    if type(server_seed) is not bytes or len(server_seed) != SERVER_SEED_BYTES:
        raise ValueError(f"a server seed is {SERVER_SEED_BYTES} bytes")
    return hashlib.sha256(COMMITMENT_PREFIX + server_seed).hexdigest()


def is_client_seed(text):
    """True for a valid client seed: 1-64 characters of A-Z, a-z, 0-9, ``-`` and ``_``."""
    return (
        type(text) is str
        and 1 <= len(text) <= CLIENT_SEED_MAX_LENGTH
        and set(text) <= CLIENT_SEED_ALPHABET
    )


def shuffle_key(server_seed, client_seeds):
    """The game's 32-byte key from the server seed and every seat's client seed.

    ``client_seeds`` has one entry per seat, in seat order: a valid client seed, or ""
    for a seat that gave none. The key is SHA-256 over a prefix, the number of parts and
    each part (the seed, then each client seed as ASCII) preceded by its length as 4
    big-endian bytes, so no two different lists of seeds can hash the same input.
    """
    if type(server_seed) is not bytes or len(server_seed) != SERVER_SEED_BYTES:
        raise ValueError(f"a server seed is {SERVER_SEED_BYTES} bytes")
    parts = [server_seed]
    for text in client_seeds:
        if text != "" and not is_client_seed(text):
            raise ValueError(f"not a client seed: {text!r}")
        parts.append(text.encode("ascii"))
    digest = hashlib.sha256(KEY_PREFIX)
    digest.update(len(parts).to_bytes(4, "big"))
    for part in parts:
        digest.update(len(part).to_bytes(4, "big"))
        digest.update(part)
    return digest.digest()
