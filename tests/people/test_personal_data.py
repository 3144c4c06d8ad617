"""A person's people in their data export, and gone with their account."""

import pytest
from django.test import TestCase

from accounts import erasure
from accounts.personal_data import export_files
from people import actions
from people.models import Block, Follow, FollowedGame, StartNotice

from .conftest import start_public_toy_game

pytestmark = pytest.mark.django_db


def test_the_export_holds_whom_they_follow_and_blocked_not_who_blocked_them(
    public_game, anna, bert, carla, dirk
):
    actions.do_follow(carla, anna.public_id)
    actions.do_block(carla, dirk.public_id)
    actions.do_block(bert, carla.public_id)
    actions.do_follow_game(carla, public_game.id)
    theirs = export_files(carla)["people.json"]
    assert [f["page"] for f in theirs["following"]] == [anna.public_id]
    assert [b["page"] for b in theirs["blocked"]] == [dirk.public_id]
    assert [g["game"] for g in theirs["followed_games"]] == [str(public_game.id)]
    assert bert.public_id not in str(theirs)


def test_an_erased_account_leaves_no_follow_nor_block(toy_games, anna, bert, carla):
    actions.do_follow(carla, anna.public_id)
    actions.do_follow(anna, carla.public_id)
    actions.do_block(bert, carla.public_id)
    game = start_public_toy_game(anna, bert)
    actions.do_follow_game(carla, game.id)
    assert StartNotice.objects.filter(follower=carla).exists()
    with TestCase.captureOnCommitCallbacks(execute=True):
        erasure.erase_user(carla.pk)
    assert not Follow.objects.exists()
    assert not Block.objects.exists()
    assert not FollowedGame.objects.exists()
    assert not StartNotice.objects.exists()
