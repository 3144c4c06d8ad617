"""The moderators' admin pages for users, API keys and login links."""

import pytest

from accounts.models import ApiToken, LoginLink, User

pytestmark = pytest.mark.django_db


def test_user_list_and_search(moderator_client, player):
    response = moderator_client.get("/admin/accounts/user/", {"q": "anna"})

    assert response.status_code == 200
    assert [user.email for user in response.context["cl"].result_list] == ["anna@example.com"]


def test_user_change_page(moderator_client, player):
    response = moderator_client.get(f"/admin/accounts/user/{player.pk}/change/")

    assert response.status_code == 200
    assert b"display_name" in response.content


def test_add_user_without_password_normalises_the_address(moderator_client):
    response = moderator_client.post(
        "/admin/accounts/user/add/",
        {"email": " New@Example.COM ", "display_name": "Newbie"},
    )

    assert response.status_code == 302, response.content
    user = User.objects.get(email="new@example.com")
    assert not user.has_usable_password()


def test_add_user_rejects_a_duplicate_address_in_another_case(moderator_client, player):
    response = moderator_client.post("/admin/accounts/user/add/", {"email": "ANNA@example.com"})

    assert response.status_code == 200
    assert User.objects.filter(email__iexact="anna@example.com").count() == 1


def test_api_key_pages_never_show_the_key_or_its_hash(moderator_client, player):
    key = ApiToken.issue(player)
    token = ApiToken.objects.get()

    listing = moderator_client.get("/admin/accounts/apitoken/")
    detail = moderator_client.get(f"/admin/accounts/apitoken/{token.pk}/change/")

    assert listing.status_code == detail.status_code == 200
    assert token.prefix.encode() in listing.content
    for page in (listing, detail):
        assert key.encode() not in page.content
        assert token.key_hash.encode() not in page.content
    assert moderator_client.get("/admin/accounts/apitoken/add/").status_code == 403


def test_login_link_list(moderator_client):
    LoginLink.objects.create(nonce_hash="h" * 64, email="anna@example.com")

    response = moderator_client.get("/admin/accounts/loginlink/")

    assert response.status_code == 200
    assert b"anna@example.com" in response.content
    assert b"h" * 64 not in response.content
