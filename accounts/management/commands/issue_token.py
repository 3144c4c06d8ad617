"""``manage.py issue_token EMAIL``: create the user if needed and print a new API key."""

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from accounts.api_keys import issue_api_key


class Command(BaseCommand):
    help = (
        "Issue a new API key for EMAIL, creating the user if needed. Every old key stops "
        "working (those made at /api/me/api-keys/ too). "
        "The key is printed alone on the last line of stdout (notes go to stderr), so "
        "KEY=$(manage.py issue_token EMAIL) captures just the key. It cannot be shown again."
    )

    def add_arguments(self, parser):
        parser.add_argument("email", help="The user's email address (case is ignored).")
        parser.add_argument(
            "--staff",
            action="store_true",
            help="Make the user staff (a moderator). Without it, staff status is left as is.",
        )
        parser.add_argument(
            "--name", dest="display_name", help="The display name other players see (max 40)."
        )

    def handle(self, *args, email: str, staff: bool, display_name: str | None, **options):
        try:
            issued = issue_api_key(email, staff=staff, display_name=display_name)
        except ValidationError as error:
            problems = " ".join(error.messages)
            raise CommandError(f"Cannot issue a key for {email!r}: {problems}") from None

        user = issued.user
        self._note(f"{'Created' if issued.user_created else 'Found'} user {user.email}.")
        if user.is_staff:
            self._note("The user is staff (moderator).")
        if len(issued.replaced_prefixes) == 1:
            self._note(f"Replaced the old key {issued.replaced_prefix}…, which no longer works.")
        elif issued.replaced_prefixes:
            keys = ", ".join(f"{prefix}…" for prefix in issued.replaced_prefixes)
            self._note(f"Replaced the old keys {keys}, which no longer work.")
        if not user.is_active:
            self._note("Warning: the account is disabled; the key works only once it is active.")
        self._note("The new API key (shown only this once) follows on stdout:")
        self.stdout.write(issued.key)

    def _note(self, message: str) -> None:
        # Plain, uncoloured: BaseCommand paints all stderr as errors, and these are not.
        self.stderr.write(message, style_func=lambda text: text)
