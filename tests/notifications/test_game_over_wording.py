"""The game-over email names its winners as its reader says them: "you share the win with
Bert and carla", never "Anna and You and carla share the win" (the reader's "You" is the
name ``describe.Names.subject`` gives their own seat)."""

import pytest

from games.kinds.piratz import rules as piratz_rules
from tests.factories import play_to_the_end, start_game
from tests.notifications.conftest import emails

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("site_and_clock")]


@pytest.fixture
def winners(monkeypatch):
    """``winners(seats)``: the game-over emails composed from now on say that these seats
    won (the real result otherwise: scores, items, the table), so a shared win needs no
    search for a seed that ends in a tie."""

    def set_winners(seats: list[int]) -> None:
        view = piratz_rules.view

        def with_winners(state, seat):
            seen = view(state, seat)
            result = seen.get("result")
            if result:
                players = [
                    {**p, "score": 10 if p["seat"] in seats else 0} for p in result["players"]
                ]
                seen = {**seen, "result": {**result, "players": players, "winners": seats}}
            return seen

        monkeypatch.setattr(piratz_rules, "view", with_winners)

    return set_winners


def finished(users):
    return play_to_the_end(start_game(users, seed=3), users)


def test_a_winner_sharing_the_win_reads_you_and_the_others_by_name(
    anna, bert, carla, dirk, winners
):
    winners([0, 1, 3])
    finished([anna, bert, carla, dirk])
    [mail] = emails("game_over", bert)
    assert mail.subject == "Game over: you share the win with Anna and dirk in Piratz"
    assert "You share the victory with Anna and dirk" in mail.body_text
    assert "You share the victory with <strong>Anna and dirk</strong>" in mail.body_html
    [mail] = emails("game_over", anna)
    assert mail.subject == "Game over: you share the win with Bert and dirk in Piratz"
    [mail] = emails("game_over", dirk)
    assert mail.subject == "Game over: you share the win with Anna and Bert in Piratz"
    assert "You share the victory with Anna and Bert" in mail.body_text
    for mail in emails("game_over"):
        for part in (mail.subject, mail.body_text, mail.body_html):
            assert "and You" not in part and ", You" not in part and "You and" not in part


def test_a_player_who_did_not_win_reads_every_winner_by_name(anna, bert, carla, dirk, winners):
    winners([0, 1, 3])
    finished([anna, bert, carla, dirk])
    [mail] = emails("game_over", carla)
    assert mail.subject == (
        "Game over: Anna and Bert and dirk share the win in Piratz with Anna, Bert, dirk"
    )
    assert "Winners, sharing the victory: Anna, Bert, dirk" in mail.body_text
    assert "Winners, sharing the victory: <strong>Anna, Bert, dirk</strong>" in mail.body_html


def test_two_winners_the_reader_one_of_them(anna, bert, carla, winners):
    winners([1, 2])
    finished([anna, bert, carla])
    [mail] = emails("game_over", carla)
    assert mail.subject == "Game over: you share the win with Bert in Piratz"
    assert "You share the victory with Bert" in mail.body_text
    [mail] = emails("game_over", anna)
    assert mail.subject == "Game over: Bert and carla share the win in Piratz with Bert, carla"


def test_a_single_winner_reads_as_before(anna, bert, winners):
    winners([1])
    finished([anna, bert])
    [mail] = emails("game_over", bert)
    assert mail.subject == "Game over: you won in Piratz with Anna"
    [mail] = emails("game_over", anna)
    assert mail.subject == "Game over: Bert won in Piratz with Bert"
    assert "Winner: Bert" in mail.body_text


def test_another_player_called_you_is_still_told_apart_by_seat(anna, bert, carla, winners):
    """Carla's display name is "You": the co-winners come from the seats, not the names."""
    carla.display_name = "You"
    carla.save(update_fields=["display_name"])
    winners([1, 2])
    finished([anna, bert, carla])
    [mail] = emails("game_over", bert)
    assert mail.subject == "Game over: you share the win with You in Piratz"
    assert "You share the victory with You" in mail.body_text
