"""What a push subscription must be: an endpoint the service will post to, and keys it
can encrypt for. Each refusal is a sentence.

An endpoint comes from a browser, so a person could otherwise make the service post to
its own network: it is an outbound post's URL like a webhook's (``core.outbound``),
``https://`` with a host and no user name, and every address its host resolves to must
be outside the one table of special-purpose networks, when subscribing
(``endpoint_problem``, then ``destination_problem``) and at each post, which connects to
the address it checked (``PUSH_POSTS.post``). ``PUSH_ALLOW_INSECURE_LOCALHOST`` (tests
and local runs) also allows ``http://`` to a loopback host, and loopback addresses.
"""

import base64
import binascii

from cryptography.hazmat.primitives.asymmetric import ec
from django.utils.translation import gettext as _

from core.outbound.transport import DeliveryError, OutboundPosts, UnsafeUrl

from .models import MAX_ENDPOINT_LENGTH

# Where push messages are posted: endpoints as long as the column, through the one table
# and the pinned transport of every outbound post.
PUSH_POSTS = OutboundPosts(
    max_url_length=MAX_ENDPOINT_LENGTH,
    loopback_setting="PUSH_ALLOW_INSECURE_LOCALHOST",
    user_agent="Piratz-Push/1",
)


def b64url_decode(text: str) -> bytes:
    """Bytes of base64url ``text`` with or without padding; ``ValueError`` if it is not."""
    try:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError) as exc:
        raise ValueError("not base64url") from exc


def b64url_encode(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def endpoint_problem(endpoint: str) -> str | None:
    """Why ``endpoint``'s form is refused, or None (no lookup: ``destination_problem``)."""
    try:
        PUSH_POSTS.check_url(endpoint)
    except UnsafeUrl as refused:
        return str(refused)
    return None


def destination_problem(endpoint: str) -> str | None:
    """Why the service will not post to ``endpoint`` now, or None: its host does not
    resolve, or one of its addresses is refused by the table (loopback only under the
    allowance). A name lookup: call it outside a transaction."""
    try:
        PUSH_POSTS.check_destination(endpoint)
    except DeliveryError as refused:
        return str(refused)
    return None


def keys_problem(p256dh: str, auth: str) -> str | None:
    """Why these are not a browser's push keys (a P-256 public key, uncompressed, and a
    16-byte secret, both base64url), or None."""
    try:
        point = b64url_decode(p256dh)
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
        if len(point) != 65:
            raise ValueError("compressed")
    except ValueError:
        return _("keys.p256dh must be the browser's P-256 public key in base64url.")
    try:
        if len(b64url_decode(auth)) != 16:
            raise ValueError("length")
    except ValueError:
        return _("keys.auth must be the browser's 16-byte secret in base64url.")
    return None
