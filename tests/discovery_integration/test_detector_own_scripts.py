"""The BS Detector reads the page's own scripts when its HTML left the site undecided.

Modelled on a one-page CV of the real development web: the English home's language switch is two
flags drawn as ``<div>``s, and the site's own ``js/global.js`` sends a click on the Serbian one to
``index-rs.html`` (``window.location = 'index-rs.html'``). No link of the HTML names the Serbian page,
and no rendering helps (nothing is clicked); reading the script does.
"""
import pytest

from crawlweb.models import Crawl, Page
from crawlweb.jobs.crawl_control import start_crawl
from frontier.models import SiteVerdict
from tests.conftest import route_through
from tests.discovery_integration.conftest import discovery_crawl
from tests.served_site import served_site

pytestmark = pytest.mark.django_db(transaction=True)

HOST = "cv.kastratovic.rs"
GLOBAL_JS = """$('.languages').on('click', 'div', function () {
  if ($(this).attr('id') === 'serbia') {
    window.location = 'index-rs.html';
  } else {
    window.location = 'index.html';
  }
});
"""
EN = ("Aleksandar Kastratović, front-end developer from Obrenovac. Work experience, education and skills: "
      "HTML, CSS, JavaScript and React. Projects I built for clients and for myself.")
SR = ("Aleksandar Kastratović, front-end programer iz Obrenovca. Radno iskustvo, obrazovanje i veštine: "
      "HTML, CSS, JavaScript i React. Projekti koje sam napravio za klijente i za sebe.")


def _page(lang, text, flags=True):
    switch = ('<div class="languages"><div id="britain"><img src="./images/britain-flag.jpg"><p>ENG</p></div>'
              '<div id="serbia"><img src="./images/serbia-flag.jpg"><p>SRB</p></div></div>') if flags else ""
    return (f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>CV</title></head><body>'
            f'{switch}<h1>CV</h1><p>{text}</p><p>{text}</p><script src="js/jquery1.11.0.js"></script>'
            f'<script src="js/global.js"></script></body></html>')


@pytest.fixture
def web(tmp_path):
    files = {"index.html": _page("en", EN), "index-rs.html": _page("sr", SR), "js/global.js": GLOBAL_JS,
             "js/jquery1.11.0.js": "/*! jQuery v1.11.0 */ var jQuery = {};"}
    with served_site(tmp_path, HOST, files, [[f"http://{HOST}/index-rs.html", f"http://{HOST}/index.html"]]) as server:
        yield server


def test_the_detector_reads_the_pages_own_script_and_finds_the_serbian_side(web, monkeypatch, sync_jobs,
                                                                            crawl_settings):
    route_through(web, monkeypatch)
    crawl = discovery_crawl(web, "cobfc", budget=6, seeds=[f"http://{HOST}/"], detector={"render_pages": 0})
    start_crawl(crawl)
    crawl.refresh_from_db()
    assert crawl.state == Crawl.State.FINISHED, crawl.last_error
    verdict = SiteVerdict.objects.get(crawl=crawl, site__name=HOST)
    assert verdict.bilingual and verdict.evidence["detector_bilingual"], verdict.evidence
    assert set(verdict.evidence["languages"]) == {"sr", "en"}, "the detector itself saw both languages"
    read = verdict.evidence["scripts_read"]
    assert read["scripts"] == [f"http://{HOST}/js/global.js"], "the site's own script, never the library"
    assert read["links"] >= 1
    assert {p["url"] for p in verdict.evidence["pages"]} >= {f"http://{HOST}/index-rs.html"}
    assert not Page.objects.filter(crawl=crawl, url__endswith="jquery1.11.0.js").exists()
