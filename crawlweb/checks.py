"""System checks of this project's own settings (`manage.py check`, `check --deploy`)."""
from __future__ import annotations

from django.conf import settings
from django.core.checks import Tags, Warning, register


@register(Tags.security, deploy=True)
def secret_key_set_by_the_operator(app_configs, **kwargs):
    """Without SECRET_KEY a key is generated into VAR_DIR on first start: fine for one machine, wrong for
    several web hosts behind one address (each makes its own, so a session or form of one is refused by
    the others) and for a host whose VAR_DIR is lost (every session ends)."""
    key_file = getattr(settings, "SECRET_KEY_FILE", None)
    if key_file is None:
        return []
    return [Warning(f"SECRET_KEY is not set: the key in {key_file} was generated on this host, and several web "
                    "hosts would each generate their own",
                    hint="Set SECRET_KEY (at least 32 characters, the same on every web host) in the environment.",
                    id="crawlweb.W001")]
