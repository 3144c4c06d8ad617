"""Quick match's seeks in the admin: listed with their filters and search, read only."""

import pytest

from quickmatch import actions
from quickmatch.models import Seek
from tests.factories import TOY_KIND

pytestmark = pytest.mark.django_db

SEEKS = "/admin/quickmatch/seek/"


def _post(user, **terms) -> Seek:
    return actions.do_post_seek(
        user, game=TOY_KIND, players=2, turn_hours_min=24, turn_hours_max=72, **terms
    )


def _listed(client, **params) -> list:
    response = client.get(SEEKS, params)
    assert response.status_code == 200, response
    return list(response.context["cl"].result_list)


def test_seeks_are_listed_filtered_and_found_by_email(toy_games, moderator_client, anna, bert):
    waiting = _post(anna, rated=False)
    withdrawn = _post(bert)
    actions.do_withdraw_seek(bert, withdrawn.id)
    assert set(_listed(moderator_client)) == {waiting, withdrawn}
    assert _listed(moderator_client, status="withdrawn") == [withdrawn]
    assert _listed(moderator_client, rated__exact="0") == [waiting]
    assert _listed(moderator_client, q=anna.email) == [waiting]


def test_a_seek_is_read_only_for_moderators(toy_games, moderator_client, anna):
    seek = _post(anna)
    page = moderator_client.get(f"{SEEKS}{seek.id}/change/")
    assert page.status_code == 200
    assert not page.context["has_change_permission"]
    assert moderator_client.get(f"{SEEKS}add/").status_code == 403
    answer = moderator_client.post(f"{SEEKS}{seek.id}/delete/", {"post": "yes"})
    assert answer.status_code == 403
    assert Seek.objects.filter(pk=seek.pk).exists()
