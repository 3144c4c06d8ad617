"""``manage.py rebuild_ratings``: compute every rating again from the finished games."""

from django.core.management.base import BaseCommand

from ratings import service


class Command(BaseCommand):
    help = (
        "Forget every rating and compute them again from the finished, rated games, in the "
        "order they finished (the same numbers as the updates when each game finished). "
        "One transaction: readers see the old ratings until it is done."
    )

    def handle(self, *args, **options) -> None:
        total = service.rated_games().count()
        self.stdout.write(f"Rating {total} finished games...")
        step = max(1, total // 20)

        def progress(done: int, total: int) -> None:
            if done % step == 0 or done == total:
                self.stdout.write(f"  {done}/{total} games")

        rated = service.rebuild(progress)
        self.stdout.write(self.style.SUCCESS(f"Done: {rated} games rated."))
