"""Builders for test data: users, authenticated API clients, started games."""

from rest_framework.test import APIClient

from accounts.models import ApiToken, User
from games import actions
from games.models import Game


def make_user(email: str, **fields) -> User:
    return User.objects.create_user(email, **fields)


def sign_in_verified(client, user: User):
    """Sign ``user`` in to ``client`` as the admin's form does: session and a TOTP device.

    ``force_login`` alone is a password-only session, which the admin refuses (two factors).
    """
    from django_otp import DEVICE_ID_SESSION_KEY
    from django_otp.plugins.otp_totp.models import TOTPDevice

    device = TOTPDevice.objects.create(user=user, name="test", confirmed=True)
    client.force_login(user)
    session = client.session
    session[DEVICE_ID_SESSION_KEY] = device.persistent_id
    session.save()
    return client


def client_for(user: User | None) -> APIClient:
    """An API client that authenticates as ``user`` with an API key (None: anonymous)."""
    client = APIClient()
    if user is not None:
        client.credentials(HTTP_AUTHORIZATION=f"Token {ApiToken.issue(user)}")
    return client


def start_game(seated: list[User], *, seed: int | None = 7, blind: bool = False, **options) -> Game:
    """A game created by ``seated[0]`` and accepted by everyone: active, version 0.

    With an int ``seed`` the dealt state is replaced by the engine's seeded deal, so a
    test knows the draw order (the service itself always deals with ``seed=None``).
    ``options`` go to ``do_create_game`` (``game="rattenscharf"`` for another game), but
    ``order``: a whole Rattenscharf draw pile (R27's ``new_game(order=...)``) dealt instead.
    """
    order = options.pop("order", None)
    game = actions.do_create_game(
        seated[0], [user.email for user in seated], blind=blind, **options
    )
    for user in seated[1:]:
        actions.do_accept_invitation(game.id, user)
    game.refresh_from_db()
    if order is not None:
        game.state = game.rules.dump(game.rules.new_game(len(seated), order=order))
        game.save(update_fields=["state"])
    elif seed is not None:
        deal_from_seed(game, seed)
    return game


def deal_from_seed(game: Game, seed: int) -> None:
    """Replace the started ``game``'s dealt state by its engine's deal from ``seed`` (for
    its seats and options), so that a test knows the draw order."""
    rules = game.rules
    game.state = rules.dump(rules.new_game(game.seats.count(), seed=seed, **game.rules_options()))
    game.save(update_fields=["state"])


# The toy third game (tic-tac-toe, ``tests/toygame``): the platform's fixture game, far
# cheaper to deal and play than a real one. The ``toy_games`` fixture (tests/conftest.py)
# puts it in ``GAME_PACKAGES`` for one test.
TOY_PACKAGE = "tests.toygame"
TOY_KIND = "tictactoe"


def start_toy_game(seated: list[User], **options) -> Game:
    """An active tic-tac-toe game of ``seated`` (two players; the ``toy_games`` fixture must
    be on): ``seated[0]`` plays X and is to move, version 0. ``options`` as ``start_game``."""
    return start_game(seated, seed=None, game=TOY_KIND, **options)


def toy_move(game: Game, cell: int | None = None) -> dict:
    """A legal action for the seat to move in a tic-tac-toe game: ``cell`` (1-9), or the
    first free one."""
    legal = game.rules.legal_actions(game.load_state(), game.current_seat)
    if cell is None:
        return legal[0]
    action = {"action": "mark", "cell": cell}
    assert action in legal, f"cell {cell} is not free for seat {game.current_seat}"
    return action


def play_toy_moves(game: Game, users: list[User], cells: list[int]) -> Game:
    """Mark ``cells`` in turn through the actions (the seat to move marks each). Returns the
    game as it then stands."""
    for cell in cells:
        actions.do_play_move(game.id, users[game.current_seat], game.version, toy_move(game, cell))
        game = Game.objects.get(id=game.id)
    return game


def reveal_or_timeout(game: Game) -> dict:
    """The move a test plays for the seat to move: reveal where the rules allow it, else
    the automatic move's choice (rules P24), any game; so a game played with it ends."""
    rules, state = game.rules, game.load_state()
    reveal = {"action": "reveal"}
    legal = rules.legal_actions(state, game.current_seat)
    return reveal if reveal in legal else rules.timeout_action(state)


def play_to_the_end(game: Game, users: list[User]) -> Game:
    """Play ``game`` out through the actions (``reveal_or_timeout``). Returns it ended."""
    while game.status == "active":
        action = reveal_or_timeout(game)
        actions.do_play_move(game.id, users[game.current_seat], game.version, action)
        game = Game.objects.get(id=game.id)
    return game
