"""A crawl step stores its whole batch at once: content fetched twice in one batch is still one Page."""
import pytest

from crawlweb.models import Crawl, Page
from crawlweb.jobs.crawl_control import start_crawl
from frontier.models import Target

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("no_proxy_env")]


def test_the_same_content_from_two_hosts_in_one_batch_is_one_page(settings, crawl_settings, web):
    settings.REDIS_URL, settings.JOBS_INPROCESS_MODE = None, "sync"
    port = web.server_address[1]
    urls = [f"http://127.0.0.1:{port}/page", f"http://localhost:{port}/page"]  # two hosts, one server
    crawl = Crawl.objects.create(name="twins", page_budget=10, max_depth=0, follow_out_of_site=False,
                                 config={"address_policy": "loopback", "host_interval": 0})
    start_crawl(crawl, extra_urls=urls)

    targets = list(Target.objects.filter(crawl=crawl, url__in=urls))
    assert [t.state for t in targets] == ["done", "done"]
    assert targets[0].page_id == targets[1].page_id is not None
    assert Page.objects.filter(crawl=crawl).count() == 1
    crawl.refresh_from_db()
    assert crawl.pages_fetched == 2  # both requests count against the budget
