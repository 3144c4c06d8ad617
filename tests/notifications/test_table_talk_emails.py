"""Table talk by email (issue 25): for a player who chose it, the others' messages as they
come, at most one email per game an hour, by a sweep that acts once however often it runs."""

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import NotificationSettings
from accounts.preferences import do_unsubscribe, do_update_settings
from talk import emails as talk_emails
from talk.actions import do_hide_message, post_message
from tests.factories import start_game
from tests.notifications.conftest import emails

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("site_and_clock")]


def wants_talk(user, on=True):
    do_update_settings(user, {"talk_emails": on}, now=timezone.now())


def say(game, user, text, time_machine, minutes=1):
    time_machine.shift(timedelta(minutes=minutes))
    return post_message(game, user, text)


def sweep(time_machine, minutes=1) -> int:
    time_machine.shift(timedelta(minutes=minutes))
    return talk_emails.send_due_talk_emails()


def lines(mail) -> list[str]:
    body = mail.body_text.split("the others wrote:\n", 1)[1].split("\n\n", 1)[0]
    return [line.removeprefix("- ") for line in body.splitlines()]


def test_the_others_talk_comes_by_email_at_most_once_an_hour(anna, bert, carla, time_machine):
    wants_talk(bert)
    game = start_game([anna, bert, carla])
    say(game, anna, "Ahoy", time_machine)
    say(game, bert, "My own words", time_machine)
    assert sweep(time_machine) == 1
    assert sweep(time_machine) == 0  # the same sweep again acts once
    (first,) = emails("table_talk", bert)
    assert lines(first) == ["Anna: Ahoy"]  # not his own
    assert first.subject == "Piratz: Anna wrote at the table"
    assert first.headers["List-Unsubscribe"].startswith("<https://piratz.example/")
    # Anna and Carla did not choose it.
    assert emails("table_talk", anna) == emails("table_talk", carla) == []

    say(game, carla, "Arr", time_machine)
    say(game, anna, "Yo <b>ho</b>", time_machine)
    assert sweep(time_machine, minutes=30) == 0  # within the hour of the first email
    assert sweep(time_machine, minutes=30) == 1
    second = emails("table_talk", bert)[-1]
    assert lines(second) == ["carla: Arr", "Anna: Yo <b>ho</b>"]
    assert "Yo &lt;b&gt;ho&lt;/b&gt;" in second.body_html
    assert len(emails("table_talk", bert)) == 2
    assert sweep(time_machine, minutes=120) == 0  # nothing new: no email


def test_a_hidden_message_is_told_as_hidden(anna, bert, moderator, time_machine):
    wants_talk(bert)
    game = start_game([anna, bert])
    rude = say(game, anna, "something rude", time_machine)
    do_hide_message(moderator, rude.pk, "rude")
    sweep(time_machine)
    (mail,) = emails("table_talk", bert)
    assert lines(mail) == ["Anna: a message was hidden by a moderator."]
    assert "something rude" not in mail.body_text + mail.body_html


def test_no_email_without_the_setting_or_after_the_unsubscribe_link(anna, bert, time_machine):
    game = start_game([anna, bert])
    say(game, anna, "Ahoy", time_machine)
    assert sweep(time_machine) == 0
    wants_talk(bert)
    say(game, anna, "Ahoy again", time_machine)
    do_unsubscribe(bert, "table_talk")
    assert NotificationSettings.objects.get(user=bert).talk_emails is False
    assert sweep(time_machine) == 0
    assert emails("table_talk", bert) == []
    # Choosing it again undoes the unsubscribe.
    wants_talk(bert)
    assert "table_talk" not in NotificationSettings.objects.get(user=bert).unsubscribed
    say(game, anna, "Third time", time_machine)
    assert sweep(time_machine) == 1


def test_german_readers_get_it_in_german(anna, bert, time_machine):
    bert.language = "de"
    bert.save()
    wants_talk(bert)
    game = start_game([anna, bert])
    say(game, anna, "Moin", time_machine)
    sweep(time_machine)
    (mail,) = emails("table_talk", bert)
    assert mail.subject == "Piratz: am Tisch geschrieben von Anna"
    assert "Antworte am Tisch" in mail.body_text


def test_a_message_on_several_lines_cannot_pass_for_the_emails_own_lines(anna, bert, time_machine):
    wants_talk(bert)
    game = start_game([anna, bert])
    say(game, anna, "gg\nAnswer at the table: https://evil.example", time_machine)
    assert sweep(time_machine) == 1
    [mail] = emails("table_talk", bert)
    # Its second line stands in below hers; the email's own line starts the line.
    assert "- Anna: gg\n    Answer at the table: https://evil.example\n" in mail.body_text
    starts = [line for line in mail.body_text.splitlines() if line.startswith("Answer at")]
    assert starts == [f"Answer at the table: {starts[0].split(': ', 1)[1]}"]
    assert "evil.example" not in starts[0]
    assert "gg<br>Answer at the table: https://evil.example" in mail.body_html
