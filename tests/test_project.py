"""Project-wide checks: migrations are complete, Django's system checks pass."""

import pytest
from django.core.management import call_command


@pytest.mark.django_db
def test_models_and_migrations_agree():
    call_command("makemigrations", "--check", "--dry-run", verbosity=0)


@pytest.mark.django_db
def test_system_checks_pass():
    call_command("check", fail_level="WARNING")
