"""The migration that gives everyone a page address and settles the names already shown
(accounts 0013, issue 32): whoever joined first keeps a name; a later derived name is
numbered, a later chosen twin (an impostor's) is cleared."""

from datetime import timedelta

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

BEFORE = [("accounts", "0012_notification_settings_channels")]
AFTER = [("accounts", "0014_user_unique_shown_name_and_page_address")]


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.mark.django_db(transaction=True)
def test_the_names_shown_before_are_settled_first_come_first_kept():
    old = _migrate(BEFORE)
    try:
        user = old.get_model("accounts", "User")
        start = timezone.now() - timedelta(days=10)

        def joined(email, day, **fields):
            return user.objects.create(
                email=email, password="!", date_joined=start + timedelta(days=day), **fields
            ).pk

        bert = joined("bert@example.com", 0)
        eve = joined("eve@example.com", 1, display_name="BERT", display_name_key="bert")
        anna = joined("anna@example.com", 2, display_name="Anna", display_name_key="anna")
        twin = joined("anna@two.example", 3)
        crew = joined("crew@one.example", 4, display_name="Crew", display_name_key="crew")
        other_crew = joined("c@two.example", 5, display_name="crew", display_name_key="crew")
        gone = joined(
            "erased-9@invalid",
            6,
            display_name="former player",
            display_name_key="former player",
            erased_at=timezone.now(),
        )
    finally:
        new = _migrate(AFTER)
    user = new.get_model("accounts", "User")
    shown = {
        row.pk: (row.display_name, row.derived_name, row.public_name_key)
        for row in user.objects.all()
    }
    assert shown[bert] == ("", "bert", "bert")
    assert shown[eve] == ("", "eve", "eve")  # the later "BERT" was an impostor's
    assert shown[anna] == ("Anna", "", "anna")
    assert shown[twin] == ("", "anna 2", "anna 2")
    assert shown[crew] == ("Crew", "", "crew")
    assert shown[other_crew] == ("", "c", "c")
    assert shown[gone] == ("former player", "", "former player")
    addresses = list(user.objects.values_list("public_id", flat=True))
    assert len(set(addresses)) == 7 and all(len(address) == 10 for address in addresses)
