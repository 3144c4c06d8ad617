"""A player's personal data in a real browser (issue 26): the settings page downloads the
export (a zip of JSON files); deleting the account by the emailed link signs the player
out, and the other players' table shows "former player" with a bot in the seat. Every page
is checked as conftest.Visitor says (console, CSP, axe)."""

import re
import zipfile

import pytest

from accounts.models import User
from tests.api.test_personal_data_api import FILES  # the files every export holds
from tests.browser import flows
from tests.factories import make_user, start_game

pytestmark = pytest.mark.browser


def test_export_then_delete_the_account(site, visitors):
    anna_user = make_user("anna@example.com", display_name="Anna")
    bert_user = make_user("bert@example.com", display_name="Bert")
    game = start_game([anna_user, bert_user, make_user("carla@example.com")])
    anna = visitors("Anna")
    flows.sign_in(anna, "anna@example.com", start="/settings/")

    with anna.page.expect_download() as started:
        anna.page.get_by_role("link", name="Download my data").click()
    download = started.value
    assert download.suggested_filename == "piratz-personal-data.zip"
    with zipfile.ZipFile(download.path()) as archive:
        assert set(archive.namelist()) == FILES
        assert str(game.id) in archive.read("games.json").decode()

    anna.click("Email me a link to delete my account")
    assert anna.page.get_by_text("We have emailed you a link to confirm").count()
    assert User.objects.get(pk=anna_user.pk).erased_at is None  # nothing yet
    anna.open(site.link_in_last_email("anna@example.com", r"/accounts/delete/[^/\s]+/"))
    anna.click("Delete my account")
    assert anna.page.get_by_role("heading", name="Your account is deleted").count()
    assert User.objects.get(pk=anna_user.pk).erased_at is not None
    anna.open("/settings/")  # signed out: the login page instead
    assert re.search(r"/accounts/login/", anna.page.url)

    bert = visitors("Bert")
    flows.sign_in(bert, "bert@example.com", start=f"/games/{game.id}/")
    assert bert.page.get_by_text("former player · bot").count()
    assert not bert.page.get_by_text("Anna").count()
