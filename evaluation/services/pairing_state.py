"""Whether a crawl's pairs are final, and the sentence its crawl page says of them.

The pairs move while the crawl runs (score_site as sites grow, crawl-wide passes as the crawl
doubles) and once more after it: the whole pass the finish queues, every site under one global view
(claims.py). A count read or an evaluation drawn before that pass has ended reads pairs that are
still to change: which of them are scored by then depends on the order the jobs ran in. That pass's
deep-page guesses are checked by jobs of the crawl, and the pages they find make the crawl run again
and pass again (deep_rounds.py): while those jobs wait or the crawl runs, the pairs are not final.
"""
from __future__ import annotations

from dataclasses import dataclass

from crawlweb.jobs.queueing import describe_jobs, pending_crawl_jobs
from crawlweb.models import Crawl
from evaluation.models import CrawlScoring


@dataclass(frozen=True)
class PairingState:
    crawl_state: str
    pages: int  # the crawl's pages fetched
    pages_seen: int  # by the last crawl-wide pass
    passes: int
    whole: bool  # the last pass has ended and scored every site of the finished crawl
    pass_claimed: bool  # a pass is queued (or its job was lost with its process)
    jobs: str  # the crawl's follow-up jobs queued or running where this process can see them

    @property
    def final(self) -> bool:
        return (self.crawl_state == Crawl.State.FINISHED and self.whole and not self.pass_claimed
                and self.pages_seen == self.pages and not self.jobs)

    def sentence(self) -> str:
        if self.final:
            return (f"Pairs are final: the pass after the crawl ended paired every site of its {self.pages} "
                    f"page{'s' if self.pages != 1 else ''}.")
        seen = (f"the last crawl-wide pass saw {self.pages_seen} of {self.pages} pages" if self.passes
                else "no crawl-wide pass yet")
        if self.crawl_state == Crawl.State.RUNNING:
            return f"Pairs change while the crawl runs ({seen}); they are final after the pass that follows its end."
        if self.crawl_state != Crawl.State.FINISHED:
            return f"Pairs as scored so far ({seen}); the crawl is {self.crawl_state}."
        if self.jobs:
            return f"Pairs may still change ({seen}): the crawl's scoring jobs are still to run: {self.jobs}."
        return (f"Pairs may still change ({seen}): the pass after the crawl has not ended. If no process runs "
                "the crawl's jobs any more, “Score all sites now” on its pairs page runs it.")


def pairing_state(crawl: Crawl) -> PairingState:
    row = CrawlScoring.objects.filter(crawl_id=crawl.pk).first() or CrawlScoring(crawl_id=crawl.pk)
    return PairingState(crawl_state=crawl.state, pages=crawl.pages_fetched, pages_seen=row.pages_at_last_pass,
                        passes=row.passes, whole=row.last_pass_whole, pass_claimed=row.pending,
                        jobs=describe_jobs(pending_crawl_jobs(crawl.pk)))
