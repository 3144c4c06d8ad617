"""The signature of ``json`` webhook posts: a per-webhook secret, derived, never stored.

``X-Piratz-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" with the secret>``.
The receiver recomputes the HMAC over the exact bytes it received and rejects a post whose
``t`` is more than ``TOLERANCE_SECONDS`` from its own clock (a replayed post); docs/webhooks.md
has the recipe. The secret is HMAC(SECRET_KEY-derived key, webhook id): shown
once when the webhook is created, recomputed for each post, and never written anywhere,
so the database alone cannot forge posts. Rotating ``SECRET_KEY`` changes every secret.
"""

import hashlib
import hmac

from django.utils.crypto import salted_hmac

SIGNATURE_HEADER = "X-Piratz-Signature"
TOLERANCE_SECONDS = 5 * 60
_SALT = "piratz.webhooks.secret"
_PREFIX = "whsec_"


def secret_for(webhook_id) -> str:
    """The signing secret of the webhook with this id (a string the receiver stores)."""
    return _PREFIX + salted_hmac(_SALT, str(webhook_id), algorithm="sha256").hexdigest()


def signature(secret: str, timestamp: int, body: bytes) -> str:
    """The header's value for ``body`` sent at ``timestamp`` (unix seconds)."""
    digest = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256)
    return f"t={timestamp},v1={digest.hexdigest()}"


def verify(secret: str, header: str, body: bytes, now: int) -> bool:
    """Does ``header`` sign ``body`` with ``secret``, within the tolerance of ``now``?

    The receiver's side of the contract, kept here so the tests check the documented
    recipe against the signer.
    """
    try:
        fields = dict(part.split("=", 1) for part in header.split(","))
        timestamp = int(fields["t"])
        given = fields["v1"]
    except (KeyError, ValueError):
        return False
    if abs(now - timestamp) > TOLERANCE_SECONDS:
        return False
    expected = signature(secret, timestamp, body).split("v1=", 1)[1]
    return hmac.compare_digest(expected, given)
