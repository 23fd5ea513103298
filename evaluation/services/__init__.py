"""Django side of the pairing method: read pages from the database, run evaluation/pairing, store results.

- config.py     PairsSettings: the method's parameters, overridable by PAIRS_* Django settings
- inputs.py     which pages form a site (its hosts grouped by registrable domain), PageRecord/SiteInput
- patterns.py   store one site's patterns and C(w); recompute the global rows (Def. 4)
- pairs.py      run the methods for one site, filter, store pairs and script variants idempotently
- scoring.py    score one site / a whole crawl (what the jobs call)
- deep.py       check deep-page guesses through the polite fetcher
- deep_rounds.py  a finished crawl runs again for the pages its last pass's guesses found
- discovery.py  rank external sites by ΣLinkout, ΣPR, ΣWPR, add the top K as seeds, iterate with the crawl
- claims.py     debounce: one pending score_site per site, one pending score_crawl per crawl
"""
