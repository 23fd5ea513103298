import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "crawlweb.settings")
application = get_wsgi_application()

# Embedded mode (no REDIS_URL): the web server runs crawls in its own threads, so it takes over, at start
# and while it runs, the running crawls whose process died (crawlweb/jobs/embedded_watch.py).
from crawlweb.jobs.embedded_watch import start_embedded_watch  # noqa: E402 -- needs the apps loaded above

start_embedded_watch(take_over_orphans=True)
