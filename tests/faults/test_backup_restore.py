"""Backup and restore: a dump of a database with games in every state, restored, plays on.

The live PostgreSQL test database gets games in every state (invited, invited and expired,
active with a due deadline, with a due reminder, paused past its longest pause, active and
not due, finished, aborted, cancelled), emails sent and emails still pending (one not yet
due), webhook posts delivered and pending. ``bin/backup`` dumps it (``pg_dump -Fc``),
``bin/restore`` loads the dump into a fresh database and migrates it, and production
processes (``manage.py shell`` with ``piratz_site.settings``, the backed-up ``SECRET_KEY``)
run every sweep on the restored database, twice, as beat would, sending over SMTP to a
sink and posting to a receiver on 127.0.0.1. Then: every pending due email is sent
exactly once, the one not due is not, none sent before the dump goes again; every due
deadline, reminder, expiry and pause end is acted on once; every pending webhook post is
made once, none made before; and a move can be played in every active game.
"""

import json
import shutil
import subprocess
import threading
import uuid
from collections import Counter
from datetime import timedelta
from email import message_from_bytes, policy
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import psycopg
import pytest
from django.db import connection
from django.utils import timezone

from games import actions
from games.models import Game
from notifications.models import OutboundEmail
from tests.factories import play_to_the_end, reveal_or_timeout, start_game
from tests.faults.conftest import require
from tests.processes import ROOT, SmtpSink, service_env
from webhooks import signing
from webhooks.actions import do_add_webhook
from webhooks.models import WebhookDelivery

pytestmark = pytest.mark.slow

Status = OutboundEmail.Status
AGO = timedelta(minutes=1)

# Run in the restored database by a production process: every sweep beat sends, as the
# task runs it, then what each did.
SWEEPS = """
import json
from games import tasks as games
from notifications import tasks as notifications
from webhooks import tasks as webhooks
done = {
    "cancelled": games.cancel_expired_invitations(),
    "timeouts": games.play_due_timeouts(),
    "reminders": games.send_due_reminders(),
    "digests": games.send_due_digests(),
    "resumed": games.resume_due_pauses(),
}
done["emails"] = notifications.send_due_emails()
done["webhooks"] = webhooks.send_due_webhook_deliveries()
print(json.dumps(done))
"""

# A move in every active game, by the player to move, and the open invitation accepted.
PLAY_ON = """
import json
from accounts.models import User
from games import actions
from games.models import Game
from tests.factories import reveal_or_timeout
played = {}
for game in Game.objects.filter(status="active"):
    seat = game.seats.select_related("user").get(seat=game.current_seat)
    moved = actions.do_play_move(game.id, seat.user, game.version, reveal_or_timeout(game))
    played[str(game.id)] = [game.version, moved.version]
carla = User.objects.get(email="carla@example.com")
accepted = actions.do_accept_invitation("INVITED_ID", carla)
print(json.dumps({"played": played, "accepted": accepted.status}))
"""


class Receiver:
    """Webhook posts on 127.0.0.1: the ``X-Piratz-Delivery`` id, signature and body of each."""

    def __init__(self):
        posts = self.posts = []

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                posts.append((int(self.headers["X-Piratz-Delivery"]), dict(self.headers), body))
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"

    def ids(self) -> list[int]:
        return [post[0] for post in self.posts]

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def receiver():
    the_receiver = Receiver()
    yield the_receiver
    the_receiver.stop()


@pytest.fixture
def sink():
    the_sink = SmtpSink().start()
    yield the_sink
    the_sink.stop()


@pytest.fixture
def restored_database(live_postgres):
    """The name of a database that does not exist yet; dropped at the end if created."""
    for tool in ("pg_dump", "pg_restore", "psql"):
        require(shutil.which(tool) is not None, f"{tool} is needed (PostgreSQL's client)")
    name = f"{connection.settings_dict['NAME']}_restored_{uuid.uuid4().hex[:8]}"
    yield name
    with connection.cursor() as cursor:
        cursor.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def url_of(name: str) -> str:
    db = connection.settings_dict
    return (
        f"postgres://{db['USER']}:{db['PASSWORD'] or ''}@{db['HOST'] or '127.0.0.1'}"
        f":{db['PORT'] or 5432}/{name}"
    )


def run(env: dict, *command: str) -> str:
    completed = subprocess.run(
        list(command), cwd=ROOT, env=env, capture_output=True, text=True, timeout=300, check=False
    )
    assert completed.returncode == 0, (command, completed.stdout[-2000:], completed.stderr[-3000:])
    return completed.stdout


def shell(env: dict, code: str) -> dict:
    """Run ``code`` in ``manage.py shell`` (production settings, ``env``); its JSON line."""
    out = run(env, str(ROOT / ".venv/bin/python"), "manage.py", "shell", "-c", code)
    return json.loads(out.strip().splitlines()[-1])


def games_in_every_state(anna, bert, carla, moderator, receiver, settings) -> dict:
    """Committed games in every state, emails and webhook posts sent and pending."""
    now = timezone.now()
    games = {}
    # Done before the backup: sent at once (the test settings send on commit).
    games["finished"] = play_to_the_end(start_game([anna, bert]), [anna, bert])
    aborted = start_game([anna, bert])
    games["aborted"] = actions.do_abort_game(aborted.id, moderator, reason="Backup test.")
    cancelled = actions.do_create_game(anna, [anna.email, bert.email])
    games["cancelled"] = actions.do_decline_invitation(cancelled.id, bert)
    hooked = start_game([anna, bert])
    _, secret = do_add_webhook(hooked.id, anna, kind="json", url=receiver.url)
    actions.do_play_move(hooked.id, anna, 0, reveal_or_timeout(hooked))
    assert len(receiver.posts) == 1

    # From here on nothing is sent before the backup: the emails and posts stay pending
    # (as when the broker or SMTP was down, or the backup ran between commit and send).
    settings.OUTBOX_EAGER_SEND_ON_COMMIT = False
    hooked = Game.objects.get(id=hooked.id)
    seat = hooked.seats.select_related("user").get(seat=hooked.current_seat)
    actions.do_play_move(hooked.id, seat.user, hooked.version, reveal_or_timeout(hooked))
    Game.objects.filter(id=hooked.id).update(deadline=now - AGO)  # its turn timed out
    games["timed_out"] = hooked
    games["reminded"] = start_game([anna, bert])
    # An hour of its turn left: the default reminder (2 hours before) was due an hour ago.
    Game.objects.filter(id=games["reminded"].id).update(
        deadline=now + timedelta(hours=1), next_reminder_at=now - timedelta(hours=1)
    )
    paused = start_game([anna, bert])
    actions.do_pause_game(paused.id, anna, "Backup test.")
    Game.objects.filter(id=paused.id).update(paused_until=now - AGO)  # its pause is over
    games["paused"] = paused
    games["not_due"] = start_game([anna, bert])
    games["expired"] = actions.do_create_game(anna, [anna.email, bert.email])
    Game.objects.filter(id=games["expired"].id).update(invitation_expires_at=now - AGO)
    games["invited"] = actions.do_create_game(anna, [anna.email, carla.email])
    # One pending email not due yet (a retry's backoff): it must wait after the restore too.
    later = OutboundEmail.objects.filter(status=Status.PENDING, to=carla.email).get()
    OutboundEmail.objects.filter(id=later.id).update(send_after=now + timedelta(hours=1))
    return {"games": games, "secret": secret, "later": later.id}


def outbox_rows(url: str) -> dict[int, tuple]:
    with psycopg.connect(url) as db:
        rows = db.execute(
            'SELECT id, status, sent_at, "to", subject FROM notifications_outboundemail'
        ).fetchall()
    return {row[0]: row[1:] for row in rows}


def test_a_restored_backup_plays_on_and_sends_each_email_and_post_once(
    restored_database, anna, bert, carla, moderator, receiver, sink, settings, tmp_path
):
    settings.WEBHOOKS_ALLOW_INSECURE_LOCALHOST = True
    built = games_in_every_state(anna, bert, carla, moderator, receiver, settings)
    games = built["games"]
    now = timezone.now()
    sent_before = {row.id: row.sent_at for row in OutboundEmail.objects.filter(status=Status.SENT)}
    pending_due = set(
        OutboundEmail.objects.filter(status=Status.PENDING, send_after__lte=now).values_list(
            "id", flat=True
        )
    )
    posts_pending = set(
        WebhookDelivery.objects.filter(status="pending").values_list("id", flat=True)
    )
    posts_before = receiver.ids()
    last_post_id = WebhookDelivery.objects.order_by("-id").values_list("id", flat=True).first()
    assert sent_before and len(pending_due) >= 5 and len(posts_pending) == 1
    status = {name: game.status for name, game in games.items()}
    assert status == {
        "finished": "finished", "aborted": "aborted", "cancelled": "cancelled",
        "timed_out": "active", "reminded": "active", "paused": "active", "not_due": "active",
        "expired": "invited", "invited": "invited",
    }  # fmt: skip

    # Backup and restore, as docs/operating.md "Backups and restore" says.
    env = service_env(
        broker_url="filesystem://",  # messages nobody consumes: only the sweeps send
        smtp_port=sink.port,
        CELERY_BROKER_DIR=str(tmp_path / "celery"),
        WEBHOOKS_ALLOW_INSECURE_LOCALHOST="true",
        PYTHONWARNINGS="ignore",
    )
    dump = tmp_path / "piratz.dump"
    run(env, str(ROOT / "bin/backup"), str(dump))
    with connection.cursor() as cursor:
        cursor.execute(f'CREATE DATABASE "{restored_database}"')
    # The same SECRET_KEY as the backed-up service: the webhook's signing secret depends on it.
    env.update(DATABASE_URL=url_of(restored_database), SECRET_KEY=settings.SECRET_KEY)
    run(env, str(ROOT / "bin/restore"), str(dump))
    refused = subprocess.run(
        [str(ROOT / "bin/restore"), str(dump)], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert refused.returncode == 2, "a database with tables is never restored over"

    first = shell(env, SWEEPS)
    second = shell(env, SWEEPS)

    print(f"backup-restore: sweeps {first}, again {second}; {sink.count()} emails delivered")
    assert {key: first[key] for key in ("cancelled", "timeouts", "reminders", "resumed")} == {
        "cancelled": 1, "timeouts": 1, "reminders": 1, "resumed": 1,
    }  # fmt: skip
    assert first["emails"]["sent"] >= len(pending_due) and first["webhooks"]["sent"] >= 2
    assert second["cancelled"] == second["timeouts"] == second["reminders"] == 0
    assert second["resumed"] == second["emails"]["sent"] == second["webhooks"]["sent"] == 0

    # Emails: each pending due one sent once, the one not due kept, none sent twice.
    rows = outbox_rows(env["DATABASE_URL"])
    sent_now = {pk for pk, row in rows.items() if row[0] == "sent" and pk not in sent_before}
    assert pending_due <= sent_now
    assert rows[built["later"]][0] == "pending"
    assert {pk: rows[pk][1] for pk in sent_before} == sent_before  # untouched
    delivered = [message_from_bytes(m.content, policy=policy.default) for m in sink.messages]
    assert Counter((str(m["To"]), " ".join(str(m["Subject"]).split())) for m in delivered) == (
        Counter((rows[pk][2], " ".join(rows[pk][3].split())) for pk in sent_now)
    )
    assert len(delivered) == len(sent_now)

    # Webhook posts: the pending one and the timeout's, once each; none from before again.
    posted = receiver.ids()[len(posts_before) :]
    assert len(posted) == len(set(posted)) == first["webhooks"]["sent"]
    assert posts_pending <= set(posted)
    assert all(pk > last_post_id for pk in set(posted) - posts_pending)
    _, headers, body = receiver.posts[-1]
    timestamp = int(headers[signing.SIGNATURE_HEADER].split(",")[0].removeprefix("t="))
    assert signing.verify(built["secret"], headers[signing.SIGNATURE_HEADER], body, timestamp)

    # Play on: a move in every active game, and the open invitation accepted.
    after = shell(env, PLAY_ON.replace("INVITED_ID", str(games["invited"].id)))
    assert set(after["played"]) == {
        str(games[name].id) for name in ("timed_out", "reminded", "paused", "not_due")
    }
    assert all(new == old + 1 for old, new in after["played"].values())
    assert after["accepted"] == "active"
    with psycopg.connect(env["DATABASE_URL"]) as db:
        query = "SELECT status FROM games_game WHERE id = %s"
        [(expired,)] = db.execute(query, [games["expired"].id]).fetchall()
    assert expired == "cancelled"
