"""``manage.py add_totp_device EMAIL``: enrol a moderator's authenticator app for /admin/."""

import io

import segno
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django_otp.plugins.otp_totp.models import TOTPDevice

from accounts.models import User


class Command(BaseCommand):
    help = (
        "Give the staff user EMAIL a TOTP device (their second factor for /admin/) and print "
        "its otpauth:// URI and a QR code to scan, once: the URI is a credential, shown "
        "only now, never logged. The URI is alone on the last line of stdout. With "
        "--replace, the user's old devices are deleted (a lost phone)."
    )

    def add_arguments(self, parser):
        parser.add_argument("email", help="The staff user's email address (case is ignored).")
        parser.add_argument(
            "--replace",
            action="store_true",
            help="Delete the user's existing devices first; without it a second is refused.",
        )
        parser.add_argument(
            "--no-qr", action="store_true", help="Print only the URI, not the terminal QR code."
        )

    def handle(self, *args, email: str, replace: bool, no_qr: bool, **options):
        user = User.objects.filter(email__iexact=email.strip()).first()
        if user is None:
            raise CommandError(
                f"No user {email!r}. Create the moderator first: manage.py createsuperuser."
            )
        if not user.is_staff:
            raise CommandError(f"{user.email} is not staff; only staff sign in to /admin/.")
        with transaction.atomic():
            existing = TOTPDevice.objects.select_for_update().filter(user=user)
            if existing.exists() and not replace:
                raise CommandError(
                    f"{user.email} already has an authenticator device. Use --replace to "
                    "delete it and enrol a new one (the old app stops working)."
                )
            deleted, _ = existing.delete()
            # Confirmed at once: the operator hands the code over in person, and the first
            # sign-in with it proves the app has it.
            device = TOTPDevice.objects.create(user=user, name="authenticator", confirmed=True)
        if deleted:
            self._note(f"Deleted {user.email}'s old device; its codes no longer work.")
        self._note(
            f"Enrolled a TOTP device for {user.email}. Scan the QR code (or enter the URI) in "
            "an authenticator app now: it is not shown again."
        )
        uri = device.config_url
        if not no_qr:
            drawing = io.StringIO()
            segno.make(uri, error="m").terminal(out=drawing, compact=True)
            self.stderr.write(drawing.getvalue(), style_func=lambda text: text, ending="")
        self.stdout.write(uri)

    def _note(self, message: str) -> None:
        # Plain, uncoloured: BaseCommand paints all stderr as errors, and these are not.
        self.stderr.write(message, style_func=lambda text: text)
