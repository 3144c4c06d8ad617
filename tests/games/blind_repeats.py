"""Builds the table for the repeat-oracle tests (rules P23): a player's own move that their
later move has hidden in a blind game, with every move they could have played instead."""

from dataclasses import dataclass

from accounts.models import User
from games import actions
from games.models import Game, Move
from tests.factories import reveal_or_timeout, start_game


@dataclass
class OwnMove:
    """``seat`` played ``played`` from ``version``; ``choices`` are every legal move of that
    kind then (``played`` among them): what somebody trying to recover it would send."""

    game: Game
    seat: int
    version: int
    played: dict
    choices: list[dict]

    def wrong_guesses(self) -> list[dict]:
        return [choice for choice in self.choices if choice != self.played]


def play_own_move(users: list[User], kind: str, *, blind: bool) -> OwnMove:
    """A game of ``users`` (seed 7), played until a seat may play ``kind`` with cards face up
    (``pass`` after a reveal, ``resolve_alarm`` at a rat alert); that seat plays the first
    legal such move. Before it, players reveal and end their turns, so the face-up row
    grows until a rat alert."""
    game = start_game(users, blind=blind)
    while True:
        state = game.load_state()
        legal = game.rules.legal_actions(state, game.current_seat)
        choices = [action for action in legal if action["action"] == kind]
        if choices and game.rules.view(state, None)["face_up"]:
            break
        game = _play(game, users, _push_luck(legal, game))
    seat, version = game.current_seat, game.version
    game = _play(game, users, choices[0])
    return OwnMove(game, seat, version, choices[0], choices)


def play_until_seat_moves_again(own: OwnMove, users: list[User]) -> Game:
    """Play on (reveal, else the automatic move's choice) until ``own.seat`` has moved again,
    which reduces ``own``'s entry in their blind log (P23). Returns the game then."""
    game = own.game
    while not Move.objects.filter(game=game, seat=own.seat, number__gt=own.version + 1).exists():
        game = _play(game, users, reveal_or_timeout(game))
    assert game.status == "active"
    return game


def _push_luck(legal: list[dict], game: Game) -> dict:
    for wanted in ({"action": "reveal"}, {"action": "end_turn"}):
        if wanted in legal:
            return wanted
    return game.rules.timeout_action(game.load_state())


def _play(game: Game, users: list[User], action: dict) -> Game:
    actions.do_play_move(game.id, users[game.current_seat], game.version, action)
    return Game.objects.get(id=game.id)
