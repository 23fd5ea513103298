#!/usr/bin/env python
"""Django's command-line utility, which stops with a one-line message on a bad setting."""
import os
import sys


def main():
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "crawlweb.settings")
    from django.core.exceptions import ImproperlyConfigured

    from crawlweb.env import SettingError

    try:
        if sys.argv[1:2] == ["rqworker"]:  # its page preparation processes load while Django does
            from crawlweb.services.prep_processes import start_for_worker

            start_for_worker(sys.argv)
        from django.core.management import execute_from_command_line

        execute_from_command_line(sys.argv)
    except (SettingError, ImproperlyConfigured) as error:
        sys.stderr.write(f"configuration error: {error}\n")
        sys.exit(2)


if __name__ == "__main__":
    main()
