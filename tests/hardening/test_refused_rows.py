"""A row the database refuses fails only the Target it belongs to: the rest of the crawl step's batch is
stored (issue 34, "a failure stays with what caused it"). Real crawls of fuzz hosts on 127.0.0.1.

Every value a site sends that PostgreSQL or SQLite would refuse by itself is made storable before it
is written (NUL characters in headers, Location values and errors; surrogates; dates and sizes beyond
a column). So the refusal here is the database's own: a CHECK constraint (PostgreSQL) or a trigger
(SQLite) added for the test refuses one page's row, one link row, or one Target's update, as a value
the crawler does not yet know to be unstorable would be refused.
"""
import pytest
from django.db import connection

from bench.support.fuzz_crawl import crawl_fuzz_web
from crawlweb.testweb.fuzz import FuzzAnswer, FuzzHost, FuzzWeb

pytestmark = pytest.mark.django_db(transaction=True)

RULE = "refused_by_test"
# What each case refuses: (table, operation, column, LIKE pattern), and the Target that must fail for it.
REFUSALS = {
    "a page row": (("crawlweb_page", "INSERT", "title", "%h1.rs/p1.html"), (1, "/p1.html")),
    "a link row": (("crawlweb_link", "INSERT", "target_url", "%/p9.html"), (2, "/p2.html")),
    "a Target's failure": (("frontier_target", "UPDATE", "last_error", "HTTP 410%"), (0, "/p2.html")),
}


@pytest.fixture
def refuse_rows(transactional_db):
    """refuse_rows(table, operation, column, pattern): the database refuses rows whose column matches."""
    made = []

    def refuse(table: str, operation: str, column: str, pattern: str) -> None:
        with connection.cursor() as cursor:
            if connection.vendor == "postgresql":
                cursor.execute(f"ALTER TABLE {table} ADD CONSTRAINT {RULE} CHECK ({column} NOT LIKE '{pattern}') NOT VALID")
            else:
                cursor.execute(f"CREATE TRIGGER {RULE} BEFORE {operation} ON {table} WHEN NEW.{column} LIKE '{pattern}' "
                               f"BEGIN SELECT RAISE(ABORT, 'row refused by {RULE}'); END")
        made.append(table)

    yield refuse
    with connection.cursor() as cursor:
        for table in made:
            cursor.execute(f"ALTER TABLE {table} DROP CONSTRAINT {RULE}" if connection.vendor == "postgresql"
                           else f"DROP TRIGGER {RULE}")


def three_hosts() -> FuzzWeb:
    """Three hosts whose pages are fetched side by side: each home page links /p1.html and /p2.html;
    host 0's /p2.html answers 410, host 2's links /p9.html (which the fuzz host answers with a 404)."""
    def host(p2: FuzzAnswer) -> FuzzHost:
        return FuzzHost(robots=None, pages=(FuzzAnswer(links=("/p1.html", "/p2.html")), FuzzAnswer(), p2))
    return FuzzWeb(hosts=(host(FuzzAnswer(status=410)), host(FuzzAnswer()), host(FuzzAnswer(links=("/p9.html",)))))


@pytest.mark.parametrize("case", sorted(REFUSALS))
def test_a_refused_row_fails_its_target_and_the_rest_of_the_batch_is_stored(case, fuzz_settings, refuse_rows):
    from crawlweb.models import Crawl, Host, Page
    from frontier.models import Target

    refusal, (host_index, path) = REFUSALS[case]
    refuse_rows(*refusal)
    result = crawl_fuzz_web(fuzz_settings, three_hosts())
    crawl = Crawl.objects.get(pk=result.crawl_id)
    assert crawl.state == Crawl.State.FINISHED and crawl.last_error == "", (crawl.state, crawl.last_error)
    assert result.stopped == [] and result.problems == [] and result.lost == 0

    refused_url = f"http://{result.hosts[host_index]}{path}"
    refused = Target.objects.get(crawl=crawl, url=refused_url)
    assert (refused.state, refused.error_kind) == (Target.State.FAILED, "unexpected"), refused.last_error
    assert RULE in refused.last_error and "refuse" in refused.last_error
    assert refused.page_id is None

    pages = {f"http://{name}{p}" for name in result.hosts for p in ("/", "/p1.html", "/p2.html")}
    pages -= {f"http://{result.hosts[0]}/p2.html", refused_url}  # the 410, the refused one
    done = {t.url: t for t in Target.objects.filter(crawl=crawl, state=Target.State.DONE)}
    assert pages <= done.keys(), sorted(pages - done.keys())
    assert all(done[url].page_id for url in pages)
    assert set(Page.objects.filter(crawl=crawl).values_list("url", flat=True)) == pages
    others = Target.objects.filter(crawl=crawl).exclude(url=refused_url)
    assert not others.filter(error_kind="unexpected").exists()
    # The refused fetch counted like any other, and its host's politeness clock was released.
    assert crawl.pages_fetched == Target.objects.filter(crawl=crawl, status_code__isnull=False).count()
    assert not Host.objects.filter(name__in=result.hosts, busy_until__isnull=False).exists()



def database_error(*statements: tuple) -> Exception:
    """The error the database (or its driver) raises for the statements (sql, params), in a transaction of their own."""
    from django.db import transaction

    try:
        with transaction.atomic(), connection.cursor() as cursor:
            for sql, params in statements:
                cursor.execute(sql, params)
    except Exception as error:
        return error
    raise AssertionError(f"{statements} raised nothing")


def test_a_refused_value_is_told_from_a_database_in_trouble(refuse_rows):
    from django.db import transaction

    from crawlweb.models import Site
    from crawlweb.services.store_refusals import refused_for_its_values

    refuse_rows("crawlweb_site", "INSERT", "name", "refused%")
    with pytest.raises(Exception) as refused_row:
        with transaction.atomic():
            Site.objects.create(name="refused.rs")
    refused_values = [refused_row.value, database_error(("SELECT %s", ["a lone surrogate \ud800"]))]
    troubles = [database_error(("SELECT * FROM no_such_table", None))]
    if connection.vendor == "postgresql":
        refused_values += [database_error(("SELECT 1 / 0", None)),
                           database_error(("SELECT %s::text", ["a NUL \x00 character"])),
                           database_error(("SELECT 2147483648::integer", None))]
        troubles.append(database_error(("SET LOCAL statement_timeout = 10", None), ("SELECT pg_sleep(1)", None)))
    assert [repr(error) for error in refused_values if not refused_for_its_values(error)] == []
    assert [repr(error) for error in troubles if refused_for_its_values(error)] == []
    assert not refused_for_its_values(OSError(28, "No space left on device"))
