"""Emailed links answer HEAD (mail scanners send it) like GET, and HEAD changes nothing."""

import re

import pytest
from django.test import Client

from accounts.login_links import request_login_link
from accounts.models import LoginLink, User
from games import actions
from games.models import Seat
from tests.accounts.conftest import link_path

pytestmark = pytest.mark.django_db


@pytest.fixture
def invitation_path(anna, bert, mailoutbox, django_capture_on_commit_callbacks) -> str:
    """The path of the invitation link in Bert's email."""
    with django_capture_on_commit_callbacks(execute=True):
        actions.do_create_game(anna, [anna.email, bert.email])
    (email,) = [email for email in mailoutbox if email.to == [bert.email]]
    return re.search(r"https?://\S+(/invitations/[^/\s]+/)", email.body).group(1)


@pytest.fixture
def login_link_path(mailoutbox, django_capture_on_commit_callbacks) -> str:
    with django_capture_on_commit_callbacks(execute=True):
        request_login_link("stranger@example.com")
    return link_path(mailoutbox[-1].body)


def test_head_on_an_invitation_answers_like_get_and_accepts_nothing(invitation_path, bert):
    client = Client()
    head = client.head(invitation_path)
    get = client.get(invitation_path)

    assert head.status_code == get.status_code == 200
    assert head["Content-Type"] == get["Content-Type"]
    assert head.content == b""
    assert Seat.objects.get(user=bert).accepted_at is None


def test_head_on_a_login_link_answers_like_get_and_spends_nothing(login_link_path):
    client = Client()
    head = client.head(login_link_path)

    assert head.status_code == 200
    assert head.content == b""
    assert "_auth_user_id" not in client.session
    assert LoginLink.objects.get().used_at is None
    assert not User.objects.filter(email="stranger@example.com").exists()
    assert client.post(login_link_path).status_code == 302  # still usable after the HEAD


def test_head_on_a_broken_link_answers_its_status(client):
    assert client.head("/invitations/not-a-token/").status_code == 404
    assert client.head("/accounts/login/not-a-token/").status_code == 400
