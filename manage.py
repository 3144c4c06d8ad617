#!/usr/bin/env python
"""Django's command-line utility for administrative tasks.

Commands that serve no requests (``--help``, ``simulate``, ``migrate``, ``issue_token``...)
run in a fresh checkout without ``SECRET_KEY``: this script names the command in
``PIRATZ_MANAGE_COMMAND``, and the settings fall back to the public development key for
it (``core.env.secret_key``). ``runserver`` with DEBUG off still needs a real key.
"""

import os
import sys


def main():
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "piratz_site.settings")
    os.environ["PIRATZ_MANAGE_COMMAND"] = sys.argv[1] if len(sys.argv) > 1 else "help"
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
