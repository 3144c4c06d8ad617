"""The dashboard on the admin index: counts of what needs a moderator, each linked to its list.

Its games are the toy game's (the ``toy_games`` fixture for every test): what it counts is
the platform's.
"""

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import User
from games import actions
from games.models import Game, GameStatus
from moderation.models import Report
from notifications.models import OutboundEmail
from tests.factories import TOY_KIND, make_user, start_toy_game

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("toy_games")]

Status = OutboundEmail.Status


def set_deadline(game: Game, ago: timedelta) -> None:
    Game.objects.filter(id=game.id).update(deadline=timezone.now() - ago)


@pytest.fixture
def service_in_every_state(anna, bert, carla, dirk):
    """Games, emails, reports and players in every state the dashboard tells apart.

    Expected: 3 active games (1 overdue), 2 failed and 1 retrying email, 1 open report,
    1 player suspended now.
    """
    running = start_toy_game([anna, bert])
    late = start_toy_game([bert, carla])
    set_deadline(late, timedelta(minutes=16))  # the sweep should have moved it
    just_late = start_toy_game([carla, dirk])
    set_deadline(just_late, timedelta(minutes=14))  # within the sweep's grace
    actions.do_create_game(anna, [anna.email, "new@example.com"], game=TOY_KIND)  # invited
    ended = start_toy_game([dirk, anna])
    Game.objects.filter(id=ended.id).update(
        status=GameStatus.FINISHED, deadline=timezone.now() - timedelta(days=3)
    )

    OutboundEmail.objects.all().delete()  # the invitations' own emails: sent or pending
    for status, attempts in [
        (Status.FAILED, 1),
        (Status.FAILED, 6),
        (Status.PENDING, 2),  # retrying
        (Status.PENDING, 0),  # new, never tried
        (Status.SENT, 1),
        (Status.SENDING, 0),
    ]:
        OutboundEmail.objects.create(
            to="x@example.com", subject="s", body_text="", body_html="", template="t",
            status=status, attempts=attempts,
        )  # fmt: skip

    Report.objects.create(reporter=anna, game=running, reported_user=bert, category="abuse")
    Report.objects.create(
        reporter=bert, game=running, category="spam", status=Report.Status.RESOLVED
    )

    now = timezone.now()
    User.objects.filter(id=carla.id).update(suspended_at=now - timedelta(days=1))
    User.objects.filter(id=dirk.id).update(
        suspended_at=now - timedelta(days=9), suspended_until=now - timedelta(days=2)
    )  # over
    return running


def dashboard(client) -> dict[str, tuple[int, str]]:
    response = client.get("/admin/")
    assert response.status_code == 200
    return {tile.label: (tile.count, tile.url) for tile in response.context["dashboard"]}


def test_the_dashboard_counts_each_state_and_its_links_list_the_same_rows(
    moderator_client, service_in_every_state
):
    tiles = dashboard(moderator_client)

    assert {label: count for label, (count, _url) in tiles.items()} == {
        "Active games": 3,
        "Games past their deadline by more than 15 minutes (the sweep is failing)": 1,
        "Emails failed": 2,
        "Emails waiting to be retried": 1,
        "Open reports": 1,
        "Players suspended now": 1,
    }
    for label, (count, url) in tiles.items():
        listed = moderator_client.get(url)
        assert listed.status_code == 200, url
        assert listed.context["cl"].result_count == count, label


def test_the_dashboard_is_shown_above_the_app_list(moderator_client, service_in_every_state):
    page = moderator_client.get("/admin/").content.decode()

    assert page.index('id="dashboard"') < page.index('class="app-')
    assert "?overdue=yes" in page and "?delivery=retrying" in page


def test_the_index_query_count_does_not_grow_with_the_service(moderator_client, moderator):
    with CaptureQueriesContext(connection) as empty:
        moderator_client.get("/admin/")
    players = [make_user(f"p{n}@example.com") for n in range(6)]
    for n in range(3):
        set_deadline(start_toy_game(players[n : n + 2]), timedelta(hours=n))
    for status in (Status.FAILED, Status.PENDING):
        OutboundEmail.objects.create(
            to="x@example.com", subject="s", body_text="", body_html="", template="t",
            status=status, attempts=3,
        )  # fmt: skip

    with CaptureQueriesContext(connection) as full:
        moderator_client.get("/admin/")

    assert len(full) == len(empty)


def test_players_do_not_see_the_dashboard(client, anna):
    client.force_login(anna)

    response = client.get("/admin/")

    assert response.status_code == 302 and "/admin/login/" in response["Location"]
