"""Playing together on the table page (issue 25): table talk (write, report, hidden
messages), the host's chair (pause, resume, extend, hand a seat to a bot), resigning with
a confirmation step, and "Play again" (Django test client; the API's own tests are
tests/api/test_together_api.py and test_messages_api.py)."""

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from accounts import erasure
from games import actions
from games.models import Game, GameStatus, Seat, SeatChange
from games.notify import links
from notifications.models import OutboundEmail
from talk.actions import do_hide_message, post_message
from talk.models import Message, MessageReport
from talk.templatetags.table_talk import table_talk
from tests.factories import start_game

pytestmark = pytest.mark.django_db


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def table(game: Game) -> str:
    return reverse("games:game", args=[game.id])


def page(user, game: Game) -> str:
    response = signed_in(user).get(table(game))
    assert response.status_code == 200
    return response.content.decode()


def post(user, name: str, game: Game, data: dict | None = None, **kwargs):
    """POST a form of the table and follow the redirect back to it."""
    url = reverse(name, kwargs={"game_id": game.id, **kwargs})
    return signed_in(user).post(url, data or {}, follow=True)


def told(response) -> list[str]:
    return [str(message) for message in response.context["messages"]]


def fresh(game: Game) -> Game:
    return Game.objects.get(id=game.id)


@pytest.fixture
def duel(anna, bert) -> Game:
    """An active two-player game: Anna hosts (seat 0), Bert sits in seat 1."""
    return start_game([anna, bert])


# --- Table talk ------------------------------------------------------------------------------


def test_a_player_writes_at_the_table_and_the_others_read_it_as_plain_text(game, anna, bert):
    text = "Ahoy <b>mates</b>!\nSee https://example.com/x?a=1&b=2"
    response = post(bert, "talk:post", game, {"text": text})
    assert response.redirect_chain[-1][0] == table(game) + "#table-talk"
    assert told(response) == ["Your message is on the table."]
    assert Message.objects.get(game=game).text == text
    shown = page(anna, game)
    assert 'id="table-talk"' in shown
    assert "Ahoy &lt;b&gt;mates&lt;/b&gt;!" in shown and "<b>mates" not in shown
    # URLs stay text: nobody vouches for a link a player wrote.
    assert "https://example.com/x?a=1&amp;b=2" in shown
    assert 'href="https://example.com' not in shown
    # The write form: a labelled textarea of at most 1,000 characters.
    assert 'maxlength="1000"' in shown and '<label for="talk-text">' in shown


def test_a_message_under_a_minute_old_was_written_just_now(game, anna, bert, time_machine):
    time_machine.move_to("2030-05-01 12:00:00+00:00", tick=False)
    post_message(game, bert, "Fresh")
    assert "just now" in page(anna, game) and "0\xa0minutes ago" not in page(anna, game)
    time_machine.shift(90)
    assert "1\xa0minute ago" in page(anna, game) and "just now" not in page(anna, game)
    bert.language = "de"
    bert.save()
    post_message(game, anna, "Frisch")
    assert "gerade eben" in page(bert, game)


def test_the_newest_messages_show_and_the_older_ones_unfold(game, anna, bert):
    for number in range(7):
        post_message(game, bert, f"message number {number}")
    shown = page(anna, game)
    folded = shown.index('class="talk__older"')
    assert shown.index("message number 6") < shown.index("message number 2") < folded
    assert folded < shown.index("message number 1") < shown.index("message number 0")
    assert "2 earlier messages" in shown


def test_an_over_long_message_is_refused_with_a_sentence(game, bert):
    response = post(bert, "talk:post", game, {"text": "x" * 1001})
    assert told(response) == ["A message can be at most 1000 characters; this one has 1001."]
    assert not Message.objects.exists()


def test_someone_not_at_the_table_cannot_write(game, outsider, moderator):
    assert post(outsider, "talk:post", game, {"text": "hello"}).status_code == 404
    response = post(moderator, "talk:post", game, {"text": "hello"})
    assert told(response) == ["Only the game's players can write at its table."]
    assert not Message.objects.exists()
    assert 'name="text"' not in page(moderator, game)  # staff read, they do not write


def test_a_player_reports_another_players_message(game, anna, bert):
    message = post_message(game, bert, "something rude")
    shown = page(anna, game)
    report_url = reverse("talk:report", args=[game.id, message.pk])
    assert report_url in shown
    assert report_url not in page(bert, game)  # not one's own message
    response = post(anna, "talk:report", game, {"reason": "rude"}, message_id=message.pk)
    assert told(response) == ["Thank you: the moderators will look at the message you reported."]
    report = MessageReport.objects.get()
    assert (report.message, report.reporter, report.reason) == (message, anna, "rude")


def test_a_report_reason_with_control_characters_is_refused_with_a_sentence(game, anna, bert):
    message = post_message(game, bert, "something rude")
    response = post(anna, "talk:report", game, {"reason": "rude\u001b[2J"}, message_id=message.pk)
    assert response.status_code == 200  # back at the table, told why
    assert told(response) == ["The reason cannot contain control or invisible characters."]
    assert not MessageReport.objects.exists()


def test_a_report_of_a_message_at_another_table_is_not_found(game, anna, bert, outsider):
    other = start_game([bert, outsider])
    message = post_message(other, bert, "elsewhere")
    assert post(anna, "talk:report", game, message_id=message.pk).status_code == 404
    assert post(anna, "talk:report", other, message_id=message.pk).status_code == 404
    assert not MessageReport.objects.exists()


def test_a_hidden_message_shows_only_that_a_moderator_hid_it(game, anna, bert, moderator):
    message = post_message(game, bert, "the secret insult")
    do_hide_message(moderator, message.pk, "abusive")
    for reader in (anna, bert, moderator):
        shown = page(reader, game)
        assert "the secret insult" not in shown
        assert "A moderator hid this message." in shown


def test_the_talk_panel_speaks_german(game, anna, bert):
    post_message(game, bert, "Hallo")
    client = signed_in(anna)
    shown = client.get(table(game), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Am Tisch gesagt, neueste zuerst" in shown and "Senden" in shown


# --- The host's chair ------------------------------------------------------------------------


def test_the_host_pauses_with_a_reason_and_everyone_sees_the_banner(game, anna, bert):
    assert "data-host-chair" in page(anna, game)
    assert "data-host-chair" not in page(bert, game)  # the chair is the host's alone
    response = post(anna, "games:pause", game, {"reason": "Holidays <3"})
    assert told(response) == ["The game is paused: its clock stands still."]
    game = fresh(game)
    assert game.is_paused and game.deadline is None
    shown = page(bert, game)
    assert "Paused by the host until " in shown and ": Holidays &lt;3" in shown
    assert "the clock is paused" in shown  # the turn line has no deadline to tell
    assert "Resume the game" in page(anna, game)


def test_only_the_host_may_pause(game, bert):
    response = post(bert, "games:pause", game)
    assert told(response) == ["Only the game's host may do that."]
    assert not fresh(game).is_paused


def test_the_host_resumes_the_paused_game(game, anna):
    actions.do_pause_game(game.id, anna, "")
    response = post(anna, "games:resume", game)
    assert told(response) == ["The game runs again: its clock is back on."]
    game = fresh(game)
    assert not game.is_paused and game.deadline is not None
    assert "Paused by the host" not in page(anna, game)


def test_the_host_extends_the_turn_once(game, anna):
    before = fresh(game).deadline
    response = post(anna, "games:extend", game, {"hours": "24"})
    assert told(response) == ["The turn has 24 more hours."]
    game = fresh(game)
    assert (game.deadline - before).total_seconds() == 24 * 3600
    shown = page(anna, game)
    assert 'name="hours"' not in shown and "data-extended" in shown  # used for this turn
    second = post(anna, "games:extend", game, {"hours": "2"})
    assert told(second) == ["You have extended this turn already: once per turn."]
    assert fresh(game).deadline == game.deadline


def test_the_host_hands_an_absent_players_seat_to_a_bot(game, anna, bert, carla):
    shown = page(anna, game)
    assert "Hand Bert's seat to a bot" in shown and "Hand Anna" not in shown
    response = post(anna, "games:hand-to-bot", game, {"seat": "1", "version": "0"})
    assert told(response) == ["A careful bot now plays Bert's seat; they can take it back."]
    row = Seat.objects.get(game=game, seat=1)
    assert row.bot == "careful" and row.user == bert
    change = SeatChange.objects.get(game=game, seat=1)
    assert (change.why, change.actor, change.actor_user) == ("host", "player", anna)
    email = OutboundEmail.objects.get(template="stand_in", to=bert.email).rendered()
    assert "the host has let a careful bot play your seat" in email.body_text
    assert "moderator" not in email.body_text
    assert "Take my seat back" in page(bert, game)  # the player takes it back as always


def test_handing_a_seat_a_bot_plays_already_is_a_state_refusal(game, anna, carla):
    """The seat's state decides it (docs/api.md "Errors"): a conflict, not bad input."""
    from core.errors import ServiceError
    from games.actions.together import do_host_stand_in

    do_host_stand_in(game.id, anna, 2, 0)
    with pytest.raises(ServiceError) as refused:
        do_host_stand_in(game.id, anna, 2, 0)
    assert refused.value.code == "conflict"
    assert str(refused.value.detail) == "A bot plays that seat already."


def test_only_the_host_hands_seats_to_bots(game, bert):
    response = post(bert, "games:hand-to-bot", game, {"seat": "2", "version": "0"})
    assert told(response) == ["Only the game's host may do that."]
    assert not Seat.objects.filter(game=game).exclude(bot="").exists()


# --- Resigning -------------------------------------------------------------------------------


def test_a_player_resigns_after_confirming_and_the_seat_shows_resigned(duel, anna, bert):
    shown = page(bert, duel)
    assert "Resign from this game" in shown and "Yes, resign" in shown
    response = post(bert, "games:resign", duel, {"version": "0"})
    assert told(response) == ["You have resigned, and the game is over."]
    game = fresh(duel)
    assert game.status == GameStatus.FINISHED
    final = page(anna, game)
    assert "Bert resigned and could not win." in final  # the final table
    assert '<span class="badge">resigned</span>' in final  # the players list
    assert "Yes, resign" not in final
    my_games = signed_in(anna).get(reverse("games:my-games")).content.decode()
    assert "Bert resigned." in my_games


def test_a_stale_resignation_changes_nothing(duel, anna, bert):
    actions.do_play_move(duel.id, anna, 0, {"action": "reveal"})
    response = post(bert, "games:resign", duel, {"version": "0"})
    assert told(response) == [
        "The table changed before your resignation arrived, so you have not resigned. "
        "Look at the table as it is now and decide again."
    ]
    assert fresh(duel).status == GameStatus.ACTIVE
    assert not Seat.objects.filter(game=duel, resigned=True).exists()


def test_a_resignation_in_a_three_player_game_hands_the_seat_to_a_bot(game, anna):
    response = post(anna, "games:resign", game, {"version": "0"})
    assert told(response) == ["You have resigned: a bot plays your seat to the end."]
    shown = page(anna, fresh(game))
    assert "Anna · resigned" in shown and "Anna resigned; a careful bot plays on." in shown
    assert "Yes, resign" not in shown and "Take my seat back" not in shown


# --- Play again ------------------------------------------------------------------------------


def test_play_again_opens_the_new_game_and_the_same_one_when_asked_again(duel, anna, bert):
    actions.do_resign(duel.id, bert, 0)
    assert reverse("games:rematch", args=[duel.id]) in page(anna, fresh(duel))
    response = post(bert, "games:rematch", duel)
    new = fresh(duel).rematch
    assert new is not None and new.host == bert
    assert response.redirect_chain[-1][0] == table(new)
    assert told(response) == ["A new game with the same players: they are invited by email."]
    again = post(anna, "games:rematch", duel)
    assert again.redirect_chain[-1][0] == table(new)
    assert Game.objects.count() == 2
    # Once the rematch exists, My games and the old table link to it: no "Play again".
    my_games = signed_in(anna).get(reverse("games:my-games")).content.decode()
    assert reverse("games:rematch", args=[duel.id]) not in my_games
    assert f'<a href="{table(new)}" data-rematch>Go to the rematch</a>' in my_games
    old_table = page(anna, fresh(duel))
    assert reverse("games:rematch", args=[duel.id]) not in old_table
    assert f'<a href="{table(new)}" data-rematch>Go to the rematch</a>' in old_table


def test_play_again_is_refused_while_the_game_runs(duel, anna):
    assert reverse("games:rematch", args=[duel.id]) not in page(anna, duel)
    response = post(anna, "games:rematch", duel)
    assert told(response) == ["This game is active; a rematch follows a game that has ended."]
    assert fresh(duel).rematch is None


def test_the_talk_panel_costs_one_query_however_long_the_talk(game, anna, bert):
    def queries() -> int:
        client = signed_in(anna)
        client.get(table(game))
        with CaptureQueriesContext(connection) as captured:
            client.get(table(game))
        return len(captured)

    quiet = queries()
    for number in range(8):
        post_message(game, bert if number % 2 else anna, f"line {number}")
    assert queries() == quiet


# --- A game email's link (accounts.game_scope) -----------------------------------------------


def test_a_game_link_session_talks_pauses_and_resigns_but_signs_in_to_play_again(
    settings, duel, anna, bert
):
    settings.SITE_URL = "http://127.0.0.1:8000"
    client = Client()
    link = links.game_entry_url(duel, anna).removeprefix(settings.SITE_URL)
    assert client.post(link).status_code == 302  # signed in for this game only
    client.post(reverse("talk:post", args=[duel.id]), {"text": "hi"})
    client.post(reverse("games:pause", args=[duel.id]))
    assert fresh(duel).is_paused
    client.post(reverse("games:resume", args=[duel.id]))
    assert not fresh(duel).is_paused
    client.post(reverse("games:resign", args=[duel.id]), {"version": "0"})
    assert Message.objects.get().author == anna
    assert fresh(duel).status == GameStatus.FINISHED
    asked = client.post(reverse("games:rematch", args=[duel.id]))
    assert asked.status_code == 302 and asked["Location"].startswith("/accounts/login/")
    assert fresh(duel).rematch is None


def test_the_panel_is_never_given_a_hidden_messages_text(game, bert, moderator):
    message = post_message(game, bert, "the secret insult")
    do_hide_message(moderator, message.pk, "abusive")
    panel = table_talk({"csrf_token": "t"}, game, 0)
    assert panel["newest"][0]["hidden"] and panel["newest"][0]["text"] == ""


# --- The chair after the host leaves; a rematch after a deletion -------------------------------


def test_a_host_who_resigned_has_no_chair_and_the_next_player_has_it(anna, bert, carla, game):
    post(anna, "games:resign", game, {"version": "0"})
    assert "data-host-chair" not in page(anna, game)
    words = "You have resigned from this game, so the host's chair is not yours: Bert holds it."
    assert told(post(anna, "games:pause", game, {"reason": "mine"})) == [words]
    assert told(post(anna, "games:extend", game, {"hours": "24"})) == [words]
    assert told(post(anna, "games:hand-to-bot", game, {"seat": "2", "version": "1"})) == [words]
    game = fresh(game)
    assert game.paused_at is None and game.host_extended_turn is None
    assert not Seat.objects.get(game=game, seat=2).bot
    shown = page(bert, game)
    assert "data-host-chair" in shown and "The host has left this game" in shown
    assert "data-host-chair" not in page(carla, game)


def test_a_rematch_a_deletion_cancelled_says_who_deleted_their_account(anna, bert, carla, game):
    for version, user in enumerate([anna, bert, carla]):
        actions.do_resign(game.id, user, version)
    new, _created = actions.do_rematch(game.id, anna)
    erasure.erase_user(bert.pk)
    new = fresh(new)
    assert new.status == GameStatus.CANCELLED and new.end_reason == "erased"
    shown = page(carla, new)
    assert "deleted their account" in shown and "declined" not in shown
    cancelled = OutboundEmail.objects.get(template="game_cancelled", to=carla.email).rendered()
    assert "A player has deleted their account." in cancelled.body_text


def test_a_rematch_refused_after_a_deletion_says_so_without_an_address(anna, bert, duel):
    actions.do_resign(duel.id, bert, 0)
    erasure.erase_user(bert.pk)
    response = post(anna, "games:rematch", duel)
    assert told(response) == [
        "A player of this game has deleted their account, and a game of Piratz needs 2 to 4 "
        "players, so there can be no rematch."
    ]
    assert "@invalid" not in response.content.decode()
    assert Game.objects.count() == 1
