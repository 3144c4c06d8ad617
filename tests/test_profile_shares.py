"""bench/profile_shares.py: py-spy's samples sorted into the parts of a move, and the budget
the throughput goal leaves the move's own work (BENCHMARKS.md "Move path")."""

from bench.profile_shares import budget, report, shares

FRAMEWORK = "BaseHandler.get_response (django/core/handlers/base.py:142)"
AUTH = (
    "APIView.perform_authentication (rest_framework/views.py:329);"
    "ApiTokenAuthentication.authenticate (accounts/authentication.py:42)"
)


def line(kind: str, *frames: str, samples: int) -> str:
    return ";".join(["<module> (api.py:1)", f"{kind} (api.py:2)", *frames]) + f" {samples}\n"


# Per move: a bare write of 100 samples, a POST of 120 and a GET of 40 (half the moves
# bring one), of which 30 are what every request pays (20 the token, 10 the framework).
PROFILE = [
    line("measure_in_process.<locals>.bare_write", FRAMEWORK, samples=70),
    line("measure_in_process.<locals>.bare_write", FRAMEWORK, AUTH, samples=30),
    line("move_post", FRAMEWORK, "MoveView.post (games/api/views.py:3)", samples=90),
    line("move_post", FRAMEWORK, AUTH, samples=30),
    line("next_player_get", FRAMEWORK, AUTH, samples=20),
    line("next_player_get", FRAMEWORK, samples=10),
    line("next_player_get", FRAMEWORK, "game_detail (games/api/views.py:9)", samples=10),
    "set-up outside any request 500\n",
]


def test_samples_are_sorted_by_request_kind_and_part():
    by_kind = shares(PROFILE, depth=2)
    assert by_kind["bare write"] == {
        "(framework)": 70,
        "perform_authentication > ApiTokenAuthentication.authenticate": 30,
    }
    assert by_kind["move POST"]["MoveView.post"] == 90
    assert sum(by_kind["game GET"].values()) == 40
    assert "a move (POST + its share of GETs): 1.60 bare writes" in report(by_kind, 0.01)


def test_the_budget_takes_the_get_at_what_every_request_pays():
    # 0.7x allows 1.43 bare writes a move: 1 for the bare write's share of the POST, 0.30
    # for the GET at its floor, 0.13 for the move's own work, which costs 1.60 - 1.30.
    for depth in (1, 3):
        assert budget(shares(PROFILE, depth)) == (
            "\nthe goal (0.7x) allows a move 1.43 bare writes: a bare write, the next "
            "player's GET at the floor every request pays (0.30), and 0.13 for the move's "
            "own work, which costs 0.30 now"
        )
