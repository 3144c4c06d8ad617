"""queue_email: rendering, storing in the caller's transaction, sending only after commit."""

import json

import pytest
from django.db import transaction
from django.template import TemplateDoesNotExist

import notifications.tasks
from games.catalogue import kinds
from notifications.models import OutboundEmail
from notifications.outbox import queue_email, sent_together

from .conftest import TURN_CONTEXT

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _site_url(settings):
    settings.SITE_URL = "https://piratz.example"


def test_subject_is_one_stripped_line(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks():
        email = queue_email("anna@example.com", "test_message", TURN_CONTEXT).rendered()
    assert email.subject == "Your turn in Skull <Bay> against Anna"


def test_plain_text_body_is_not_html_escaped_and_sees_site_url(
    django_capture_on_commit_callbacks,
):
    with django_capture_on_commit_callbacks():
        email = queue_email("anna@example.com", "test_message", TURN_CONTEXT).rendered()
    assert email.body_text == (
        "Hello Tom & Jerry,\n\nIt is your turn in Skull <Bay>: https://piratz.example/games/0b5e/\n"
    )


def test_html_body_is_escaped_and_wrapped_in_the_base_layout(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks():
        email = queue_email("anna@example.com", "test_message", TURN_CONTEXT).rendered()
    assert "<p>Hello Tom &amp; Jerry,</p>" in email.body_html
    assert '<a href="https://piratz.example/games/0b5e/">' in email.body_html
    assert "Skull &lt;Bay&gt;" in email.body_html
    assert "Piratz by mail: board games, played slowly." in email.body_html  # from base.html


def test_row_records_template_topic_and_waits_as_pending(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks():
        email = queue_email("anna@example.com", "test_message", TURN_CONTEXT, topic="game:0b5e")
    stored = OutboundEmail.objects.get()
    assert stored.id == email.id
    assert (stored.to, stored.template, stored.topic) == (
        "anna@example.com",
        "test_message",
        "game:0b5e",
    )
    assert (stored.status, stored.attempts, stored.sent_at) == ("pending", 0, None)


def test_very_long_subject_is_cut_to_fit(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks():
        email = queue_email(
            "anna@example.com", "test_message", {**TURN_CONTEXT, "game_name": "x" * 400}
        ).rendered()
    assert len(email.subject) == 255
    assert email.subject.endswith("…")


def test_missing_template_fails_at_the_caller_and_stores_nothing():
    with pytest.raises(TemplateDoesNotExist):
        queue_email("anna@example.com", "no_such_email", {})
    assert not OutboundEmail.objects.exists()


def test_email_is_sent_once_after_commit_and_not_before(
    mailoutbox, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        with transaction.atomic():
            email = queue_email("anna@example.com", "test_message", TURN_CONTEXT)
        assert mailoutbox == []  # committed, but on_commit callbacks have not run yet

    assert len(callbacks) == 1
    assert len(mailoutbox) == 1
    message = mailoutbox[0]
    assert message.to == ["anna@example.com"]
    assert message.subject == "Your turn in Skull <Bay> against Anna"
    assert message.body == email.rendered().body_text
    assert message.alternatives[0].content == email.rendered().body_html
    assert message.alternatives[0].mimetype == "text/html"
    assert message.extra_headers["Auto-Submitted"] == "auto-generated"
    email.refresh_from_db()
    assert (email.status, email.attempts) == ("sent", 1)
    assert email.sent_at is not None


@pytest.fixture
def published(monkeypatch):
    """The id lists of the ``send_emails`` tasks published, each run as it is published."""
    tasks = []
    real_delay = notifications.tasks.send_emails.delay  # before it is patched below

    class Recording:
        @staticmethod
        def delay(email_ids):
            tasks.append(list(email_ids))
            return real_delay(email_ids)

    monkeypatch.setattr(notifications.tasks.send_emails, "delay", Recording.delay)
    return tasks


def test_each_call_outside_a_block_is_sent_by_its_own_task(
    published, mailoutbox, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        first = queue_email("anna@example.com", "test_message", TURN_CONTEXT)
        second = queue_email("bert@example.com", "test_message", TURN_CONTEXT)

    assert published == [[first.id], [second.id]]
    assert len(mailoutbox) == 2


def test_emails_queued_together_are_sent_by_one_task_after_commit(
    published, mailoutbox, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        with transaction.atomic(), sent_together():
            first = queue_email("anna@example.com", "test_message", TURN_CONTEXT)
            with sent_together():  # an inner block adds to the outer one's task
                second = queue_email("bert@example.com", "test_message", TURN_CONTEXT)
            third = queue_email("carl@example.com", "test_message", TURN_CONTEXT)
        assert published == []  # committed, but on_commit callbacks have not run yet

    assert len(callbacks) == 1
    assert published == [[first.id, second.id, third.id]]
    assert sorted(message.to[0] for message in mailoutbox) == [
        "anna@example.com",
        "bert@example.com",
        "carl@example.com",
    ]
    # The block is over: the next email has its own task again.
    with django_capture_on_commit_callbacks(execute=True):
        fourth = queue_email("dora@example.com", "test_message", TURN_CONTEXT)
    assert published[-1] == [fourth.id]


def _queue_together_then_reject_the_move():
    with transaction.atomic(), sent_together():
        queue_email("anna@example.com", "test_message", TURN_CONTEXT)
        raise GameMoveRejected


def test_emails_queued_together_in_a_rolled_back_transaction_publish_nothing(
    published, mailoutbox, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True), pytest.raises(GameMoveRejected):
        _queue_together_then_reject_the_move()

    assert published == []
    assert mailoutbox == []
    # Nothing of the rolled-back block is left over for the next transaction's task.
    with django_capture_on_commit_callbacks(execute=True):
        email = queue_email("bert@example.com", "test_message", TURN_CONTEXT)
    assert published == [[email.id]]


def test_a_task_naming_an_email_of_a_rolled_back_savepoint_skips_it(
    published, mailoutbox, django_capture_on_commit_callbacks
):
    with (
        django_capture_on_commit_callbacks(execute=True),
        transaction.atomic(),
        sent_together(),
    ):
        kept = queue_email("anna@example.com", "test_message", TURN_CONTEXT)
        with pytest.raises(GameMoveRejected):
            _queue_email_then_reject_the_move()  # a savepoint: the outer block goes on

    assert len(published) == 1 and kept.id in published[0]
    assert [message.to for message in mailoutbox] == [["anna@example.com"]]


def test_the_send_task_reports_each_outcome(mailoutbox):
    email = queue_email("anna@example.com", "test_message", TURN_CONTEXT)
    OutboundEmail.objects.filter(id=email.id).update(status="sent")
    other = queue_email("bert@example.com", "test_message", TURN_CONTEXT)

    assert notifications.tasks.send_emails.delay([email.id, other.id, 0]).get() == {
        "skipped": 2,
        "sent": 1,
    }
    assert [message.to for message in mailoutbox] == [["bert@example.com"]]


class GameMoveRejected(Exception):
    pass


def _queue_email_then_reject_the_move():
    with transaction.atomic():
        queue_email("anna@example.com", "test_message", TURN_CONTEXT)
        raise GameMoveRejected


def test_nothing_is_stored_or_sent_when_the_callers_transaction_rolls_back(
    mailoutbox, django_capture_on_commit_callbacks
):
    with (
        django_capture_on_commit_callbacks(execute=True) as callbacks,
        pytest.raises(GameMoveRejected),
    ):
        _queue_email_then_reject_the_move()

    assert callbacks == []
    assert mailoutbox == []
    assert not OutboundEmail.objects.exists()


def test_unreachable_broker_does_not_fail_the_callers_request(
    monkeypatch, mailoutbox, django_capture_on_commit_callbacks
):
    class BrokerDown:
        @staticmethod
        def delay(email_ids):
            raise ConnectionRefusedError("redis is down")

    monkeypatch.setattr(notifications.tasks.send_emails, "delay", BrokerDown.delay)
    with django_capture_on_commit_callbacks(execute=True):
        email = queue_email("anna@example.com", "test_message", TURN_CONTEXT)

    # Stays pending for the every-minute sweep.
    email.refresh_from_db()
    assert email.status == "pending"
    assert mailoutbox == []


# --- Rendered when sent: the row keeps what to render (notifications.rendering) -----------


def test_row_keeps_what_to_render_and_rendered_renders_the_email(
    django_capture_on_commit_callbacks,
):
    with django_capture_on_commit_callbacks():
        queue_email("anna@example.com", "test_message", TURN_CONTEXT, language="de")
    stored = OutboundEmail.objects.values("subject", "body_text", "context", "language").get()
    # Nothing rendered in the caller's transaction (the move holds its game's row lock).
    assert (stored["subject"], stored["body_text"]) == ("", "")
    assert (stored["context"], stored["language"]) == (TURN_CONTEXT, "de")
    email = OutboundEmail.objects.get()
    # Reading a field reads the row, nothing more: rendering is asked for by name.
    assert (email.subject, email.body_text, email.body_html) == ("", "", "")
    assert email.rendered() is email
    assert email.subject == "Your turn in Skull <Bay> against Anna"
    assert email.body_text.startswith("Hello Tom & Jerry,")
    email.save()  # the rendering goes with the instance, context too: rendered once more
    assert OutboundEmail.objects.get().rendered().body_text == email.body_text


def test_context_json_would_not_give_back_is_rendered_at_once(django_capture_on_commit_callbacks):
    opponents = ("Anna", "Bert")  # a tuple comes back from JSON as a list: not the same
    with django_capture_on_commit_callbacks():
        queue_email("anna@example.com", "test_message", {**TURN_CONTEXT, "others": opponents})
    stored = OutboundEmail.objects.values("subject", "context").get()
    assert stored == {"subject": "Your turn in Skull <Bay> against Anna", "context": None}


def test_sent_email_keeps_its_rendering_redacted_and_no_context(
    mailoutbox, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        queue_email("anna@example.com", "test_message", TURN_CONTEXT)
    assert len(mailoutbox) == 1
    stored = OutboundEmail.objects.values("status", "body_text", "context").get()
    assert stored == {"status": "sent", "body_text": mailoutbox[0].body, "context": None}


def test_context_values_json_lacks_come_back_as_they_were():
    from datetime import UTC, date, datetime

    from django.utils.safestring import SafeString, mark_safe
    from django.utils.translation import gettext_lazy

    from notifications.rendering import NotJsonSafe, context_from_json, context_to_json

    context = {
        "at": datetime(2030, 5, 1, 12, 30, tzinfo=UTC),
        "day": date(2030, 5, 2),
        "html": mark_safe("<b>bold</b>"),
        "word": gettext_lazy("Settings"),
        "nested": [{"n": 1, "x": 1.5, "ok": True, "none": None}],
    }
    stored = json.loads(json.dumps(context_to_json(context, "de")))  # as the database keeps it
    back = context_from_json(stored)
    assert back == {**context, "word": "Einstellungen"}
    assert isinstance(back["html"], SafeString)
    for unkept in ({"k": (1, 2)}, {"k": {1, 2}}, {1: "int key"}, {"$at": "looks tagged"}):
        with pytest.raises(NotJsonSafe):
            context_to_json(unkept)


@pytest.mark.parametrize("game_name", kinds())  # every game of GAME_PACKAGES
def test_every_email_of_a_whole_game_waits_for_the_worker_to_render_it(game_name):
    """The game emails' contexts keep in JSON, so none is rendered inside a move (if one
    stops keeping, it is rendered at once: correct, but the move pays for it again)."""
    from accounts.models import User
    from tests.factories import play_to_the_end, start_game

    users = [User.objects.create_user(f"{name}@example.com") for name in ("anna", "bert")]
    game = start_game(users, game=game_name)
    play_to_the_end(game, users)

    templates = set(OutboundEmail.objects.values_list("template", flat=True))
    assert {"your_turn", "game_over"} <= {name.rsplit("/", 1)[-1] for name in templates}
    rendered_at_once = OutboundEmail.objects.filter(context__isnull=True)
    assert list(rendered_at_once.values_list("template", flat=True)) == []


def test_email_whose_template_is_gone_when_sending_fails_and_keeps_nothing(
    settings, mailoutbox, django_capture_on_commit_callbacks
):
    from notifications.outbox import SendOutcome, send_pending_email

    with django_capture_on_commit_callbacks():
        email = queue_email("anna@example.com", "test_message", TURN_CONTEXT)
    engine = settings.TEMPLATES[0]
    settings.TEMPLATES = [{**engine, "DIRS": engine["DIRS"][1:]}]  # the test templates go
    settings.EMAIL_MAX_ATTEMPTS = 1

    assert send_pending_email(email.id) == SendOutcome.FAILED
    assert mailoutbox == []
    stored = OutboundEmail.objects.values("status", "last_error", "subject", "context").get()
    assert stored["status"] == "failed"
    assert stored["last_error"].startswith("TemplateDoesNotExist")
    assert (stored["subject"], stored["context"]) == ("", None)


def test_a_composed_context_is_built_when_read_in_the_recipients_language(monkeypatch):
    from django.utils import translation

    from notifications import rendering
    from notifications.rendering import Composed, composer

    monkeypatch.setattr(rendering, "_COMPOSERS", dict(rendering._COMPOSERS))  # this test's own

    calls = []

    @composer("tests.greeting")
    def greeting(*, name):
        calls.append(translation.get_language())
        return {**TURN_CONTEXT, "name": name}

    email = queue_email(
        "anna@example.com",
        "test_message",
        Composed("tests.greeting", {"name": "Ida"}),
        language="de",
    )
    assert calls == []  # nothing composed while queueing
    stored = OutboundEmail.objects.get(id=email.id)
    assert stored.context == {"$compose": "tests.greeting", "$arguments": {"name": "Ida"}}
    assert calls == []  # nor while reading the row
    assert stored.rendered().body_text.startswith("Hello Ida,")
    assert calls == ["de"]


def test_a_composed_context_needs_a_registered_composer_and_json_arguments():
    from notifications.rendering import Composed, NotJsonSafe

    with pytest.raises(NotJsonSafe):
        queue_email("anna@example.com", "test_message", Composed("tests.nobody", {}))
    with pytest.raises(NotJsonSafe):
        queue_email("anna@example.com", "test_message", Composed("games.your_turn", {"k": (1,)}))
    assert not OutboundEmail.objects.exists()
