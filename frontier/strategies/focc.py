"""FocC, the focused crawler: a page filter keeps the crawl on topic (Combine's topic filter).

The crawl config carries the topic definition (term triplets ``weight: term=class``) and the
cut-off; only the links of pages whose score reaches the cut-off are followed, breadth-first.
"""
from __future__ import annotations

from functools import cached_property

from frontier.strategies.base import Planned, Strategy
from frontier.topic_filter import TopicDefinition, TopicDocument


class FocusedCrawl(Strategy):
    name = "focc"

    @cached_property
    def topic(self) -> TopicDefinition | None:
        text = self.settings.topic_definition
        return TopicDefinition.parse(text) if text.strip() else None

    def relevant(self, page, parsed) -> bool:
        if self.topic is None:  # no topic: nothing to focus on, behave as a forward crawl
            return True
        doc = TopicDocument(title=parsed.title or "", headings=tuple(parsed.headings or ()), text=parsed.text or "",
                            url=page.url, meta=" ".join([parsed.meta_description or "", *parsed.meta_keywords]))
        return self.topic.is_relevant(doc, self.settings.topic_cutoff, self.settings.topic_algorithm)

    def relevant_page(self, page, parsed) -> bool:
        """``relevant``, computed once per page (targets_for_page and opens_sitemaps both ask)."""
        if getattr(self, "_judged", (None,))[0] != page.pk:
            self._judged = (page.pk, self.relevant(page, parsed))
        return self._judged[1]

    def targets_for_page(self, target, page, parsed, links):
        if not self.relevant_page(page, parsed):
            return []
        return [Planned(link.candidate, "forward") for link in links]

    def opens_sitemaps(self, target, page, parsed) -> bool:
        return self.relevant_page(page, parsed)
