"""Management command: send every due email in the outbox now, without a Celery worker."""

from django.core.management.base import BaseCommand

from notifications.outbox import send_due_emails


class Command(BaseCommand):
    help = (
        "Send every due email in the outbox now (and return emails stuck in sending to "
        "the queue). Useful without a Celery worker; safe to run alongside one."
    )

    def handle(self, *args, **options) -> None:
        result = send_due_emails()
        self.stdout.write(
            f"Sent {result.sent}, will retry {result.retrying}, failed {result.failed}, "
            f"taken by another worker {result.skipped}; requeued {result.requeued} stuck; "
            f"held longer by their send check {result.held}, dropped {result.dropped}."
        )
