"""bench/realweb.py's site side: site P/R from the verdicts a crawl stored, and why a site was missed.

A site counts as found bilingual when the crawl's stored verdict says so (frontier.models.SiteVerdict,
``bilingual``: the detector, the site's page languages and its kept pairs combined by
evaluation.services.site_verdicts when the crawl finished), so the figure is the crawl's own answer, not one
recomputed here. For each truly bilingual site the crawl missed, ``missed_site_reasons`` says why,
from the rows the crawl stored:

- "never reached": no page of the site was stored;
- "languages misidentified": the crawl stored a page of each language of the pair (by truth's
  labels) but labelled some of them otherwise, so neither the detector nor the page counts saw
  both; the wrong labels are named;
- "detector said no": the pages it read and their languages (the switch not found, or leading
  nowhere the crawl could read), when the stored pages hold too few of one language.

Needs Django set up (the bench's embedded project).
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from bench.support.realweb_truth import TruthSite, page_key, precision_recall, site_name
from crawlweb.language.page_accuracy import evaluation_label

PAIR = ("sr", "en")


@dataclass
class SiteFigures:
    found: set[str]           # site names the crawl's stored verdicts call bilingual
    judged: set[str]          # site names with a stored verdict
    truly: set[str]           # truth's sr–en sites among the chosen ones
    p: float
    r: float
    decided_by: Counter = field(default_factory=Counter)  # which evidence said yes, over the true finds

    @property
    def found_true(self) -> int:
        return len(self.found & self.truly)


def stored_verdicts(crawl_id: int) -> dict[str, dict]:
    """{site name: {"bilingual", "evidence"}} of the crawl's stored verdicts."""
    from frontier.models import SiteVerdict

    return {name: {"bilingual": bilingual, "evidence": evidence or {}}
            for name, bilingual, evidence in SiteVerdict.objects.filter(crawl_id=crawl_id)
            .values_list("site__name", "bilingual", "evidence")}


def site_figures(crawl_id: int, subset: list[TruthSite]) -> SiteFigures:
    names = {site_name(s.host) for s in subset}
    truly = {site_name(s.host) for s in subset if s.bilingual}
    verdicts = {n: v for n, v in stored_verdicts(crawl_id).items() if n in names}
    found = {n for n, v in verdicts.items() if v["bilingual"]}
    p, r = precision_recall(found, truly)
    decided_by = Counter(how for n in found & truly
                         for how in (verdicts[n]["evidence"].get("combined") or {}).get("decided_by", ()))
    return SiteFigures(found, set(verdicts), truly, p, r, decided_by)


def render_cost(crawl_id: int) -> tuple[int, float]:
    """(pages rendered, milliseconds per rendered page) of the crawl's BS Detector, from its stored verdicts'
    evidence (frontier.detector_job: one entry per render, with its wall time; the process's browser's start is in
    its first render)."""
    times = [entry["ms"] for v in stored_verdicts(crawl_id).values()
             for entry in v["evidence"].get("rendered", []) if not entry.get("error")]
    return len(times), (sum(times) / len(times) if times else 0.0)


def stored_labels(crawl_id: int) -> dict[str, dict[str, str]]:
    """{site name: {page key: evaluation label}} of every page the crawl stored (its URL and final URL)."""
    from crawlweb.models import Page

    out: dict[str, dict[str, str]] = {}
    rows = Page.objects.filter(crawl_id=crawl_id).values_list("site__name", "url", "final_url", "language", "script")
    for name, url, final, language, script in rows:
        labels = out.setdefault(name, {})
        for address in filter(None, (url, final)):
            labels[page_key(address)] = evaluation_label(language, script)
    return out


def _pair_language(label: str) -> str:
    return (label or "").split("-")[0]


def missed_site_reasons(crawl_id: int, subset: list[TruthSite], found: set[str]) -> dict[str, str]:
    """{host: why} for each truly bilingual site of ``subset`` the crawl's verdicts did not call bilingual."""
    verdicts, labels = stored_verdicts(crawl_id), stored_labels(crawl_id)
    out = {}
    for site in subset:
        name = site_name(site.host)
        if not site.bilingual or name in found:
            continue
        pages = labels.get(name, {})
        if not pages:
            out[site.host] = "never reached (no page of the site stored)"
            continue
        verdict = verdicts.get(name)
        if verdict is None:
            out[site.host] = f"reached ({len(pages)} pages) but no verdict stored"
            continue
        out[site.host] = _why_no(site, pages, verdict["evidence"])
    return out


def _why_no(site: TruthSite, pages: dict[str, str], evidence: dict) -> str:
    stored = Counter(_pair_language(label) for label in pages.values())
    truly_there = {lang for url, lang in site.languages.items() if url in pages}
    wrong = sorted((url, site.labels.get(url, site.languages[url]), pages[url]) for url in pages
                   if url in site.languages and _pair_language(site.languages[url]) in PAIR
                   and _pair_language(pages[url]) != site.languages[url])
    read = ", ".join(f"{p['url'].split('//', 1)[-1]}={p.get('language') or p.get('not_read') or '?'}"
                     for p in evidence.get("pages", [])[:5]) or "nothing"
    seen = "/".join(evidence.get("languages") or []) or "none"
    counts = " ".join(f"{lang}:{n}" for lang, n in sorted(stored.items()))
    if set(PAIR) <= truly_there and wrong:
        named = "; ".join(f"{u.split('//', 1)[-1]} is {t}, stored {g}" for u, t, g in wrong[:3])
        return (f"languages misidentified: {len(wrong)} of {len(pages)} stored pages ({counts}); {named}; "
                f"detector saw {seen}")
    missing = [lang for lang in PAIR if lang not in truly_there]
    return (f"detector said no (saw {seen}; read {read}); stored pages {counts}"
            + (f"; no {'/'.join(missing)} page of the site stored" if missing else ""))
