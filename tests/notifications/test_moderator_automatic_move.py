"""A moderator playing the automatic move (rules P24, R34) before the deadline: the player's
"we moved for you" email, the next player's recap and the game page say a moderator played
it, never that the deadline passed; a real timeout still says the deadline passed."""

import pytest

from accounts.models import User
from games import actions
from games.models import Actor, Game
from notifications.models import OutboundEmail
from tests.factories import start_game
from tests.notifications.conftest import emails, time_out
from tests.rules.rattenscharf.helpers import GAME_A, order

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("site_and_clock")]

DEADLINE_PASSED = "(Played automatically: the deadline had passed.)"
BY_MODERATOR = "(Played automatically by a moderator, rules P24.)"
GERMAN_DEADLINE_PASSED = "(Automatisch gespielt: Die Frist war abgelaufen.)"
GERMAN_BY_MODERATOR = "(Von einem Moderator automatisch gespielt, Regel P24.)"


def german(user: User) -> User:
    User.objects.filter(pk=user.pk).update(language="de")
    user.refresh_from_db()
    return user


def force(game: Game, moderator) -> Game:
    game = actions.do_force_automatic_move(
        game.id, moderator, version=game.version, reason="The player asked us to."
    )
    game.refresh_from_db()
    return game


def recap_of(user, heading="SINCE YOUR LAST TURN") -> str:
    """The recap of the newest turn email to ``user``, as text."""
    mail = OutboundEmail.objects.filter(template="your_turn", to=user.email).latest("id").rendered()
    return mail.body_text.split(heading + "\n", 1)[1].split("\n\n", 1)[0]


def log_page(client, game: Game, user) -> str:
    client.force_login(user)
    response = client.get(f"/games/{game.id}/")
    assert response.status_code == 200
    page = response.content.decode()
    return page.split('id="log-heading"', 1)[1].split("</section>", 1)[0]


@pytest.fixture
def started(anna, bert, carla) -> Game:
    """Seed 7, three players, Anna to move well before her deadline."""
    game = start_game([anna, bert, carla], stand_in_bots=False)
    OutboundEmail.objects.all().delete()
    return game


def test_a_forced_move_says_a_moderator_played_it_and_a_timeout_the_deadline(
    started, anna, bert, carla, moderator, client, time_machine
):
    game = force(started, moderator)
    assert game.moves.get(number=1).actor == Actor.MODERATOR

    [mail] = emails("auto_moved", anna)
    assert mail.subject == "A moderator played your turn in Piratz with Bert, carla"
    for body in (mail.body_text, mail.body_html):
        assert "in Piratz with Bert, carla a moderator played for you as rules P24 say:" in body
        assert "You passed naming" in body and BY_MODERATOR in body
        assert "deadline" not in body.replace("&#x27;", "'").split("Open the game")[0]
        assert "the service" not in body and "time ran out" not in body.lower()
    assert "mod@example.com" not in mail.body_text + mail.body_html + mail.subject

    # Bert, to move next, reads it in his recap; and on the game page, as everyone.
    [bert_recap] = recap_of(bert).splitlines()
    assert bert_recap.startswith("- Anna passed naming") and bert_recap.endswith(BY_MODERATOR)
    for user in (anna, bert):
        page = log_page(client, game, user)
        assert BY_MODERATOR in page and DEADLINE_PASSED not in page
    client.force_login(bert)  # and the replay's step of it
    replay = client.get(f"/games/{game.id}/replay/?step=1").content.decode()
    assert BY_MODERATOR in replay and DEADLINE_PASSED not in replay

    # Bert's deadline really passes: the service moves, and says so.
    game = time_out(game, time_machine)
    assert game.moves.get(number=2).actor == Actor.SERVICE
    [mail] = emails("auto_moved", bert)
    assert mail.subject == "Your time ran out: the service moved for you in Piratz with Anna, carla"
    assert "your deadline in Piratz with Anna, carla passed, so the service" in mail.body_text
    assert DEADLINE_PASSED in mail.body_text and "moderator" not in mail.body_text
    anna_move, bert_move = recap_of(carla).splitlines()
    assert anna_move.endswith(BY_MODERATOR) and bert_move.endswith(DEADLINE_PASSED)
    page = log_page(client, game, carla)
    assert page.count(BY_MODERATOR) == 1 and page.count(DEADLINE_PASSED) == 1
    assert page.index(DEADLINE_PASSED) < page.index(BY_MODERATOR)  # newest first


def test_a_forced_move_in_german(started, anna, bert, carla, moderator, client, time_machine):
    german(anna)
    german(bert)
    game = force(started, moderator)

    [mail] = emails("auto_moved", anna)
    assert mail.subject == "Ein Moderator hat deinen Zug in Piratz mit Bert, carla gespielt"
    for body in (mail.body_text, mail.body_html):
        assert "in Piratz mit Bert, carla hat ein Moderator nach Regel P24 für dich gespielt:" in (
            body
        )
        assert GERMAN_BY_MODERATOR in body
        assert "abgelaufen" not in body and "Frist" not in body.split("Spiel öffnen")[0]
    assert recap_of(bert, "SEIT DEINEM LETZTEN ZUG").endswith(GERMAN_BY_MODERATOR)
    page = log_page(client, game, bert)
    assert GERMAN_BY_MODERATOR in page and GERMAN_DEADLINE_PASSED not in page

    game = time_out(game, time_machine)
    [mail] = emails("auto_moved", bert)
    assert mail.subject.startswith("Deine Zeit ist abgelaufen")
    assert GERMAN_DEADLINE_PASSED in mail.body_text and "Moderator" not in mail.body_text


def test_a_forced_rattenscharf_turn_says_a_moderator_placed_the_strips(
    anna, bert, moderator, client, time_machine
):
    game = start_game([anna, bert], game="rattenscharf", order=order(*GAME_A))
    OutboundEmail.objects.all().delete()
    game = force(game, moderator)
    by_moderator = "(Played automatically by a moderator, rule R34.)"

    [mail] = emails("auto_moved", anna)
    assert mail.subject == "A moderator played your turn in Rattenscharf with Bert"
    assert (
        "in Rattenscharf with Bert a moderator placed the strips of your turn for you "
        "(rule R34):" in mail.body_text
    )
    assert mail.body_text.count(by_moderator) == game.version  # one per placement
    assert "deadline" not in mail.body_text.split("Open the game")[0]
    assert by_moderator in recap_of(bert) and DEADLINE_PASSED not in recap_of(bert)
    page = log_page(client, game, bert)
    assert page.count(by_moderator) == game.version and DEADLINE_PASSED not in page

    game = time_out(game, time_machine)
    [mail] = emails("auto_moved", bert)
    assert mail.subject.startswith("Your time ran out")
    assert DEADLINE_PASSED in mail.body_text and "moderator" not in mail.body_text
