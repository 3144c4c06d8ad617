"""bin/bootstrap-venv picks pyenv's oldest suitable Python (its comment says why)."""

import os
import shutil
import subprocess
from pathlib import Path

from django.conf import settings

SCRIPT = Path(settings.BASE_DIR) / "bin" / "bootstrap-venv"
# A stand-in interpreter: suitable for any check, and ``-m venv DIR`` makes DIR/bin/python
# a link to itself, so the script runs to its end without installing anything.
FAKE_PYTHON = """#!/bin/sh
if [ "$1" = "-m" ] && [ "$2" = "venv" ]; then mkdir -p "$3/bin" && ln -s "$0" "$3/bin/python"; fi
exit 0
"""
# What the script runs besides the interpreters (and the shell's own builtins).
TOOLS = ("dirname", "sort", "mkdir", "ln", "touch")


def test_the_oldest_suitable_pyenv_version_is_taken(tmp_path):
    pyenv = tmp_path / "pyenv"
    for version in ("3.13.1", "3.12.9", "3.11.4"):
        python = pyenv / "versions" / version / "bin" / "python3"
        python.parent.mkdir(parents=True)
        python.write_text(FAKE_PYTHON)
        python.chmod(0o755)
    # A PATH with the tools only, so no python3.1x of this machine comes first.
    tools = tmp_path / "tools"
    tools.mkdir()
    for tool in TOOLS:
        (tools / tool).symlink_to(shutil.which(tool))
    venv = tmp_path / "venv"
    environment = {"PATH": str(tools), "PYENV_ROOT": str(pyenv), "HOME": str(tmp_path)}
    result = subprocess.run(
        ["/bin/bash", str(SCRIPT), str(venv)],
        env=environment,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert result.returncode == 0, result.stderr
    assert f"creating {venv} with {pyenv}/versions/3.12.9/bin/python3" in result.stderr
    assert os.path.realpath(venv / "bin" / "python").endswith("3.12.9/bin/python3")
