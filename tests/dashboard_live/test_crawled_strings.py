"""Crawled strings on the live panel and the site page are escaped, and only http(s) URLs become links."""
import hashlib

import pytest
from django.utils import timezone

from crawlweb.models import Crawl, Page
from crawlweb.services.targets import Candidate, add_targets
from evaluation.models import CandidatePair
from frontier.models import SiteVerdict, Target

pytestmark = pytest.mark.django_db
HOSTILE = '<script>alert("x")</script>'
HOSTILE_LANGUAGE = "<i>sr</i>"  # Page.language holds 16 characters


@pytest.fixture
def hostile_site(django_user_model, client):
    client.force_login(django_user_model.objects.create_superuser("operator", "op@example.org", "a-long-password-1"))
    crawl = Crawl.objects.create(name="hostile")
    target = Target.objects.get(pk=add_targets(crawl, [Candidate("http://www.primer.rs/")], origin="seed").new_ids[0])
    page = Page.objects.create(crawl=crawl, site=target.site, host=target.host, url=target.url, final_url=target.url,
                               status_code=200, title=HOSTILE, language=HOSTILE_LANGUAGE, md5=hashlib.md5(b"x").hexdigest(),
                               fetched_at=timezone.now())
    SiteVerdict.objects.create(crawl=crawl, site=target.site, page=page, bilingual=True, evidence={
        "page": "javascript:alert(1)", "languages": [HOSTILE],
        "pages": [{"url": "data:text/html,<b>x</b>", "language": "en"}, {"url": "http://www.primer.rs/en/", "language": "en"}]})
    CandidatePair.objects.create(crawl=crawl, site=target.site, source_url="javascript:alert(2)",
                                 target_url="http://www.primer.rs/en/", method="local", reason=HOSTILE)
    return client, crawl, target.site


def test_the_site_page_escapes_crawled_strings_and_links_only_web_urls(hostile_site):
    client, crawl, site = hostile_site
    html = client.get(f"/crawls/{crawl.pk}/sites/{site.pk}/").content.decode()
    assert HOSTILE not in html and "&lt;script&gt;" in html
    assert 'href="javascript:' not in html and 'href="data:' not in html
    assert 'href="http://www.primer.rs/en/"' in html, "a web URL of the evidence is a link"


def test_the_live_panel_escapes_a_crawled_language_label(hostile_site):
    client, crawl, _ = hostile_site
    html = client.get(f"/crawls/{crawl.pk}/", HTTP_HX_REQUEST="true").content.decode()
    assert HOSTILE_LANGUAGE not in html and "&lt;i&gt;sr&lt;/i&gt;" in html
