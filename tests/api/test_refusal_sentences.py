"""Every engine refusal reaches a player as a sentence, in English as in German (issue 24).

The engines speak in codes and phase names ("end_turn is not legal in phase turn", "bury
must be null"); the API's ``detail``, the table's message and the email answer all say the
game's sentence for the code instead, and what the player can do instead.
"""

import re

import pytest
from django.utils import translation

from games.actions.play import _engine_detail
from games.catalogue import kinds, spec_for
from games.models import Game, Move
from tests.factories import client_for

pytestmark = pytest.mark.django_db

ENGINE_MESSAGE = "engine words: bury must be null in phase decide"
# Words of the engines and the API that no player sentence should carry.
JARGON = re.compile(r"_|\bnull\b|\bphase\b|\bseat \d|\bdecide\b|\(R?P?\d+\)")


def engine_codes(kind):
    return list(spec_for(kind).rules.IllegalAction.ERROR_CODES)


# Every game of GAME_PACKAGES: a game added there is held to this too.
CASES = [(kind, code) for kind in kinds() for code in engine_codes(kind)]


@pytest.mark.parametrize("kind", kinds())
def test_every_engine_code_has_a_sentence(kind):
    assert set(spec_for(kind).refusal_sentences) == set(engine_codes(kind))


@pytest.mark.parametrize(("kind", "code"), CASES)
@pytest.mark.parametrize("language", ["en", "de"])
def test_every_refusal_is_a_sentence_in_both_languages(kind, code, language):
    error = spec_for(kind).rules.IllegalAction(code, ENGINE_MESSAGE)
    with translation.override(language):
        detail = _engine_detail(Game(game=kind), error)
    assert detail != ENGINE_MESSAGE and "engine words" not in detail
    assert not JARGON.search(detail), detail
    assert detail[0].isupper() and detail.endswith("."), detail
    if language == "de":
        with translation.override("en"):
            english = _engine_detail(Game(game=kind), error)
        assert detail != english, f"{code} has no German"


def test_an_illegal_move_over_the_api_is_refused_in_english_words(game, anna):
    # Version 0, nothing revealed yet: ending the turn is not legal (rules P9).
    response = client_for(anna).post(
        f"/api/games/{game.id}/moves/",
        {"version": 0, "action": "end_turn"},
        format="json",
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 400
    assert response.json() == {
        "code": "illegal_action",
        "detail": (
            "This move is not possible at this point of your turn: at its start you may reveal "
            "a card or pass; after a reveal, end your turn or pass; in a rat alert, keep one of "
            "the two rats."
        ),
    }
    assert not Move.objects.exists()


def test_burying_on_an_empty_row_is_refused_in_words_over_the_api(game, anna):
    response = client_for(anna).post(
        f"/api/games/{game.id}/moves/",
        {"version": 0, "action": "pass", "treasure": "coins", "bury": 12},
        format="json",
    )
    assert response.json()["detail"] == (
        "No card is left in the face-up row, so there is none to bury: your spade goes down "
        "on no card."
    )
    german = client_for(anna).post(
        f"/api/games/{game.id}/moves/",
        {"version": 0, "action": "pass", "treasure": "coins", "bury": 12},
        format="json",
        HTTP_ACCEPT_LANGUAGE="de",
    )
    assert german.json()["detail"] == (
        "In der offenen Reihe liegt keine Karte mehr, also gibt es keine zum Verbuddeln: "
        "Dein Spaten kommt auf keine Karte."
    )
