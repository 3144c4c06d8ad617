"""The local mailbox (/dev/mailbox/): only with DEBUG; shows the emails as the file backend
wrote them, decoded, with links that work when clicked."""

import importlib
import ipaddress
import os
import re
import subprocess
from pathlib import Path

import pytest
from django.conf import settings
from django.test import override_settings
from django.urls import clear_url_caches

import piratz_site.urls
from accounts.login_links import request_login_link
from accounts.models import LoginLink
from notifications.dev_views import read_mailbox
from notifications.models import OutboundEmail

pytestmark = pytest.mark.django_db
URL = "/dev/mailbox/"


def _reload_urls():
    importlib.reload(piratz_site.urls)
    clear_url_caches()


@pytest.fixture
def debug_on(settings):
    """DEBUG on, and the URLs loaded again as a DEBUG start loads them."""
    settings.DEBUG = True
    _reload_urls()
    yield
    settings.DEBUG = False
    _reload_urls()


@pytest.fixture
def mail_files(tmp_path):
    """The default mailer writes files into a fresh directory, as under `make run`."""
    mailers = {
        "default": {
            "BACKEND": "django.core.mail.backends.filebased.EmailBackend",
            "OPTIONS": {"file_path": str(tmp_path)},
        }
    }
    with override_settings(MAILERS=mailers):
        yield tmp_path


def _send_login_link(email: str, django_capture_on_commit_callbacks) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        request_login_link(email, "/games/")


def test_the_page_lists_sent_emails_newest_first_with_working_links(
    debug_on, mail_files, client, django_capture_on_commit_callbacks
):
    _send_login_link("anna@example.com", django_capture_on_commit_callbacks)
    _send_login_link("bert@example.com", django_capture_on_commit_callbacks)
    # What the outbox keeps of a sent email has no usable link any more; the file has it.
    assert OutboundEmail.objects.filter(status="sent").count() == 2
    raw = b"".join(file.read_bytes() for file in mail_files.iterdir())
    assert b"=3D" in raw or b"=\n" in raw  # quoted-printable: copying from the file breaks

    response = client.get(URL)

    assert response.status_code == 200
    page = response.content.decode()
    assert page.index("bert@example.com") < page.index("anna@example.com")
    assert "login link" in page.lower() and "UTC" in page
    links = re.findall(r'<a href="(http://[^"]+/accounts/login/[^"]+/)"', page)
    assert len(links) == 2
    # The newest (Bert's) link, clicked: the confirmation page, then logged in.
    path = links[0].split("://", 1)[1].split("/", 1)[1]
    assert client.get("/" + path).status_code == 200
    assert client.post("/" + path).status_code == 302
    assert LoginLink.objects.get(email="bert@example.com").used_at is not None


def test_the_home_page_points_to_the_mailbox_with_debug_on(debug_on, client):
    assert 'href="/dev/mailbox/"' in client.get("/").content.decode()


def test_without_debug_there_is_no_mailbox_and_no_pointer_to_it(
    mail_files, client, django_capture_on_commit_callbacks
):
    _send_login_link("anna@example.com", django_capture_on_commit_callbacks)
    assert client.get(URL).status_code == 404
    assert "/dev/mailbox/" not in client.get("/").content.decode()


def test_the_view_refuses_without_debug_even_if_mounted(debug_on, settings, client):
    settings.DEBUG = False  # e.g. URLs loaded while DEBUG was on
    assert client.get(URL).status_code == 404


def test_another_mail_backend_is_explained(debug_on, client):
    mailers = {"default": {"BACKEND": "django.core.mail.backends.console.EmailBackend"}}
    with override_settings(MAILERS=mailers):
        page = client.get(URL).content.decode()
    assert "not written to files" in page and "console.EmailBackend" in page


def test_read_mailbox_decodes_several_emails_in_one_file(
    mail_files, django_capture_on_commit_callbacks
):
    from django.core.mail import mailers

    from notifications.outbox import build_message

    _send_login_link("anna@example.com", django_capture_on_commit_callbacks)
    rows = list(OutboundEmail.objects.all()) * 2
    mailers.default.send_messages([build_message(row) for row in rows])  # one file

    emails = read_mailbox(mail_files)
    assert len(emails) == 3
    assert all(email.to == "anna@example.com" for email in emails)
    assert "=3D" not in emails[-1].body and "/accounts/login/" in emails[-1].body


@pytest.mark.parametrize("newline", [b"\n", b"\r\n"])
def test_a_subject_folded_after_its_colon_reads_without_a_leading_space(tmp_path, newline):
    # RFC 5322 folding: a line break before whitespace continues the header. A long first
    # word (an encoded one, say) makes a mailer fold right after "Subject:".
    lines = [
        b"Subject:",
        b" =?utf-8?q?Rattenscharf=3A_Du_bist_dran_in_deinem_Spiel_mit_Anna?=",
        b"\tund Bert",
        b"To:",
        b" carla@example.com",
        b"Date: Sat, 28 Nov 2026 22:00:00 +0000",
        b"",
        b"body",
    ]
    (tmp_path / "1.log").write_bytes(newline.join(lines) + newline)

    [shown] = read_mailbox(tmp_path)

    assert shown.subject == "Rattenscharf: Du bist dran in deinem Spiel mit Anna\tund Bert"
    assert shown.to == "carla@example.com"


# --- Only for a browser on this machine (`make run ADDR=0.0.0.0:8000` serves the network) ---


@pytest.mark.parametrize("address", ["127.0.0.1", "127.0.1.1", "::1", "::ffff:127.0.0.1"])
def test_a_browser_on_this_machine_sees_the_mailbox(
    debug_on, mail_files, client, address, django_capture_on_commit_callbacks
):
    _send_login_link("anna@example.com", django_capture_on_commit_callbacks)
    response = client.get(URL, REMOTE_ADDR=address)
    assert response.status_code == 200
    assert "/accounts/login/" in response.content.decode()


@pytest.mark.parametrize("address", ["192.168.1.5", "10.0.0.7", "fe80::1", "::ffff:192.168.1.5"])
def test_a_browser_on_the_network_is_refused_with_a_sentence(
    debug_on, mail_files, client, address, django_capture_on_commit_callbacks
):
    _send_login_link("anna@example.com", django_capture_on_commit_callbacks)
    response = client.get(URL, REMOTE_ADDR=address)
    assert response.status_code == 403
    page = response.content.decode()
    assert "only to a browser on the machine that runs the service" in page
    assert "var/mail/" in page and "/accounts/login/" not in page


def test_a_forwarded_loopback_address_proves_nothing(
    debug_on, mail_files, client, settings, django_capture_on_commit_callbacks
):
    """X-Forwarded-For is the client's word: the connection's own address counts."""
    _send_login_link("anna@example.com", django_capture_on_commit_callbacks)
    spoofed = client.get(URL, REMOTE_ADDR="192.168.1.5", HTTP_X_FORWARDED_FOR="127.0.0.1")
    assert spoofed.status_code == 403
    # A proxy on this machine, trusted, forwarding for a client on the network: refused too.
    settings.TRUSTED_PROXIES = [ipaddress.ip_network("127.0.0.1/32")]
    proxied = client.get(URL, REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="192.168.1.5")
    assert proxied.status_code == 403
    # A trusted proxy elsewhere on the network saying its client is loopback: not this machine.
    settings.TRUSTED_PROXIES = [ipaddress.ip_network("10.0.0.2/32")]
    relayed = client.get(URL, REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR="127.0.0.1")
    assert relayed.status_code == 403


def test_a_client_relayed_by_an_unlisted_proxy_on_this_machine_is_refused(
    debug_on, mail_files, client, django_capture_on_commit_callbacks
):
    """A proxy on this machine left out of TRUSTED_PROXIES connects from loopback; its
    forwarded headers are dropped, but they still say it relays someone from elsewhere."""
    _send_login_link("anna@example.com", django_capture_on_commit_callbacks)
    relayed = client.get(URL, REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="192.168.1.5")
    assert relayed.status_code == 403
    assert client.get(URL, REMOTE_ADDR="127.0.0.1").status_code == 200


def _run_local(addr: str, tmp_path: Path) -> str:
    """bin/run-local's warnings for ``addr``, with a stand-in Python that exits at once."""
    python = tmp_path / "venv" / "bin" / "python"
    python.parent.mkdir(parents=True)
    python.write_text("#!/bin/sh\nexit 0\n")
    python.chmod(0o755)
    env = {
        "PATH": os.environ["PATH"],
        "VENV": str(tmp_path / "venv"),
        "CELERY_BROKER_DIR": str(tmp_path / "celery"),
    }
    run_local = Path(settings.BASE_DIR) / "bin" / "run-local"
    done = subprocess.run(
        [str(run_local), addr], env=env, capture_output=True, text=True, timeout=30
    )
    return done.stderr


@pytest.mark.parametrize("addr", ["0.0.0.0:8000", "192.168.1.5:8000", "[::]:8000"])
def test_run_local_warns_when_serving_beyond_this_machine(addr, tmp_path):
    warning = _run_local(addr, tmp_path)
    assert "WARNING" in warning and "/dev/mailbox/" in warning and "var/mail/" in warning


@pytest.mark.parametrize("addr", ["127.0.0.1:8000", "localhost:8000", "[::1]:8000", "8000"])
def test_run_local_is_quiet_on_loopback(addr, tmp_path):
    assert "WARNING" not in _run_local(addr, tmp_path)
