"""Settings for trying the service locally: replies by email and the fast clock work under
`make run` (DEBUG) with nothing set, and never switch themselves on in production."""

import importlib.util
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

import piratz_site.settings

ROOT = Path(__file__).resolve().parent.parent
VARIABLES = ("DEBUG", "REPLY_DOMAIN", "REPLY_ADDRESS", "TURN_HOUR_SECONDS", "SWEEP_SECONDS")


def settings_with(monkeypatch, **environ) -> dict:
    """The settings module's values, evaluated afresh with ``environ`` (else unset)."""
    for name in VARIABLES:
        monkeypatch.delenv(name, raising=False)
    for name, value in environ.items():
        monkeypatch.setenv(name, value)
    # A copy of the module by another name: the settings in use stay as they are.
    spec = importlib.util.spec_from_file_location(
        "piratz_site.settings_under_test", piratz_site.settings.__file__
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return vars(module)


def test_debug_replies_to_a_local_address_by_default(monkeypatch):
    local = settings_with(monkeypatch, DEBUG="true")
    assert (local["REPLY_DOMAIN"], local["REPLY_ADDRESS"]) == ("localhost", "play@localhost")
    chosen = settings_with(monkeypatch, DEBUG="true", REPLY_DOMAIN="in.example.com")
    assert chosen["REPLY_ADDRESS"] == "play@in.example.com"


def test_production_has_no_reply_address_unless_set(monkeypatch):
    assert settings_with(monkeypatch)["REPLY_ADDRESS"] == ""
    assert settings_with(monkeypatch, DEBUG="false")["REPLY_ADDRESS"] == ""


def test_the_fast_clock_sweeps_four_times_a_turn_hour(monkeypatch):
    fast = settings_with(monkeypatch, DEBUG="true", TURN_HOUR_SECONDS="60")
    assert fast["TURN_HOUR_SECONDS"] == 60 and fast["SWEEP_SECONDS"] == 15
    beat = fast["CELERY_BEAT_SCHEDULE"]
    assert beat["play-due-timeouts"]["schedule"] == beat["send-due-reminders"]["schedule"] == 15
    normal = settings_with(monkeypatch, DEBUG="true")
    assert (normal["TURN_HOUR_SECONDS"], normal["SWEEP_SECONDS"]) == (3600, 60)


def test_the_fast_clock_is_refused_without_debug(monkeypatch):
    with pytest.raises(ImproperlyConfigured, match=r"TURN_HOUR_SECONDS=60 .* needs DEBUG"):
        settings_with(monkeypatch, TURN_HOUR_SECONDS="60")
    # The normal hour, spelled out, is fine anywhere.
    assert settings_with(monkeypatch, TURN_HOUR_SECONDS="3600")["TURN_HOUR_SECONDS"] == 3600


@pytest.mark.parametrize(("args", "expected"), [(["FAST=1"], {"60"}), ([], {""})])
def test_make_run_fast_sets_a_minute_long_turn_hour(args, expected, tmp_path):
    """`make run FAST=1` exports TURN_HOUR_SECONDS=60 to every command it runs."""
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    log = tmp_path / "commands.log"
    shell = tmp_path / "record-shell"  # records each command's TURN_HOUR_SECONDS, runs none
    shell.write_text(f'#!/bin/sh\nprintf "%s\\n" "$TURN_HOUR_SECONDS" >> {log}\n')
    shell.chmod(0o755)
    environ = {key: value for key, value in os.environ.items() if key not in VARIABLES}
    done = subprocess.run(
        ["make", "--no-print-directory", "run", f"SHELL={shell}", *args],
        cwd=ROOT,
        env=environ,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert set(log.read_text().splitlines()) == expected
