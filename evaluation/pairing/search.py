"""Search-engine variant of the method (Ma & Zhang 2014): site:/inurl: queries.

It needs a search API, which this project does not have; ``SearchProvider`` is the
interface a real provider implements.  There is deliberately no default provider:
the base class raises NotConfigured rather than returning invented results.
``build_queries`` is pure and usable without a provider.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping

from .deep import DeepGuess, apply_pattern
from .patterns import GlobalPattern, top_global_patterns
from .records import DEFAULT_LANGUAGES, Pattern, check_languages


class NotConfigured(RuntimeError):
    """No search provider is configured (none ships with the project)."""


class SearchProvider:
    """Implement ``search`` with a real search API (subclass and register it).

    ``search(query, limit)`` returns result URLs for a query such as
    ``inurl:en site:gov.rs filetype:html``.
    """

    name = "none"

    def search(self, query: str, limit: int = 100) -> list[str]:
        raise NotConfigured(
            "no search provider is configured: subclass evaluation.pairing.search.SearchProvider "
            "with a real search API to use the site:/inurl: variant")


def build_queries(patterns: Iterable[Pattern], domains: Iterable[str], *, side: int = 0,
                  filetype: str = "html", top_n: int = 5) -> list[str]:
    """Queries from the language markers of the top patterns (the method uses the 5
    best), e.g. ``inurl:en site:gov.rs filetype:html``.  ``side`` 0 takes t, 1 takes t′."""
    markers = [p[side] for p in patterns if p[side]][:top_n]
    return [f"inurl:{m} site:{d}" + (f" filetype:{filetype}" if filetype else "")
            for d in domains for m in dict.fromkeys(markers)]


def search_engine_guesses(provider: SearchProvider, global_patterns: Mapping[Pattern, GlobalPattern],
                          domains: Iterable[str], *, top_n: int = 5, limit: int = 100,
                          languages=DEFAULT_LANGUAGES) -> list[DeepGuess]:
    """The little-prior-knowledge variant: query the provider with the languages[0]
    markers of the top_n patterns (5 in the method), then rewrite each result URL
    with those patterns, most credible first, into a languages[1] URL to CHECK
    (existence and language, as for "deep"; confirm with ``confirm_deep_pair``).
    Raises NotConfigured with the default provider."""
    first, second = check_languages(languages)
    top = [g for g in top_global_patterns(global_patterns, top_n) if g.pattern[0]]
    guesses: list[DeepGuess] = []
    seen: set[tuple[str, str]] = set()
    for query in build_queries([g.pattern for g in top], domains, top_n=top_n):
        for url in provider.search(query, limit):
            for g in top:
                for guess in apply_pattern(url, g.pattern, forward=True, examples=g.examples):
                    if (url, guess) not in seen:
                        seen.add((url, guess))
                        guesses.append(DeepGuess(url, guess, g.pattern, first, second, g.credibility, True))
    return guesses
