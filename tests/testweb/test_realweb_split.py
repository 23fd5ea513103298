"""The real development web's dev-train / dev-test split (crawlweb/testweb/realweb_split.py and its record
data/realweb/split.json): made once, seeded, stratified, and never moving a site already placed."""
from __future__ import annotations

import hashlib
import json
import random
from collections import Counter
from pathlib import Path

import pytest

from crawlweb.testweb.realweb_split import (
    TEST, TRAIN, assign_parts, make_record, part_counts, recorded_parts, stratum)

ROOT = Path(__file__).resolve().parents[2]
STRATA = ("sr-en",) * 6 + ("hr", "hr", "bs", "cnr", "mk", "sl", "sr", "en")


def web(n: int, seed: int = 0) -> dict[str, str]:
    """{host: stratum} of n made-up sites, two thirds of them sr–en."""
    rng = random.Random(seed)
    return {f"site{i}.owner{rng.randrange(10_000)}.gh.test": rng.choice(STRATA) for i in range(n)}


def test_a_negative_stands_for_its_language_and_a_bilingual_site_for_sr_en():
    assert stratum(True, ["en", "sr-Latn", "de"]) == "sr-en"
    assert stratum(False, ["en", "hr"]) == "hr"
    assert stratum(False, ["en", "hr", "sl"]) == "sl"
    assert stratum(False, ["de", "ru", "sr-Latn"]) == "sr"
    assert stratum(False, ["sr-Cyrl", "sr-Latn"]) == "sr"
    assert stratum(False, ["en"]) == "en"
    assert stratum(False, ["de", "fr"]) == "other"


def test_an_existing_host_never_changes_part_when_hosts_are_added():
    old = web(80, seed=1)
    first = assign_parts(old, {})
    grown = dict(old, **web(120, seed=2))
    for more in (5, 40, 300):
        grown.update(web(more, seed=more))
        again = assign_parts(grown, first)
        assert {host: again[host] for host in old} == first
        assert set(again) == set(grown)


def test_the_record_keeps_its_parts_when_a_manifest_is_added_or_removed():
    sites = web(60, seed=3)
    record = make_record(sites)
    removed = sorted(sites)[0]
    fewer = {h: s for h, s in sites.items() if h != removed}
    more = dict(fewer, **{"new.someone.gh.test": "mk"})
    changed = make_record(more, json.loads(json.dumps(record)))
    assert removed not in changed["sites"]
    assert all(changed["sites"][h]["part"] == record["sites"][h]["part"] for h in fewer)
    assert changed["sites"]["new.someone.gh.test"]["part"] in (TRAIN, TEST)


def test_every_stratum_of_two_or_more_sites_is_in_both_parts_about_sixty_to_forty():
    sites = web(150, seed=4)
    parts = assign_parts(sites, {})
    for name, counts in part_counts(parts, sites).items():
        total = counts[TRAIN] + counts[TEST]
        if total >= 2:
            assert counts[TRAIN] and counts[TEST], name
        assert abs(counts[TRAIN] - 0.6 * total) <= 1, (name, counts)
    assert abs(Counter(parts.values())[TRAIN] - 0.6 * len(sites)) <= len(set(sites.values()))


def test_the_seed_decides_not_the_order_the_sites_were_listed_in():
    sites = web(50, seed=5)
    backwards = dict(reversed(list(sites.items())))
    assert assign_parts(sites, {}) == assign_parts(backwards, {})
    assert assign_parts(sites, {}, seed=31) != assign_parts(sites, {}, seed=32)


def test_a_recorded_part_that_is_no_part_is_refused():
    with pytest.raises(ValueError, match="dev-train or dev-test"):
        assign_parts({"a.gh.test": "sr-en"}, {"a.gh.test": "test"})


def test_the_committed_record_gives_every_manifest_one_part_and_is_up_to_date():
    record = json.loads((ROOT / "data" / "realweb" / "split.json").read_text(encoding="utf-8"))
    strata = {}
    for path in sorted((ROOT / "data" / "realweb" / "sites").glob("*.json")):
        manifest = json.loads(path.read_text(encoding="utf-8"))
        strata[manifest["host"]] = stratum(manifest["bilingual_sr_en"], manifest["languages"])
    parts = recorded_parts(record)
    assert set(parts) == set(strata), "run scripts/realweb_split.py"
    assert set(parts.values()) == {TRAIN, TEST}
    assert make_record(strata, record) == record, "run scripts/realweb_split.py"
    for name, counts in part_counts(parts, strata).items():
        if counts[TRAIN] + counts[TEST] >= 2:
            assert counts[TRAIN] and counts[TEST], f"stratum {name} is in one part only"


def test_hosts_listed_dev_train_only_go_to_dev_train_and_move_no_other_host():
    old = web(60, seed=6)
    first = assign_parts(old, {})
    batch = web(25, seed=7)
    grown = dict(old, **batch)
    again = assign_parts(grown, first, train_only=batch)
    assert {host: again[host] for host in old} == first
    assert {again[host] for host in batch} == {TRAIN}
    # without the list the rule would have sent some of the batch to dev-test
    assert TEST in {assign_parts(grown, first)[host] for host in batch}


def test_a_dev_test_host_cannot_be_listed_dev_train_only():
    with pytest.raises(ValueError, match="dev-test host"):
        assign_parts({"a.gh.test": "sr-en"}, {"a.gh.test": TEST}, train_only=["a.gh.test"])
    with pytest.raises(ValueError, match="list of host names"):
        make_record({"a.gh.test": "sr-en"}, {"seed": 31, "train_share": 0.6, "sites": {}, "dev_train_only": "a.gh.test"})


# dev-test's 61 hosts as first reported (2026-11-29, issue 31): SHA-256 of their sorted names joined by "\n".
# Batches added since grow dev-train only (data/realweb/README.md, *The split*), so this never changes.
DEV_TEST_HOSTS = 61
DEV_TEST_DIGEST = "56713342b7595eb6143988946a331a2f0cd34039836efd96867296ca6aca74b8"


def test_dev_test_membership_is_the_one_first_reported():
    record = json.loads((ROOT / "data" / "realweb" / "split.json").read_text(encoding="utf-8"))
    test_hosts = sorted(host for host, part in recorded_parts(record).items() if part == TEST)
    assert len(test_hosts) == DEV_TEST_HOSTS
    assert hashlib.sha256("\n".join(test_hosts).encode("utf-8")).hexdigest() == DEV_TEST_DIGEST
