"""The data the conformance run starts from: a player with an API key and games in every state.

Run as ``python -m tests.conformance.seed OUT.json`` on a migrated database (the
environment's ``DATABASE_URL``); writes the key and the games' ids to ``OUT.json`` for the
schemathesis hooks (``tests.conformance.hooks``). Everything goes through the actions
layer, as the service itself would do it.

Besides the games every operation is aimed at (``games``), some data is used up by the
request that succeeds on it: an invitation declined, a seat taken back from its stand-in
bot, a webhook deleted, a seat offered to a substitute, its offer withdrawn or taken. Of
those there are ``pools``, a few for each phase of the run (``PHASES``), so that each phase
reaches the success as well as the refusal that follows ("nothing to decline", "no bot
stands in for you", "no such webhook", "offered already", "not offered", "no longer open").
"""

import json
import os
import random
import sys
from itertools import cycle, islice

CALLER = "anna@example.com"  # the run's key is hers: the games the run creates seat her
PHASES = ("examples", "coverage", "fuzzing", "stateful")  # schemathesis's, in run order
PER_PHASE = 3  # of each pool: the first success, and more for the cases after it
# The seat a stand-in bot plays in the substitute pools' games of three (Carla's, or Dirk's).
SUBSTITUTE_SEAT = 2
# Where the seeded webhooks post: example.com's address, public and literal (no DNS lookup).
# Nothing is ever posted in the run: the queued deliveries are never worked off.
WEBHOOK_URL = "https://93.184.215.14/conformance/"


def seed() -> dict:
    """Create the users and games; return the caller's key and the game ids by state."""
    from accounts.models import ApiToken
    from games import actions
    from games.actions.substitutes import do_offer_seat
    from games.actions.together import do_host_stand_in
    from games.catalogue import rules_for
    from games.models import Game, GameStatus
    from tests.factories import make_user
    from webhooks.actions import do_add_webhook

    # The API's schema has a branch per game: each real game is seeded, its engine asked
    # through the catalogue (the protocol's names only).
    rattenscharf = rules_for("rattenscharf")
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
        seat = finished.current_seat
        player = users[finished.seats.get(seat=seat).user_id]
        view = finished.rules.view(finished.load_state(), seat)
        action = finished.rules.choose_bot_action(view, "random", rng)
        finished = actions.do_play_move(finished.id, player, finished.version, action)
    aborted = started(bert, [anna])
    actions.do_abort_game(aborted.id, moderator, reason="conformance seed")
    outsider = started(bert, [carla])  # a game Anna may not see

    # Rattenscharf (docs/rules/rattenscharf.md): Anna to move, Bert to move (Anna played her strip),
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

    # Used up by the run, a few per phase: invitations for Anna to decline (apart from
    # those she accepts), games where a stand-in bot plays her seat (a moderator handed
    # it over) for her to take back, her webhooks to delete.
    def to_decline():
        return actions.do_create_game(bert, list(reversed(emails)))

    def stood_in():
        game = started(bert, [anna])  # Bert to move: the bot has nothing to play yet
        return actions.do_replace_with_bot(game.id, moderator, 1, reason="conformance seed")

    # Substitutes (docs/api.md "Substitutes"): games of three Anna hosts where she handed
    # Carla's seat to a stand-in bot, for her to offer to a substitute ("offer") or with that
    # seat offered in the lobby already, for her to withdraw ("withdraw"); and lobby offers
    # Bert made at his games without her, for her to take over ("take").
    dirk = make_user("dirk@example.com")

    def carla_away():
        game = started(anna, [bert, carla])  # Anna to move: the bot has nothing to play yet
        return do_host_stand_in(game.id, anna, SUBSTITUTE_SEAT)

    def offered_by_anna():
        game = carla_away()
        do_offer_seat(game.id, anna, SUBSTITUTE_SEAT, lobby=True)
        return game

    def offered_by_bert():
        game = started(bert, [carla, dirk])  # Bert to move
        do_host_stand_in(game.id, bert, SUBSTITUTE_SEAT)
        return do_offer_seat(game.id, bert, SUBSTITUTE_SEAT, lobby=True)[0]

    hooked = started(anna, [bert])
    pools = {
        "decline": {},
        "take_back": {},
        "webhook": {},
        "offer": {},
        "withdraw": {},
        "take": {},
    }
    for phase in PHASES:
        pools["decline"][phase] = [str(to_decline().id) for _ in range(PER_PHASE)]
        pools["take_back"][phase] = [str(stood_in().id) for _ in range(PER_PHASE)]
        pools["webhook"][phase] = [
            [str(hooked.id), str(do_add_webhook(hooked.id, anna, kind=kind, url=WEBHOOK_URL)[0].id)]
            for kind in islice(cycle(("json", "slack", "discord")), PER_PHASE)
        ]
        pools["offer"][phase] = [str(carla_away().id) for _ in range(PER_PHASE)]
        pools["withdraw"][phase] = [str(offered_by_anna().id) for _ in range(PER_PHASE)]
        pools["take"][phase] = [offered_by_bert().pk for _ in range(PER_PHASE)]

    key = ApiToken.issue(anna)
    return {
        "key": key,
        # Never deleted by the run (hooks.py turns a DELETE of it to an unknown id).
        "key_id": ApiToken.objects.get(key_hash=ApiToken.hash_key(key)).pk,
        # The other players' keys: the hooks play their turns when Anna has none left.
        "opponent_keys": [ApiToken.issue(bert), ApiToken.issue(carla)],
        "games": {
            "invited": [str(game.id) for game in [*invited, rats_invited]],
            "to_move": [str(to_move.id), str(three.id), str(blind.id), str(rats_to_move.id)],
            "waiting": [str(waiting.id), str(rats_waiting.id)],
            "finished": [str(finished.id), str(rats_finished.id)],
            "aborted": [str(aborted.id)],
            "outsider": [str(outsider.id)],
            "hooked": [str(hooked.id)],  # Anna to move; the webhook pool's game
        },
        "pools": pools,
    }


if __name__ == "__main__":
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "piratz_site.settings")
    import django

    django.setup()
    with open(sys.argv[1], "w") as out:
        json.dump(seed(), out)
