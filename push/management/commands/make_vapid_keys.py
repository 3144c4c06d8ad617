"""``manage.py make_vapid_keys``: a new VAPID key pair (RFC 8292) as environment lines.

The private key signs every push message's token; the public key is what browsers
subscribe with (the settings page hands it to them). Changing the pair strands every
subscription made with the old public key: browsers must subscribe again.
"""

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.core.management.base import BaseCommand

from push.endpoints import b64url_encode


def new_key_pair() -> tuple[str, str]:
    """(private, public), base64url: the raw 32-byte P-256 scalar and the uncompressed
    65-byte point, the forms ``py_vapid`` and ``PushManager.subscribe`` take."""
    key = ec.generate_private_key(ec.SECP256R1())
    private = key.private_numbers().private_value.to_bytes(32, "big")
    public = key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return b64url_encode(private), b64url_encode(public)


class Command(BaseCommand):
    help = "Print a new VAPID key pair as VAPID_PUBLIC_KEY=… and VAPID_PRIVATE_KEY=… lines."

    def add_arguments(self, parser):
        parser.add_argument(
            "--subject",
            default="mailto:admin@example.com",
            help="VAPID_SUBJECT: a mailto: or https: URL push services may contact you at.",
        )

    def handle(self, *args, **options):
        private, public = new_key_pair()
        self.stdout.write(f"VAPID_PUBLIC_KEY={public}")
        self.stdout.write(f"VAPID_PRIVATE_KEY={private}")
        self.stdout.write(f"VAPID_SUBJECT={options['subject']}")
