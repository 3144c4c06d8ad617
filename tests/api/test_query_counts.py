"""SQL queries per API request: few, and constant however long the game or the game list.

The detail and the list are the platform's and are counted on the toy game. A move's cost
over a long game (rounds, burials) and a move log of more than 50 moves need a real game's
length: Piratz (and Rattenscharf's own placements).
"""

import random
from dataclasses import dataclass

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import actions
from games.kinds.piratz import rules as piratz
from games.kinds.piratz.rules.bots import random_action as choose_action
from games.kinds.rattenscharf import rules as rattenscharf
from games.kinds.rattenscharf.rules.strips import STRIP_IDS
from games.models import Game
from tests.factories import TOY_KIND, client_for, start_game, start_toy_game, toy_move

pytestmark = pytest.mark.django_db

# Measured (SQLite and PostgreSQL alike): token lookup; lock the game row; its seats
# joined to their users and settings, each with its running vacation (used for the turn
# check, the new deadline and the response alike: one query); insert the move;
# insert the burial (moves that bury); the P25 abandonment check (moves that end a
# round); on a new turn, the next player's vacations (their deadline) and the turn
# email's outbox row (composed later, by the worker); update the game. Not the game's
# webhooks: the locked game row says it has none (Game.has_webhooks), so no move of
# these games asks, whatever the cache (with the database cache, the default without
# CACHE_URL, every move used to ask the webhooks table: one query more).
MOVE_QUERY_BOUND = 11
# A move that finishes the game does once what no other move does: is it a league's game
# (one query), the ratings (ratings.service: the seats, already rated?, create the
# missing ratings, read them, update them, write their history), who follows the game
# (people) and is it a tournament's pairing (tournaments): nine queries, three of them
# writes. Once per game, so not part of the per-move bound.
FINISH_QUERIES = 9
FINISH_WRITES = 3
# Token lookup; the game; its seats joined to their users (the viewer's seat among them,
# or not: not_found).
DETAIL_QUERIES = 3
# Token lookup; count for the page; the page of games; their seats joined with users.
LIST_QUERIES = 4
# The detail's three, plus the moves.
MOVE_LOG_QUERIES = 4

_TEST_ONLY = ("SAVEPOINT", "RELEASE SAVEPOINT", "ROLLBACK TO SAVEPOINT")


def statements(context: CaptureQueriesContext) -> list[str]:
    """The SQL a request ran, without the savepoints that only tests see.

    The test wraps itself in a transaction, so the service's ``atomic()`` becomes a
    savepoint pair here; in production it is BEGIN/COMMIT, which Django does not log.
    """
    return [q["sql"] for q in context.captured_queries if not q["sql"].startswith(_TEST_ONLY)]


def counted(request):
    """Run ``request()``; return its response and the SQL statements it ran."""
    with CaptureQueriesContext(connection) as context:
        response = request()
    return response, statements(context)


def counted_move(client, game: Game, version: int, action: dict) -> list[str]:
    """Play ``action`` at ``version`` over the API as ``client``; the SQL statements it ran."""
    response, sql = counted(
        lambda: client.post(
            f"/api/games/{game.id}/moves/", {"version": version, **action}, format="json"
        )
    )
    assert response.status_code == 200, response.json()
    return sql


@dataclass(frozen=True)
class MoveCost:
    number: int
    round: int
    kind: str
    buried: bool
    ended_round: bool
    finished: bool
    handed_on: bool  # the turn passed to another player (who gets a turn email)
    sql: tuple[str, ...]

    @property
    def shape(self) -> tuple:
        """What the move did to the database: the cost may depend on this and nothing else."""
        return (self.kind, self.buried, self.ended_round, self.finished, self.handed_on)


def authenticated_clients(seated):
    clients = [client_for(user) for user in seated]
    for client in clients:
        # The first request with a new key records its use (one UPDATE an hour at most):
        # make it here, so the measured requests show the steady state.
        client.get("/api/games/")
    return clients


def play_counting(seated, *, seed: int) -> tuple[Game, list, list[MoveCost], list[int]]:
    """Play a whole seeded game over the API; return its costs per move and per detail GET.

    Like a real client, the player to move fetches the game when the turn passes to them.
    """
    game = start_game(seated, seed=seed)
    clients = authenticated_clients(seated)
    state = piratz.load(Game.objects.get(id=game.id).state)
    rng = random.Random(seed)
    moves, details = [], []
    while not piratz.is_finished(state):
        seat = piratz.current_seat(state)
        action = choose_action(piratz.legal_actions(state, seat), rng, reveal_bias=0.7)
        sql = counted_move(clients[seat], game, len(moves), action)
        before = state
        state = piratz.apply(state, seat, action)
        moves.append(
            MoveCost(
                number=len(moves) + 1,
                round=before.round,
                kind=action["action"],
                buried=action.get("bury") is not None,
                ended_round=state.round != before.round or piratz.is_finished(state),
                finished=piratz.is_finished(state),
                handed_on=piratz.current_seat(state) not in (None, seat),
                sql=tuple(sql),
            )
        )
        following = piratz.current_seat(state)
        if following is not None and following != seat:
            response, sql = counted(
                lambda following=following: clients[following].get(f"/api/games/{game.id}/")
            )
            assert response.status_code == 200
            details.append(len(sql))
    return game, clients, moves, details


def describe(moves: list[MoveCost]) -> str:
    worst = max(moves, key=lambda move: len(move.sql))
    return f"move {worst.number} ({worst.shape}) ran:\n" + "\n".join(worst.sql)


def test_every_move_costs_a_few_queries_whatever_the_round(players):
    _, _, moves, _ = play_counting(players, seed=13)

    bound = [MOVE_QUERY_BOUND + FINISH_QUERIES * move.finished for move in moves]
    assert all(len(m.sql) <= b for m, b in zip(moves, bound, strict=True)), describe(moves)
    last_round = moves[-1].round
    assert last_round >= 5, "the seed must give a long game, or 'late' means nothing"
    # Constant: a move's cost depends only on what it does, never on how far the game is.
    by_shape = {}
    for move in moves:
        by_shape.setdefault(move.shape, set()).add(len(move.sql))
    assert all(len(counts) == 1 for counts in by_shape.values()), by_shape

    def cost(kind, round_number, *, buried):
        found = [
            len(move.sql)
            for move in moves
            if move.kind == kind
            and move.round == round_number
            and move.buried == buried
            and not move.ended_round
        ]
        assert found, f"seed 13 played no such {kind} in round {round_number}; pick another"
        return found[0]

    assert cost("reveal", 1, buried=False) == cost("reveal", last_round, buried=False)
    assert cost("pass", 1, buried=True) == cost("pass", last_round, buried=True)
    # The row is written once per move, and the move log once (no rewrite of old moves);
    # each email the move queues adds its outbox row: the turn email when the turn passes
    # to another player, the game-over email to each of the four players at the end.
    for move in moves:
        writes = [sql for sql in move.sql if sql.startswith(("INSERT", "UPDATE", "DELETE"))]
        emails = move.handed_on + len(players) * move.finished
        ratings = FINISH_WRITES * move.finished
        assert len(writes) == 2 + move.buried + emails + ratings, (move.shape, writes)


def test_game_detail_costs_the_same_on_the_first_move_and_the_last(toy_games, players):
    seated = players[:3]
    game = start_toy_game(seated)
    clients = authenticated_clients(seated)
    details, url = [], f"/api/games/{game.id}/"
    # Like a real client, the player to move fetches the game when the turn passes to them.
    while game.status == "active":
        seat = game.current_seat
        response, sql = counted(lambda seat=seat: clients[seat].get(url))
        assert response.status_code == 200
        details.append(len(sql))
        counted_move(clients[seat], game, game.version, toy_move(game))
        game = Game.objects.get(id=game.id)

    assert len(details) >= 5, "the game must last, or 'the last move' means nothing"
    assert details[0] == details[-1] == DETAIL_QUERIES
    assert set(details) == {DETAIL_QUERIES}
    _, finished = counted(lambda: clients[0].get(url))
    assert len(finished) == DETAIL_QUERIES


def test_move_log_costs_the_same_however_long_it_is(players):
    game = start_game(players[:2], seed=11)
    clients = authenticated_clients(players[:2])
    _, empty = counted(lambda: clients[0].get(f"/api/games/{game.id}/moves/"))

    game, clients, moves, _ = play_counting(players[:2], seed=11)
    response, full = counted(lambda: clients[1].get(f"/api/games/{game.id}/moves/"))

    assert len(response.json()) == len(moves) > 50
    assert len(empty) == len(full) == MOVE_LOG_QUERIES


def test_game_list_costs_the_same_for_one_game_and_five(toy_games, anna, bert, carla, dirk):
    start_toy_game([anna, bert])
    clients = authenticated_clients([anna])
    response, one = counted(lambda: clients[0].get("/api/games/"))
    assert response.json()["count"] == 1

    start_toy_game([anna, bert, carla])
    start_toy_game([carla, anna, dirk])
    actions.do_create_game(anna, [anna.email, carla.email], game=TOY_KIND)  # invited: no state
    Game.objects.filter(id=start_toy_game([dirk, anna]).id).update(status="finished")
    response, five = counted(lambda: clients[0].get("/api/games/"))

    assert response.json()["count"] == 5
    assert len(one) == len(five) == LIST_QUERIES, "\n".join(five)


def test_rattenscharf_moves_cost_as_few_queries_as_piratz_moves(anna, bert):
    """A placement costs what a Piratz move does (the same bound), and a move that ends a
    turn what every turn-ending move costs, early or late: no query per strip on the table."""
    game = start_game([anna, bert], seed=1, game="rattenscharf")
    clients = authenticated_clients([anna, bert])
    state = rattenscharf.load(Game.objects.get(id=game.id).state)
    costs = []  # (ended the turn, finished, statements, the turn it was played in)
    while not rattenscharf.is_finished(state):
        seat = rattenscharf.current_seat(state)
        action = rattenscharf.timeout_action(state)  # careful play: the game runs its length
        sql = counted_move(clients[seat], game, len(costs), action)
        after = rattenscharf.apply(state, seat, action)
        costs.append(
            (after.turn != state.turn, rattenscharf.is_finished(after), len(sql), state.turn)
        )
        state = after
    assert len(costs) == len(STRIP_IDS), "the seed must give a complete game"
    assert all(n <= MOVE_QUERY_BOUND + FINISH_QUERIES * finished for _, finished, n, _ in costs), (
        costs
    )
    by_shape = {}
    for ended, finished, n, turn in costs:
        # From turn 2 on, a turn's end checks the last two turns for R36 (one query).
        abandon_check = ended and turn >= rattenscharf.ROUNDS_TO_ABANDON
        by_shape.setdefault((ended, finished, abandon_check), set()).add(n)
    assert all(len(counts) == 1 for counts in by_shape.values()), by_shape
    assert {(True, False, True), (False, False, False)} <= set(by_shape)
