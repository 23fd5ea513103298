"""Hub hosts of the real development web: directory and partner pages that link the real sites.

Real sites are found through pages that list them: a web directory linking many, a partner list
or blog post linking a few. The hubs are planned from the site hosts with a seeded random, so the
same corpus always gets the same graph: every site is linked from at least one hub, a few from
several, and the hubs link one another. Hub pages are written by this project (they are the only
non-real pages of the corpus) and are marked kind "hub" in the truth. Pure: no Django.
"""

from __future__ import annotations

import html
import random
from dataclasses import dataclass, field

HUB_DOMAIN = "realweb.test"
# (share of all sites a hub links, title): a big directory, two partner lists, a short blog post.
HUB_SHAPES = ((0.55, "Web directory: Serbia and the region"), (0.25, "Partners and friends"),
              (0.15, "Links we like"), (0.08, "Blog: a few sites worth a visit"))


@dataclass
class Hub:
    host: str
    title: str
    site_hosts: list[str] = field(default_factory=list)
    hub_hosts: list[str] = field(default_factory=list)

    @property
    def url(self) -> str:
        return f"http://{self.host}/"


def plan_hubs(site_hosts: list[str], seed: int = 0) -> list[Hub]:
    """Hubs hub1.realweb.test … linking `site_hosts`; each site is linked at least once."""
    rng = random.Random(seed)
    hosts = sorted(set(site_hosts))
    hubs = [Hub(f"hub{i}.{HUB_DOMAIN}", title) for i, (_, title) in enumerate(HUB_SHAPES, start=1)]
    for hub, (share, _) in zip(hubs, HUB_SHAPES):
        count = max(1, round(share * len(hosts))) if hosts else 0
        hub.site_hosts = rng.sample(hosts, min(count, len(hosts)))
    linked = {host for hub in hubs for host in hub.site_hosts}
    for host in hosts:
        if host not in linked:   # a site no list picked is in the directory
            hubs[0].site_hosts.append(host)
    for hub in hubs:
        hub.site_hosts.sort(key=lambda host: rng.random())   # listing order is the hub's own
    # The directory links the partner list and the blog; the blog links back to the directory.
    hubs[0].hub_hosts = [hubs[1].host, hubs[3].host]
    hubs[3].hub_hosts = [hubs[0].host]
    return hubs


def render_hub(hub: Hub, homes: dict[str, str] | None = None) -> bytes:
    """The hub's home page: a list of links to site home pages (`homes`: host → URL, else the
    host's root) and to other hubs."""
    homes = homes or {}
    items = "\n".join(f'  <li><a href="{html.escape(homes.get(host) or f"http://{host}/")}">{html.escape(host)}</a></li>'
                      for host in hub.site_hosts)
    others = "\n".join(f'  <li><a href="http://{host}/">More links ({host})</a></li>' for host in hub.hub_hosts)
    page = (f'<!DOCTYPE html>\n<html lang="en">\n<head><meta charset="utf-8"><title>{html.escape(hub.title)}'
            f'</title></head>\n<body>\n<h1>{html.escape(hub.title)}</h1>\n<ul>\n{items}\n</ul>\n'
            + (f"<h2>Other lists</h2>\n<ul>\n{others}\n</ul>\n" if others else "")
            + "</body>\n</html>\n")
    return page.encode("utf-8")


def hub_robots() -> bytes:
    return b"User-agent: *\nAllow: /\n"


def seed_urls(hubs: list[Hub], homes: dict[str, str], seed: int = 0, extra_sites: int = 3) -> list[str]:
    """Seeds for crawls: every hub plus the home pages of a few sites picked by the seeded random."""
    rng = random.Random(seed + 1)
    picked = rng.sample(sorted(homes), min(extra_sites, len(homes)))
    return [hub.url for hub in hubs] + [homes[host] for host in picked]
