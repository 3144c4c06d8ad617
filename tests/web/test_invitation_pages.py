"""The emailed invitation link: GET only shows, POST accepts or declines."""

import re
from datetime import timedelta

import pytest
import time_machine
from django.test import Client

from games import actions
from games.models import Game, GameStatus, Seat
from notifications.models import OutboundEmail

pytestmark = pytest.mark.django_db


@pytest.fixture
def invited(anna, bert, carla, mailoutbox, django_capture_on_commit_callbacks):
    """A game Anna created for Bert and Carla, and the links their emails carry."""
    with django_capture_on_commit_callbacks(execute=True):
        game = actions.do_create_game(anna, [anna.email, bert.email, carla.email])
    links = {}
    for email in mailoutbox:
        match = re.search(r"https?://\S+(/invitations/[^/\s]+/)", email.body)
        links[email.to[0]] = match.group(1)
    return game, links


def test_opening_the_link_changes_nothing(invited, bert):
    game, links = invited
    response = Client().get(links[bert.email])
    assert response.status_code == 200
    page = response.content.decode()
    assert "Anna invites you to Piratz" in page
    assert "Accept" in page and "Decline" in page
    assert Seat.objects.get(game=game, user=bert).accepted_at is None


def test_accepting_through_the_page(invited, bert, carla):
    game, links = invited
    response = Client().post(links[bert.email], {"decision": "accept"})
    assert response.status_code == 200
    assert "You have accepted" in response.content.decode()
    Client().post(links[carla.email], {"decision": "accept"})
    game.refresh_from_db()
    assert game.status == GameStatus.ACTIVE


def test_declining_through_the_page(invited, carla):
    game, links = invited
    response = Client().post(links[carla.email], {"decision": "decline"})
    assert "cancelled" in response.content.decode()
    assert Game.objects.get(id=game.id).status == GameStatus.CANCELLED


def test_a_decision_is_required(invited, bert):
    game, links = invited
    response = Client().post(links[bert.email], {"decision": "maybe"})
    assert response.status_code == 400
    assert "Choose accept or decline" in response.content.decode()
    assert Seat.objects.get(game=game, user=bert).accepted_at is None


def test_answering_a_cancelled_game_explains(invited, bert, carla):
    _game, links = invited
    Client().post(links[carla.email], {"decision": "decline"})
    response = Client().post(links[bert.email], {"decision": "accept"})
    assert response.status_code == 400
    assert "cancelled" in response.content.decode()


def test_tampered_link_is_refused(invited, bert):
    _game, links = invited
    response = Client().get(links[bert.email].replace(":", "x", 1) + "")
    assert response.status_code == 404
    assert "does not work" in response.content.decode()


def test_post_needs_csrf_token(invited, bert):
    game, links = invited
    response = Client(enforce_csrf_checks=True).post(links[bert.email], {"decision": "accept"})
    assert response.status_code == 403
    assert Seat.objects.get(game=game, user=bert).accepted_at is None


def test_an_expired_invitation_shows_no_accept_button(invited, bert):
    game, links = invited
    with time_machine.travel(game.invitation_expires_at + timedelta(minutes=1)):
        response = Client().get(links[bert.email])
    page = response.content.decode()
    assert response.status_code == 200
    assert 'value="accept"' not in page and 'value="decline"' not in page
    assert "open until" not in page
    assert "This invitation expired on" in page and "will not take place" in page


def test_accepting_an_expired_invitation_through_the_page_is_refused(invited, bert, carla):
    game, links = invited
    Client().post(links[carla.email], {"decision": "accept"})
    with time_machine.travel(game.invitation_expires_at + timedelta(minutes=1)):
        response = Client().post(links[bert.email], {"decision": "accept"})
    assert response.status_code == 400
    assert "This invitation expired on" in response.content.decode()
    assert Game.objects.get(id=game.id).status == GameStatus.INVITED
    assert Seat.objects.get(game=game, user=bert).accepted_at is None


def test_players_are_numbered_from_1_as_on_the_create_form(invited, bert):
    """The create form says "Player 1 (starts)": the invitation's list counts the same."""
    _game, links = invited
    page = Client().get(links[bert.email]).content.decode()
    assert 'start="0"' not in page
    players = re.search(r"<ol( [^>]*)?>(.*?)</ol>", page, re.S)
    assert players.group(1) in (None, ' start="1"')
    assert players.group(2).count("<li>") == 3


def test_the_last_acceptance_links_to_the_table(invited, bert, carla):
    """Signed in or not (the accept view signs nobody in: the token only proves the email
    arrived), the page leads to the table; signed out, the table asks for a login link."""
    game, links = invited
    Client().post(links[bert.email], {"decision": "accept"})
    signed_in = Client()
    signed_in.force_login(carla)
    page = signed_in.post(links[carla.email], {"decision": "accept"}).content.decode()
    assert "The game has started" in page
    assert f'href="/games/{game.id}/"' in page
    anonymous = Client().get(links[carla.email]).content.decode()
    assert "The game has started" in anonymous
    assert f'href="/games/{game.id}/"' in anonymous


def test_a_rattenscharf_invitation_names_its_game(
    anna, bert, mailoutbox, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        actions.do_create_game(anna, [anna.email, bert.email], game="rattenscharf")
    [link] = re.findall(r"https?://\S+(/invitations/[^/\s]+/)", mailoutbox[-1].body)
    page = Client().get(link).content.decode()
    assert "Anna invites you to Rattenscharf" in page and "Invitation to Rattenscharf" in page
    assert "Piratz</h1>" not in page and "passes for them" not in page
    assert "the service moves for them as the rules say" in page


def test_the_refusal_of_no_decision_is_in_the_readers_language(invited, bert):
    _, links = invited
    page = Client(headers={"accept-language": "de"}).post(links[bert.email], {"decision": "?"})
    assert "Wähle Annehmen oder Ablehnen." in page.content.decode()


FOLDED = re.compile(r'<details class="shuffle-check">(.*?)</details>', re.S)


def test_the_checkable_shuffle_is_folded_with_the_seed_field_inside_the_accept_form(invited, bert):
    game, links = invited
    page = Client().get(links[bert.email]).content.decode()
    accept_form = re.search(r'<form method="post" class="inline">(.*?)</form>', page, re.S)
    folded = FOLDED.search(accept_form.group(1))
    assert folded is not None  # inside the accept form: its seed field is sent with it
    inside = folded.group(1)
    assert "<summary>Checkable shuffle (optional)</summary>" in inside
    assert game.seed_commitment in inside and "data-client-seed" in inside
    assert f'href="/games/{game.id}/verification/">How the shuffle is checked</a>' in inside
    assert page.count(game.seed_commitment) == 1  # not shown a second time outside it
    assert "js/client_seed.js" in page
    # Accepted: still folded, without the field (there is nothing left to send).
    page = Client().post(links[bert.email], {"decision": "accept"}).content.decode()
    assert game.seed_commitment in FOLDED.search(page).group(1)
    assert "data-client-seed" not in page


def test_only_the_invitation_email_carries_the_commitment_in_one_short_line(invited, bert, carla):
    game, links = invited
    for player in (bert, carla):
        Client().post(links[player.email], {"decision": "accept"})
    game.refresh_from_db()
    assert game.status == GameStatus.ACTIVE
    rows = list(OutboundEmail.objects.all())
    assert {"invitation", "game_started", "your_turn"} <= {row.template for row in rows}
    for row in rows:
        email = row.rendered()
        carried = game.seed_commitment in email.body_text + email.body_html
        assert carried == (row.template == "invitation"), row.template
        if row.template == "invitation":
            lines = [line for line in email.body_text.splitlines() if game.seed_commitment in line]
            assert lines == [
                f"Shuffle commitment, to check the deal after the end: {game.seed_commitment}"
            ]
