"""The sites of the test web: their kinds, hosts, URL layouts and the plan that picks them.

A site is described by a `SiteSpec`; pages are rendered later (pages.py) only when asked for,
so planning 200 sites x 50 pages is cheap. Every choice comes from a seeded `random.Random`,
so the same (seed, size, pages_per_site) always yields the same web.

Pairing conventions (`layout`) are the ones real bilingual sites use (Pupsniffer's URL
pairing patterns are learned from exactly these differences between paired URLs):
  dirs               /sr/x.html            /en/x.html      (tokens vary: /sr-latn/ /eng/, /srpski/ /english/)
  query              /index.php?page=x&lang=sr             ...&lang=en
  subdomain          www.site.rs/x.html    en.site.rs/x.html
  suffix-dot         /x.sr.html            /x.en.html
  suffix-underscore  /x.html               /x_en.html
  single             one language only: /x.html
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from . import heavy_tail

# Page languages: Serbian is written in two scripts, so it has two codes here.
ISO_OF = {"sr-cyrl": "sr", "sr-latn": "sr", "en": "en", "hr": "hr", "de": "de"}
HTML_LANG = {"sr-cyrl": "sr", "sr-latn": "sr-Latn", "en": "en", "hr": "hr", "de": "de"}

# Kinds of site (truth "kind").
BILINGUAL = "bilingual-sr-en"
SR_BOTH_SCRIPTS = "sr-cyrl-latn"      # Serbian in both scripts, no English: NOT sr–en bilingual
MONO_SR_CYRL = "mono-sr-cyrl"
MONO_SR_LATN = "mono-sr-latn"
MONO_EN = "mono-en"
MONO_HR = "mono-hr"
BILINGUAL_EN_DE = "bilingual-en-de"
DIRECTORY = "directory"
SPECIAL = "special"

# Page status within a two-language site.
TRANSLATED = "translated"
HALF = "half-translated"          # menu translated, body left in the first language
ORPHAN_FIRST = "orphan-first"     # exists only in the site's first language
ORPHAN_SECOND = "orphan-second"   # exists only in the second language

MENU_SLUGS = ("index", "o-nama", "usluge", "vesti", "kontakt")
_SLUG_STEMS = ("projekat", "dogadjaj", "saopstenje", "izlozba", "radionica", "konkurs",
               "putovanje", "predavanje", "izvestaj", "clanak")
_HOST_STEMS = ("zadruga", "turizam", "muzej", "biblioteka", "skola", "opstina", "pozoriste",
               "fondacija", "udruzenje", "klinika", "fabrika", "vinarija", "hotel", "galerija",
               "festival", "institut", "agencija", "sportklub", "planinari", "arhiv", "fakultet",
               "radio", "izdavac", "banja", "manastir", "pekara", "apoteka", "kancelarija",
               "zavod", "centar", "savez", "komora", "orkestar", "hor", "akademija", "park")
_EN_STEMS = ("harbor", "northwind", "bluebird", "maplewood", "riverside", "oakridge",
             "stonebridge", "lakeview", "redwood", "silverline")
_HR_STEMS = ("tvrtka", "obitelj", "jadran", "dalmacija", "zagorje", "otok", "luka", "sabor")
_DE_STEMS = ("verein", "stiftung", "werkstatt", "gasthaus", "verlag", "schule")
_DIRECTORY_HOSTS = ("www.imenik.rs", "www.katalog-sajtova.rs", "www.linkovi.rs")


@dataclass
class SiteSpec:
    """One generated site. `languages` are page-language codes, first = the 'source' side."""

    index: int
    kind: str
    host: str
    languages: tuple[str, ...]
    layout: str = "single"
    tokens: dict[str, str] = field(default_factory=dict)   # language → URL token (dir, suffix, param)
    lang_hosts: dict[str, str] = field(default_factory=dict)  # subdomain layout only
    switcher: str = "none"        # text | code | flag-alt | flag-bare | none
    hreflang: bool = False
    wrong_html_lang: bool = False  # every page says lang="en", as some real sites do
    robots: str = "none"          # none (404) | disallow | crawl-delay | error-500 | garbage
    links_page: bool = False      # a "partneri"/"links" hub page pointing to many sites
    sitemap: str = "none"         # none | robots-index | root (sitemap_files.py)
    slugs: tuple[str, ...] = ()
    status: dict[str, str] = field(default_factory=dict)  # slug → page status
    partners: tuple[int, ...] = ()   # indexes of sites linked from every page's footer
    hub_targets: tuple[int, ...] = ()  # indexes linked from the links page / directory
    name: str = ""

    @property
    def hosts(self) -> tuple[str, ...]:
        extra = tuple(h for h in self.lang_hosts.values() if h != self.host)
        return (self.host,) + extra

    def host_for(self, lang: str) -> str:
        return self.lang_hosts.get(lang, self.host)

    def has_page(self, lang: str, slug: str) -> bool:
        state = self.status.get(slug, TRANSLATED)
        if len(self.languages) < 2:
            return lang == self.languages[0]
        if state == ORPHAN_FIRST:
            return lang == self.languages[0]
        if state == ORPHAN_SECOND:
            return lang == self.languages[1]
        return lang in self.languages

    def home_url(self, lang: str | None = None) -> str:
        return self.url(lang or self.languages[0], "index")

    def url(self, lang: str, slug: str) -> str:
        """The canonical URL of one page (the one links and the truth use)."""
        host = self.host_for(lang)
        token = self.tokens.get(lang, "")
        home = slug == "index"
        if self.layout == "dirs":
            return f"http://{host}/{token}/" if home else f"http://{host}/{token}/{slug}.html"
        if self.layout == "query":
            return (f"http://{host}/?lang={token}" if home
                    else f"http://{host}/index.php?page={slug}&lang={token}")
        if self.layout == "suffix-dot":
            return f"http://{host}/{slug}.{token}.html"
        if self.layout == "suffix-underscore":
            if token:
                return f"http://{host}/{slug}_{token}.html"
            return f"http://{host}/" if home else f"http://{host}/{slug}.html"
        # single and subdomain: one tree per host
        return f"http://{host}/" if home else f"http://{host}/{slug}.html"

    def root_redirect(self) -> str | None:
        """Where "/" sends a visitor when it is not itself a page."""
        if self.layout in ("dirs", "suffix-dot"):
            return self.home_url()
        return None


# Bilingual variants in the order the plan introduces them: (layout, tokens, script, switcher, hreflang).
_BILINGUAL_VARIANTS = (
    ("dirs", {"sr": "sr", "en": "en"}, "sr-cyrl", "text", True),
    ("query", {"sr": "sr", "en": "en"}, "sr-latn", "code", False),
    ("subdomain", {}, "sr-cyrl", "flag-alt", True),
    ("suffix-dot", {"sr": "sr", "en": "en"}, "sr-latn", "flag-bare", False),
    ("suffix-underscore", {"sr": "", "en": "en"}, "sr-cyrl", "text", True),
    ("dirs", {"sr": "srpski", "en": "english"}, "sr-latn", "text", False),
    ("dirs", {"sr": "sr-latn", "en": "eng"}, "sr-latn", "flag-alt", True),
)
_FILL_KINDS = (BILINGUAL, MONO_SR_LATN, BILINGUAL, MONO_EN, BILINGUAL, MONO_SR_CYRL, MONO_HR,
               BILINGUAL, BILINGUAL_EN_DE, BILINGUAL, SR_BOTH_SCRIPTS)


_KIND_NAMES = {"bilingual": BILINGUAL, "mono_sr_latn": MONO_SR_LATN, "mono_sr_cyrl": MONO_SR_CYRL,
               "mono_en": MONO_EN, "mono_hr": MONO_HR, "bilingual_en_de": BILINGUAL_EN_DE,
               "sr_both": SR_BOTH_SCRIPTS, "directory": DIRECTORY}


def _mandatory_kinds() -> list[tuple[str, int]]:
    mandatory: list[tuple[str, int]] = [(DIRECTORY, 0), (SPECIAL, 0)]
    mandatory += [(BILINGUAL, v) for v in range(len(_BILINGUAL_VARIANTS))]
    mandatory += [(SR_BOTH_SCRIPTS, 0), (MONO_SR_CYRL, 0), (MONO_SR_LATN, 0), (MONO_EN, 0),
                  (MONO_HR, 0), (BILINGUAL_EN_DE, 0), (DIRECTORY, 0)]
    return mandatory


def _kind_sequence(size: int) -> list[tuple[str, int]]:
    """(kind, bilingual variant) for each site: every kind first, then a mix."""
    sequence = _mandatory_kinds()[:size]
    variant = 0
    while len(sequence) < size:
        i = len(sequence)
        if i % 20 == 0:
            sequence.append((DIRECTORY, 0))
            continue
        kind = _FILL_KINDS[i % len(_FILL_KINDS)]
        if kind == BILINGUAL:
            variant = (variant + 1) % len(_BILINGUAL_VARIANTS)
        sequence.append((kind, variant))
    return sequence


class _HostNamer:
    def __init__(self, rng: random.Random):
        self.used: set[str] = set()
        self.pools = {}
        for key, stems in (("rs", _HOST_STEMS), ("com", _EN_STEMS), ("hr", _HR_STEMS),
                           ("de", _DE_STEMS)):
            pool = list(stems)
            rng.shuffle(pool)
            self.pools[key] = pool
        self.counters = {key: 0 for key in self.pools}

    def take(self, tld: str, fixed: str | None = None) -> str:
        if fixed and fixed not in self.used:
            self.used.add(fixed)
            return fixed
        pool = self.pools[tld]
        while True:
            n = self.counters[tld]
            self.counters[tld] += 1
            stem = pool[n % len(pool)]
            suffix = "" if n < len(pool) else str(n // len(pool) + 1)
            host = f"www.{stem}{suffix}.{tld}"
            if host not in self.used:
                self.used.add(host)
                return host


def _slugs(rng: random.Random, count: int) -> tuple[str, ...]:
    slugs = list(MENU_SLUGS[:count])
    while len(slugs) < count:
        slugs.append(f"{rng.choice(_SLUG_STEMS)}-{len(slugs)}")
    return tuple(slugs)


def _statuses(rng: random.Random, slugs: tuple[str, ...]) -> dict[str, str]:
    """Most pages translated; with 6+ pages always one of each imperfect kind, at the end."""
    status = {slug: TRANSLATED for slug in slugs}
    if len(slugs) >= 6:
        status[slugs[-1]] = ORPHAN_FIRST
        status[slugs[-2]] = HALF
        status[slugs[-3]] = ORPHAN_SECOND
        for slug in slugs[len(MENU_SLUGS):-3]:
            roll = rng.random()
            status[slug] = (HALF if roll < 0.08 else ORPHAN_FIRST if roll < 0.16
                            else ORPHAN_SECOND if roll < 0.2 else TRANSLATED)
    return status


def plan_sites(seed: int, size: int, pages_per_site: int,
               size_distribution: str = heavy_tail.UNIFORM) -> list[SiteSpec]:
    """The deterministic list of sites of one test web. With ``size_distribution="heavy-tailed"``
    (heavy_tail.py) site sizes and kinds are drawn as on the real web and ``pages_per_site`` is the
    largest site's number of slugs."""
    if not isinstance(size, int) or size < 1:
        raise ValueError(f"size must be a positive number of sites, got {size!r}")
    if not isinstance(pages_per_site, int) or pages_per_site < 1:
        raise ValueError(f"pages_per_site must be a positive integer, got {pages_per_site!r}")
    heavy = heavy_tail.check_distribution(size_distribution) == heavy_tail.HEAVY_TAILED
    if heavy:
        kinds = heavy_tail.kind_sequence(seed, size, _mandatory_kinds(), _KIND_NAMES, len(_BILINGUAL_VARIANTS))
        slug_counts = heavy_tail.slug_counts(seed, size, pages_per_site)
    else:
        kinds, slug_counts = _kind_sequence(size), [pages_per_site] * size
    rng = random.Random(f"testweb-plan-{seed}")
    namer = _HostNamer(rng)
    sites: list[SiteSpec] = []
    first_bilingual = True
    directories = 0
    for index, (kind, variant) in enumerate(kinds):
        site = SiteSpec(index=index, kind=kind, host="", languages=())
        if kind == DIRECTORY:
            site.host = namer.take("rs", _DIRECTORY_HOSTS[directories % 3] if directories < 3 else None)
            directories += 1
            site.languages = ("sr-latn",)
        elif kind == SPECIAL:
            site.host = namer.take("rs", "www.problemi.rs")
            site.languages = ("sr-latn",)
        elif kind == BILINGUAL:
            layout, tokens, script, switcher, hreflang = _BILINGUAL_VARIANTS[variant]
            site.host = namer.take("rs", "www.primer.rs" if first_bilingual else None)
            first_bilingual = False
            site.languages = (script, "en")
            site.layout, site.switcher, site.hreflang = layout, switcher, hreflang
            site.tokens = {script if k == "sr" else k: v for k, v in tokens.items()}
            if layout == "subdomain":
                bare = site.host.removeprefix("www.")
                site.lang_hosts = {script: site.host, "en": f"en.{bare}"}
            site.wrong_html_lang = tokens.get("sr") == "srpski"
        elif kind == SR_BOTH_SCRIPTS:
            site.host = namer.take("rs")
            site.languages = ("sr-cyrl", "sr-latn")
            site.layout, site.switcher = "dirs", "text"
            site.tokens = {"sr-cyrl": "sr-cyrl", "sr-latn": "sr-latn"}
        elif kind == BILINGUAL_EN_DE:
            site.host = namer.take("de")
            site.languages = ("de", "en")
            site.layout, site.switcher, site.hreflang = "dirs", "code", True
            site.tokens = {"de": "de", "en": "en"}
        else:
            tld = {MONO_EN: "com", MONO_HR: "hr"}.get(kind, "rs")
            site.host = namer.take(tld)
            site.languages = ({MONO_EN: ("en",), MONO_HR: ("hr",),
                               MONO_SR_CYRL: ("sr-cyrl",)}).get(kind, ("sr-latn",))
        site.name = site.host.removeprefix("www.").split(".")[0].replace("-", " ").title()
        site_rng = random.Random(f"testweb-site-{seed}-{index}")
        if kind not in (DIRECTORY, SPECIAL):
            site.slugs = _slugs(site_rng, slug_counts[index])
            if len(site.languages) == 2:
                site.status = _statuses(site_rng, site.slugs)
        sites.append(site)
    _assign_robots(sites)
    _assign_sitemaps(sites)
    links_rng = random.Random(f"testweb-links-{seed}")
    if heavy:
        heavy_tail.assign_links(sites, links_rng, DIRECTORY, SPECIAL)
    else:
        _assign_links(sites, links_rng)
    return sites


def _assign_robots(sites: list[SiteSpec]) -> None:
    # One site of each robots variant among the mandatory ones, then a few more in the fill.
    wanted = {BILINGUAL: ["disallow", "crawl-delay"], MONO_EN: ["error-500"], MONO_HR: ["garbage"]}
    for site in sites:
        queue = wanted.get(site.kind)
        if queue:
            site.robots = queue.pop(0)
        elif site.kind in (BILINGUAL, MONO_SR_LATN, MONO_SR_CYRL) and site.index >= 20:
            site.robots = ("disallow" if site.index % 7 == 0
                           else "crawl-delay" if site.index % 11 == 0 else "none")


def _assign_sitemaps(sites: list[SiteSpec]) -> None:
    # Two bilingual sites without hreflang in their pages: their sitemaps alone declare the pairs.
    wanted = [("suffix-dot", "robots-index"), ("dirs", "root")]
    for site in sites:
        if (wanted and site.kind == BILINGUAL and not site.hreflang and site.robots == "none"
                and site.layout == wanted[0][0]):
            site.sitemap = wanted.pop(0)[1]


def _assign_links(sites: list[SiteSpec], rng: random.Random) -> None:
    """Footer partners, hub pages and directories: the link graph between sites."""
    content = [s.index for s in sites if s.kind not in (DIRECTORY, SPECIAL)]
    directories = [s for s in sites if s.kind == DIRECTORY]
    for site in sites:
        if site.kind in (DIRECTORY, SPECIAL) or len(content) < 2:
            continue
        others = [i for i in content if i != site.index]
        site.partners = tuple(sorted(rng.sample(others, min(len(others), rng.randint(1, 2)))))
        # Every fourth content site has a "partneri"/"links" page: a hub for co-citation.
        if site.index % 4 == 1:
            site.links_page = True
            site.hub_targets = tuple(sorted(rng.sample(others, min(len(others), 10))))
    for number, directory in enumerate(directories):
        # Together the directories list every site; each also lists a random quarter.
        listed = {i for i in content if i % len(directories) == number}
        listed |= {i for i in content if rng.random() < 0.25}
        directory.hub_targets = tuple(sorted(listed))
