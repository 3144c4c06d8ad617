"""Moderators read follows and blocks in the admin; nobody writes them there."""

import pytest

from people import actions

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("model", ["block", "follow", "followedgame"])
def test_moderators_read_the_lists_and_cannot_add(moderator_client, anna, bert, model):
    actions.do_follow(anna, bert.public_id)
    actions.do_block(bert, anna.public_id)
    listed = moderator_client.get(f"/admin/people/{model}/")
    assert listed.status_code == 200
    assert moderator_client.get(f"/admin/people/{model}/add/").status_code == 403
