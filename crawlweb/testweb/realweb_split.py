"""The real development web's split by site into dev-train and dev-test (Issue 31, item 1).

Features, thresholds and rules are chosen on dev-train only; dev-test is run only to report. The
split is made once and never changes for a site already in it: data/realweb/split.json records
every host's part, and ``assign_parts`` only ever adds hosts to that record.

The seeded rule, for the hosts the record does not hold yet:
- each site has a *stratum*: ``sr-en`` for a Serbian–English site; for a negative the language it
  stands for (``mk``, ``sl``, ``cnr``, ``bs``, ``hr``; ``sr`` for Serbian without English or with a
  third language only; ``en`` for English only; ``other`` else), so each part gets sr–en sites and
  negatives of each language;
- the new hosts of a stratum are taken in the order of SHA-256 of ``"<seed>:<host>"``, and each
  goes to the part that keeps its stratum nearer the train share (60 % dev-train) counting every
  host the stratum already has, old and new; a tie goes to dev-train. So a stratum of two or
  more sites has both parts, and which host takes which place is the seeded hash's choice, not
  the order the manifests were written in.

Hosts the record lists under ``dev_train_only`` go to dev-train whatever the rule says: a batch of sites
added after dev-test's figures were first reported grows dev-train only, so that dev-test's membership (and
its figures) stay comparable across sessions. Such hosts are not counted when the rule places later hosts
(they would otherwise push the rule's next hosts of their stratum towards dev-test).

Pure: no Django, no files (scripts/realweb_split.py reads and writes the record).
"""
from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Iterable, Mapping

TRAIN, TEST = "dev-train", "dev-test"
PARTS = (TRAIN, TEST)
SEED = 31
TRAIN_SHARE = 0.6
SERBIAN = ("sr-Latn", "sr-Cyrl", "sr")
# A negative stands for the first of these languages it has, the rarer first (kms-imm-spareparts
# has hr and sl: sl).
NEGATIVE_LANGUAGES = ("mk", "sl", "cnr", "bs", "hr")


def stratum(bilingual_sr_en: bool, languages: Iterable[str]) -> str:
    """The kind of site a part must hold some of: ``sr-en``, or the language a negative stands for."""
    if bilingual_sr_en:
        return "sr-en"
    found = set(languages)
    for language in NEGATIVE_LANGUAGES:
        if language in found:
            return language
    if found & set(SERBIAN):
        return "sr"
    if found == {"en"}:
        return "en"
    return "other"


def order_key(host: str, seed: int) -> str:
    return hashlib.sha256(f"{seed}:{host}".encode("utf-8")).hexdigest()


def assign_parts(strata: Mapping[str, str], recorded: Mapping[str, str], *, seed: int = SEED,
                 train_share: float = TRAIN_SHARE, train_only: Iterable[str] = ()) -> dict[str, str]:
    """{host: part} for every host of ``strata`` ({host: stratum}): the recorded part of a host the
    record holds ({host: part}), dev-train for a new host of ``train_only``, the seeded rule's part for
    the others (module docstring)."""
    bad = sorted(f"{host}: {part!r}" for host, part in recorded.items() if part not in PARTS)
    if bad:
        raise ValueError(f"a recorded part must be {TRAIN} or {TEST}: {', '.join(bad)}")
    train_only = set(train_only)
    moved = sorted(host for host in train_only if recorded.get(host) == TEST)
    if moved:
        raise ValueError(f"a dev-test host cannot be listed as dev-train only: {', '.join(moved)}")
    parts = {host: recorded[host] for host in strata if host in recorded}
    parts.update({host: TRAIN for host in strata if host in train_only})
    counts: dict[str, Counter] = {}
    for host, part in parts.items():
        if host not in train_only:
            counts.setdefault(strata[host], Counter())[part] += 1
    for host in sorted((h for h in strata if h not in parts), key=lambda h: (strata[h], order_key(h, seed))):
        seen = counts.setdefault(strata[host], Counter())
        target = train_share * (seen[TRAIN] + seen[TEST] + 1)
        part = TRAIN if abs(seen[TRAIN] + 1 - target) <= abs(seen[TRAIN] - target) else TEST
        parts[host] = part
        seen[part] += 1
    return parts


def part_counts(parts: Mapping[str, str], strata: Mapping[str, str]) -> dict[str, Counter]:
    """{stratum: Counter(part → hosts)}, for the record's summary and the README."""
    out: dict[str, Counter] = {}
    for host, part in parts.items():
        out.setdefault(strata[host], Counter())[part] += 1
    return dict(sorted(out.items()))


def recorded_parts(record: Mapping) -> dict[str, str]:
    """{host: part} of a split record (data/realweb/split.json's JSON: ``{"seed", "train_share",
    "sites": {host: {"part", "stratum"}}}``)."""
    sites = record.get("sites")
    if not isinstance(sites, Mapping):
        raise ValueError("a split record has a 'sites' object: {host: {'part': …, 'stratum': …}}")
    return {host: entry.get("part") if isinstance(entry, Mapping) else entry for host, entry in sites.items()}


def make_record(strata: Mapping[str, str], record: Mapping | None = None) -> dict:
    """The split record for the sites of ``strata`` ({host: stratum}): the given record's parts kept,
    the new hosts placed by its seed and share (a new record: SEED and TRAIN_SHARE); hosts the
    record holds that ``strata`` lacks (a manifest removed) are left out."""
    record = record or {}
    seed = int(record.get("seed", SEED))
    share = float(record.get("train_share", TRAIN_SHARE))
    train_only = record.get("dev_train_only", [])
    if not isinstance(train_only, list) or not all(isinstance(host, str) for host in train_only):
        raise ValueError("a split record's 'dev_train_only' is a list of host names")
    parts = assign_parts(strata, recorded_parts(record) if record else {}, seed=seed, train_share=share,
                         train_only=train_only)
    made = {"rule": "crawlweb/testweb/realweb_split.py (scripts/realweb_split.py writes this file)",
            "seed": seed, "train_share": share}
    if train_only:
        made["dev_train_only"] = sorted(host for host in train_only if host in strata)
    made["sites"] = {host: {"part": parts[host], "stratum": strata[host]} for host in sorted(parts)}
    return made
