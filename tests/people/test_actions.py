"""Following and blocking (people.actions): once per pair, never oneself, harmless twice."""

import pytest

from core.errors import ServiceError
from people import actions, blocks, queries
from people.models import Block, Follow, FollowedGame

pytestmark = pytest.mark.django_db


def test_following_twice_follows_once(anna, bert):
    first, created = actions.do_follow(anna, bert.public_id)
    again, created_again = actions.do_follow(anna, bert.public_id)
    assert (created, created_again) == (True, False)
    assert first.pk == again.pk
    assert [f.player for f in queries.following_of(anna)] == [bert]


def test_nobody_follows_or_blocks_themself(anna):
    with pytest.raises(ServiceError) as follow:
        actions.do_follow(anna, anna.public_id)
    with pytest.raises(ServiceError) as block:
        actions.do_block(anna, anna.public_id)
    assert follow.value.code == block.value.code == "invalid"
    assert not Follow.objects.exists() and not Block.objects.exists()


@pytest.mark.parametrize("page", ["nobody1234", "", None, 7])
def test_an_unknown_page_is_not_found(anna, page):
    with pytest.raises(ServiceError) as refused:
        actions.do_follow(anna, page)
    assert refused.value.code == "not_found"


def test_unfollowing_someone_not_followed_is_no_error(anna, bert):
    assert actions.do_unfollow(anna, bert.public_id) is False
    actions.do_follow(anna, bert.public_id)
    assert actions.do_unfollow(anna, bert.public_id) is True
    assert not Follow.objects.exists()


def test_blocking_ends_the_blockers_follow_but_not_the_blocked_ones(anna, bert):
    actions.do_follow(anna, bert.public_id)
    actions.do_follow(bert, anna.public_id)
    actions.do_block(anna, bert.public_id)
    # Anna no longer follows Bert; Bert's follow of Anna stays: removing it would tell him.
    assert list(Follow.objects.values_list("follower", "player")) == [(bert.pk, anna.pk)]
    assert blocks.blocked_between(anna.pk, bert.pk) and blocks.blocked_between(bert.pk, anna.pk)
    assert blocks.blocked_ids(bert.pk) == {anna.pk} and blocks.blocked_by(bert.pk) == set()
    assert [b.blocked for b in queries.blocks_of(anna)] == [bert]
    assert list(queries.blocks_of(bert)) == []  # never who blocked you


def test_only_the_blocker_lifts_a_block(anna, bert):
    actions.do_block(anna, bert.public_id)
    assert actions.do_unblock(bert, anna.public_id) is False
    assert Block.objects.count() == 1
    assert actions.do_unblock(anna, bert.public_id) is True
    assert not blocks.blocked_between(anna.pk, bert.pk)


def test_the_limits_refuse_one_more_and_change_nothing(anna, bert, carla, monkeypatch):
    monkeypatch.setattr(actions, "MAX_FOLLOWS", 1)
    actions.do_follow(anna, bert.public_id)
    with pytest.raises(ServiceError) as refused:
        actions.do_follow(anna, carla.public_id)
    assert refused.value.code == "conflict"
    assert Follow.objects.count() == 1
    actions.do_follow(anna, bert.public_id)  # the one there already is no new one


def test_the_relation_says_which_buttons_a_reader_gets(anna, bert, carla):
    actions.do_follow(anna, bert.public_id)
    assert queries.relation(anna, bert) == queries.Relation(True, False, True)
    actions.do_block(bert, carla.public_id)
    # Carla, blocked by Bert, sees no challenge button on his page: nothing else differs.
    assert queries.relation(carla, bert) == queries.Relation(False, False, False)
    assert queries.relation(bert, carla) == queries.Relation(False, True, False)
    assert queries.relation(anna, anna).can_challenge is False


def test_a_public_game_is_followed_by_someone_without_a_seat(public_game, carla, anna):
    row, created = actions.do_follow_game(carla, public_game.id)
    assert created and row.game_id == public_game.id
    assert actions.do_follow_game(carla, public_game.id)[1] is False
    with pytest.raises(ServiceError) as seated:
        actions.do_follow_game(anna, public_game.id)
    assert seated.value.code == "conflict"
    assert FollowedGame.objects.count() == 1
    assert actions.do_unfollow_game(carla, public_game.id) is True
    assert actions.do_unfollow_game(carla, "not-a-game") is False


def test_a_private_game_cannot_be_followed_by_an_outsider(toy_game, carla):
    with pytest.raises(ServiceError) as refused:
        actions.do_follow_game(carla, toy_game.id)
    assert refused.value.code == "not_found"
    with pytest.raises(ServiceError) as malformed:
        actions.do_follow_game(carla, "not-a-game")
    assert malformed.value.code == "not_found"
    assert not FollowedGame.objects.exists()
