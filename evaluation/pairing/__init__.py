"""Parallel page pairs: the Pupsniffer method (pure code, no Django, no RQ).

Modules, one job each:
- units.py       URL → path units, file-name units (host subdomain labels count as path units)
- patterns.py    Def. 1 pattern mining with a linear hash index; Def. 2–5 frequency and credibilities
- methods.py     methods "local", "rescue_global", "rescue_domain"; ``combine_candidates``
- deep.py        method "deep": counterpart URL guesses and ``confirm_deep_pair``
- declared.py    method "hreflang": rel=alternate hreflang and language-switcher links
- scripts.py     Cyrillic–Latin Serbian script variants (never an sr–en pair)
- discovery.py   site discovery: Linkout, PageRank, WPR = C(w)·PR(w), top-K external sites
- similarity.py  Def. 9 bilingual similarity filter plus content check (languages, length, STRAND)
- strand.py      STRAND tag-sequence alignment (from HTML or stored tag signatures): dp, n, r
- search.py      search-engine variant: ``SearchProvider`` interface (no default; NotConfigured)
- pipeline.py    ``run_pairing``: all methods over a set of sites, per-method results
- records.py     PageRecord, CandidatePair, language helpers

Orientation: ``languages=(first, second)``, default ("en", "sr"); a pattern ⟨t, t′⟩ has
the first language's unit on the left and CandidatePair.source_url is the first
language's page.  The empty unit ε is "" (⟨ε, sr⟩: about.html ↔ about-sr.html).
"""
