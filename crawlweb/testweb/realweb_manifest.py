"""Manifests of the real development web: one JSON file per site (data/realweb/sites/<host>.json).

A manifest names a pinned repository commit, the files of the site under a root folder, and the
labels read by hand: every page's language, the parallel pairs and their status. This module
checks a manifest against itself, against the files of the commit and against the reserved
repositories, and turns it into a truth.json entry. Pure: no Django, no git (the builder
passes the commit's file list in). The schema is documented in data/realweb/README.md.
"""

from __future__ import annotations

import hashlib
import re

from crawlweb.testweb.realweb_aliases import alias_problems

KINDS = ("bilingual_sr_en", "negative")
# Labels as in shared/data/lid, plus any ISO 639-1/-3 code; "mixed" and "none" for pages only.
SOUTH_SLAVIC_LABELS = ("sr-Latn", "sr-Cyrl", "hr", "bs", "cnr", "sl", "mk", "en")
PAGE_ONLY_LABELS = ("mixed", "none")
SERBIAN = ("sr-Latn", "sr-Cyrl")
PAIR_STATUSES = ("translated", "partial", "boilerplate")
HTML_SUFFIXES = (".html", ".htm")
MAX_HTML_FILES = 80
MIN_READ_PAIRS = 3

_SOURCE = re.compile(r"^(?P<repo>[A-Za-z0-9][A-Za-z0-9_.-]*/[A-Za-z0-9][A-Za-z0-9_.-]*)@(?P<commit>[0-9a-f]{40})$")
_HOST = re.compile(r"^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9_-]*[a-z0-9])?)+$")
_ISO = re.compile(r"^[a-z]{2,3}$")
REQUIRED = {"host": str, "source": str, "root": str, "files": list, "kind": str, "languages": list,
            "bilingual_sr_en": bool, "page_languages": dict, "parallel_pairs": list,
            "pair_status": dict, "other_language_pairs": list, "traits": list,
            "checked_by_reading": list, "notes": str}
# "aliases": the site's own real origins (https://www.example.rs, https://user.github.io/repo) that its
# robots.txt, sitemaps and links name; the builder maps them to http://<host> (realweb_aliases.py).
OPTIONAL = {"aliases": list}


class ManifestError(ValueError):
    """A manifest breaks the schema or disagrees with its repository."""


def repo_hash(repo: str) -> str:
    """SHA-256 of the lower-cased owner/repo, as reserved-repos.sha256 lists them."""
    return hashlib.sha256(repo.lower().encode("utf-8")).hexdigest()


def default_host(repo: str, cname: str | None) -> str:
    """The repository's CNAME if it has one, else <repo>.<owner>.gh.test (lower-cased)."""
    if cname and cname.strip():
        first = cname.strip().splitlines()[0].strip().lower()
        return first.removeprefix("https://").removeprefix("http://").rstrip("/")
    owner, name = repo.split("/", 1)
    return f"{name}.{owner}.gh.test".lower().replace("_", "-")   # "_" is not valid in a host name


def home_path(manifest: dict) -> str:
    """The page a link to the site points at: "/" when the root has an index.html, else the
    site's own entry page (some real sites have none at the root: /sr.html, /index-en.html)."""
    pages = sorted(manifest["page_languages"], key=lambda path: (path.count("/"), "index" not in path, len(path)))
    if "/index.html" in manifest["page_languages"] or not pages:
        return "/"
    return pages[0]


def parse_source(source: str) -> tuple[str, str]:
    """(owner/repo, commit) of "owner/repo@<40 hex>"."""
    match = _SOURCE.match(source or "")
    if not match:
        raise ManifestError(f"source {source!r} is not owner/repo@<40-hex commit>")
    return match["repo"], match["commit"]


def is_html(path: str) -> bool:
    return path.lower().endswith(HTML_SUFFIXES)


def url_path(path: str) -> str:
    """The URL path of a file under the site's root: "/" + path."""
    return "/" + path.lstrip("/")


def repo_path(root: str, path: str) -> str:
    """The file's path inside the repository."""
    return f"{root.strip('/')}/{path}" if root.strip("/") else path


def _label_ok(label: str, *, page: bool) -> bool:
    return label in SOUTH_SLAVIC_LABELS or bool(_ISO.match(label)) or (page and label in PAGE_ONLY_LABELS)


def pair_key(pair: list[str]) -> str:
    return f"{pair[0]}|{pair[1]}"


def check_manifest(manifest: dict, *, repo_files: set[str] | None = None,
                   reserved: set[str] | frozenset[str] = frozenset()) -> list[str]:
    """Every problem of one manifest, as sentences; an empty list means it is sound.

    `repo_files` are the paths of the pinned commit (None skips the check that listed files
    exist); `reserved` are the hashes of reserved-repos.sha256."""
    problems = [f"key {key!r} is missing" for key in REQUIRED if key not in manifest]
    problems += [f"key {key!r} is not in the schema" for key in manifest if key not in REQUIRED | OPTIONAL]
    problems += [f"key {key!r} must be a {kind.__name__}" for key, kind in (REQUIRED | OPTIONAL).items()
                 if key in manifest and not isinstance(manifest[key], kind)]
    if problems:
        return problems
    try:
        repo, _ = parse_source(manifest["source"])
    except ManifestError as error:
        problems.append(str(error))
        repo = None
    if repo and repo_hash(repo) in reserved:
        problems.append(f"{repo} is a reserved repository: it must never be used")
    if not _HOST.match(manifest["host"]):
        problems.append(f"host {manifest['host']!r} is not a lower-case host name")
    if not manifest["notes"].strip():
        problems.append("notes are empty: say what the site is and why the labels")
    if manifest["kind"] not in KINDS:
        problems.append(f"kind {manifest['kind']!r} is not one of {', '.join(KINDS)}")
    elif manifest["bilingual_sr_en"] != (manifest["kind"] == "bilingual_sr_en"):
        problems.append("bilingual_sr_en must be true exactly when kind is bilingual_sr_en")
    problems += alias_problems(manifest.get("aliases", []))
    problems += _check_files(manifest, repo_files)
    problems += _check_languages(manifest)
    problems += _check_pairs(manifest)
    return problems


def _check_files(manifest: dict, repo_files: set[str] | None) -> list[str]:
    problems = []
    files = manifest["files"]
    if not files:
        problems.append("files is empty")
    if len(set(files)) != len(files):
        problems.append("files lists a path twice")
    for path in files:
        if not isinstance(path, str) or not path or path.startswith("/") or ".." in path.split("/"):
            problems.append(f"file {path!r} must be a relative path inside the root")
        elif repo_files is not None and repo_path(manifest["root"], path) not in repo_files:
            problems.append(f"file {repo_path(manifest['root'], path)!r} is not in the commit")
    html_count = sum(1 for path in files if isinstance(path, str) and is_html(path))
    if html_count == 0:
        problems.append("the site has no html file")
    if html_count > MAX_HTML_FILES:
        problems.append(f"{html_count} html files: keep a site to at most {MAX_HTML_FILES}")
    return problems


def _check_languages(manifest: dict) -> list[str]:
    problems = []
    pages = manifest["page_languages"]
    html_paths = {url_path(p) for p in manifest["files"] if isinstance(p, str) and is_html(p)}
    problems += [f"html page {p} has no page language" for p in sorted(html_paths - set(pages))]
    problems += [f"page_languages names {p}, which is not an html file of the site"
                 for p in sorted(set(pages) - html_paths)]
    problems += [f"page {p} has the unknown label {label!r}" for p, label in sorted(pages.items())
                 if not isinstance(label, str) or not _label_ok(label, page=True)]
    problems += [f"language {label!r} is not a known label" for label in manifest["languages"]
                 if not isinstance(label, str) or not _label_ok(label, page=False)]
    if manifest["kind"] == "bilingual_sr_en":
        if not set(manifest["languages"]) & set(SERBIAN) or "en" not in manifest["languages"]:
            problems.append("a bilingual_sr_en site must list en and sr-Latn or sr-Cyrl in languages")
    return problems


def _check_pairs(manifest: dict) -> list[str]:
    problems = []
    pages = manifest["page_languages"]
    pairs = manifest["parallel_pairs"]
    for pair in pairs + manifest["other_language_pairs"]:
        if not isinstance(pair, list) or len(pair) < 2:
            problems.append(f"pair {pair!r} must list two pages")
            continue
        problems += [f"pair side {side} is not an html page of the site" for side in pair[:2] if side not in pages]
    if problems:
        return problems
    keys = [pair_key(pair) for pair in pairs]
    if len(set(keys)) != len(keys):
        problems.append("parallel_pairs lists a pair twice")
    if manifest["kind"] == "negative" and pairs:
        problems.append("a negative site has no sr-en parallel_pairs (use other_language_pairs)")
    for pair in manifest["other_language_pairs"]:
        if len(pair) != 3 or not re.match(r"^[a-z]{2,3}(-[A-Za-z]{4})?-[a-z]{2,3}(-[A-Za-z]{4})?$", str(pair[2])):
            problems.append(f"other-language pair {pair!r} must be [page, page, 'xx-yy']")
    status = manifest["pair_status"]
    problems += [f"pair {key} has no pair_status" for key in keys if key not in status]
    problems += [f"pair_status names {key}, which is not a parallel pair" for key in status if key not in keys]
    problems += [f"pair_status of {key} is {value!r}, not one of {', '.join(PAIR_STATUSES)}"
                 for key, value in status.items() if value not in PAIR_STATUSES]
    for pair in pairs:
        sr_side, en_side = pages[pair[0]], pages[pair[1]]
        if status.get(pair_key(pair)) == "translated" and (sr_side not in SERBIAN or en_side != "en"):
            problems.append(f"translated pair {pair_key(pair)} joins {sr_side} and {en_side}, "
                            "not Serbian first and English second")
    # Entries are pairs read side by side, or (on sites with few pairs) lists of pages read.
    known = set(keys) | {pair_key(pair) for pair in manifest["other_language_pairs"]}
    read = manifest["checked_by_reading"]
    problems += [f"checked_by_reading names {entry!r}, which are not pages of the site" for entry in read
                 if not isinstance(entry, list) or not entry or any(page not in pages for page in entry)]
    read = [entry for entry in read if isinstance(entry, list) and len(entry) == 2 and pair_key(entry) in known]
    needed = min(MIN_READ_PAIRS, len(known))
    if len(read) < needed:
        problems.append(f"only {len(read)} pairs were read side by side; read at least {needed}")
    return problems


def truth_entry(manifest: dict) -> dict:
    """The site's entry in truth.json: paths become full URLs http://<host><path>."""
    base = f"http://{manifest['host']}"
    pairs = [[base + a, base + b] for a, b in manifest["parallel_pairs"]]
    return {
        "host": manifest["host"], "source": manifest["source"], "kind": "real",
        "realweb_kind": manifest["kind"], "languages": list(manifest["languages"]),
        "bilingual_sr_en": manifest["bilingual_sr_en"], "parallel_pairs": pairs,
        "parallel_pairs_translated": [pair for pair, raw in zip(pairs, manifest["parallel_pairs"])
                                      if manifest["pair_status"].get(pair_key(raw)) == "translated"],
        "pair_status": {f"{base}{a} {base}{b}": manifest["pair_status"][pair_key([a, b])]
                        for a, b in manifest["parallel_pairs"]},
        "other_language_pairs": [[base + p[0], base + p[1], p[2]] for p in manifest["other_language_pairs"]],
        "page_languages": {base + path: label for path, label in sorted(manifest["page_languages"].items())},
        "aliases": list(manifest.get("aliases", [])),
        "home": base + home_path(manifest), "traits": list(manifest["traits"]), "n_pages": len(manifest["page_languages"]),
        "notes": manifest["notes"],
    }
