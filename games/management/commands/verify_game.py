"""``manage.py verify_game ID``: check a game's shuffle as its verification page does."""

import json

from django.core.management.base import BaseCommand, CommandError

from games import fairness
from games.models import Game


class Command(BaseCommand):
    help = (
        "Check a game's shuffle: the server seed against its commitment, the key from the "
        "seeds, every shuffle against the log. Exit status 1 when it does not verify, 2 "
        "when there is nothing to check yet (the game has not ended)."
    )

    def add_arguments(self, parser):
        parser.add_argument("game_id", help="The game's id.")
        parser.add_argument(
            "--json", action="store_true", help="Print the verification JSON instead."
        )

    def handle(self, *args, game_id, **options):
        try:
            game = Game.objects.get(id=game_id)
        except (Game.DoesNotExist, ValueError, TypeError) as error:
            raise CommandError(f"No game {game_id!r}.") from error
        data = fairness.verification(game)
        if options["json"]:
            self.stdout.write(json.dumps(data, indent=1))
        else:
            self.stdout.write(f"game {data['game']} ({data['status']})")
            self.stdout.write(f"commitment  {data['commitment']}")
            for entry in data["client_seeds"]:
                self.stdout.write(f"seat {entry['seat']} seed {entry['client_seed'] or '-'}")
            for check in data["checks"]:
                self.stdout.write(f"{check['check']:<11} {'ok' if check['passed'] else 'FAILED'}")
        if data["verified"] is None:
            self.stderr.write("Nothing to check yet: verifiable after the end.")
            raise SystemExit(2)
        if not data["verified"]:
            self.stderr.write("NOT VERIFIED")
            raise SystemExit(1)
        self.stdout.write("verified")
