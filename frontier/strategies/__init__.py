"""Crawl strategies (Barbosa et al. 2011, Sec. 3): which outlinks of a fetched page become Targets,
in which queue (Target.origin) and with which priority.

  bfs    breadth-first, the crawler's behaviour before this issue
  fc     forward crawl: every forward link, random (seeded) order
  focc   focused crawl: only links of pages the Combine topic filter finds relevant
  obfc   back/forward crawl: out-of-site links only, forward pages' outlinks not followed
  cobfc  OBFC with the Backlink and Forward-Link classifiers setting layers and rank

``strategy_for(crawl)`` returns the crawl's strategy (see base.Strategy).
"""
from __future__ import annotations


def strategy_for(crawl):
    from frontier.strategies.registry import strategy_for as build

    return build(crawl)
