"""The data the conformance run starts from: a player with an API key and games in every state.

Run as ``python -m tests.conformance.seed OUT.json`` on a migrated database (the
environment's ``DATABASE_URL``); writes the key and the games' ids to ``OUT.json`` for the
schemathesis hooks (``tests.conformance.hooks``). Everything goes through the actions
layer, as the service itself would do it.
"""

import json
import os
import random
import sys

CALLER = "anna@example.com"  # the example address of GameCreateRequest: created games seat her


def seed() -> dict:
    """Create the users and games; return the caller's key and the game ids by state."""
    from accounts.models import ApiToken
    from games import actions
    from games.models import Game, GameStatus
    from games.rules import piratz, rattenscharf
    from games.rules.piratz.bots import random_action
    from tests.factories import make_user

    anna = make_user(CALLER)
    bert, carla = make_user("bert@example.com"), make_user("carla@example.com")
    moderator = make_user("mod@example.com", is_staff=True)
    emails = [CALLER, bert.email]

    def started(host, others, game_name="piratz"):
        game = actions.do_create_game(host, [u.email for u in [host, *others]], game=game_name)
        for user in others:
            actions.do_accept_invitation(game.id, user)
        return Game.objects.get(id=game.id)

    # Several invitations to Anna: the run accepts and declines them as it goes.
    invited = [actions.do_create_game(bert, list(reversed(emails))) for _ in range(3)]
    to_move = started(anna, [bert])  # seat 0 moves first: Anna is to move
    three = started(anna, [bert, carla])
    waiting = started(bert, [anna])  # Bert is to move
    blind = actions.do_create_game(anna, [*emails, carla.email], blind=True)
    for user in (bert, carla):
        actions.do_accept_invitation(blind.id, user)
    users = {anna.id: anna, bert.id: bert, carla.id: carla}

    finished = started(anna, [bert])
    rng = random.Random(1)
    while finished.status == GameStatus.ACTIVE:
        state = piratz.load(finished.state)
        seat = piratz.current_seat(state)
        player = users[finished.seats.get(seat=seat).user_id]
        action = random_action(piratz.legal_actions(state, seat), rng, 0.7)
        finished = actions.do_play_move(finished.id, player, finished.version, action)
    aborted = started(bert, [anna])
    actions.do_abort_game(aborted.id, moderator, reason="conformance seed")
    outsider = started(bert, [carla])  # a game Anna may not see

    # Rattenscharf (RATTENSCHARF.md): Anna to move, Bert to move (Anna played her strip),
    # one finished (played to its end with R35's placements), one invitation.
    rats_to_move = started(anna, [bert], "rattenscharf")
    rats_waiting = started(anna, [bert], "rattenscharf")
    opening = rattenscharf.timeout_action(rattenscharf.load(rats_waiting.state))
    rats_waiting = actions.do_play_move(rats_waiting.id, anna, 0, opening)
    rats_finished = started(bert, [anna], "rattenscharf")
    while rats_finished.status == GameStatus.ACTIVE:
        state = rattenscharf.load(rats_finished.state)
        player = users[rats_finished.seats.get(seat=rattenscharf.current_seat(state)).user_id]
        action = rattenscharf.timeout_action(state)
        rats_finished = actions.do_play_move(
            rats_finished.id, player, rats_finished.version, action
        )
    rats_invited = actions.do_create_game(bert, list(reversed(emails)), game="rattenscharf")

    return {
        "key": ApiToken.issue(anna),
        "games": {
            "invited": [str(game.id) for game in [*invited, rats_invited]],
            "to_move": [str(to_move.id), str(three.id), str(blind.id), str(rats_to_move.id)],
            "waiting": [str(waiting.id), str(rats_waiting.id)],
            "finished": [str(finished.id), str(rats_finished.id)],
            "aborted": [str(aborted.id)],
            "outsider": [str(outsider.id)],
        },
    }


if __name__ == "__main__":
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "piratz_site.settings")
    import django

    django.setup()
    with open(sys.argv[1], "w") as out:
        json.dump(seed(), out)
