"""The local mailbox (/dev/mailbox/): only with DEBUG; shows the emails as the file backend
wrote them, decoded, with links that work when clicked."""

import importlib
import re

import pytest
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
