"""Give every site of the real development web its part, dev-train or dev-test, in data/realweb/split.json.

    .venv/bin/python scripts/realweb_split.py            # add the new manifests' hosts to the record
    .venv/bin/python scripts/realweb_split.py --check    # exit 1 when the record lacks a host or names a removed one
    .venv/bin/python scripts/realweb_split.py --new-to-dev-train   # the new manifests' hosts all go to dev-train

The record keeps the part of every host it already holds; a host it does not hold yet gets one by
the seeded rule of crawlweb/testweb/realweb_split.py (stratified by kind: sr–en sites and the
negatives of each language). With --new-to-dev-train the new hosts are listed in the record's
"dev_train_only" and all go to dev-train, so that dev-test's membership stays fixed (a batch added after
dev-test's figures were reported). Features, thresholds and rules are chosen on dev-train only; dev-test
is run only to report (data/realweb/README.md, *The split*).
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from crawlweb.testweb.realweb_split import PARTS, make_record, part_counts, recorded_parts, stratum  # noqa: E402

REPO_ROOT = Path(__file__).resolve().parents[1]


def manifest_strata(folder: Path) -> dict[str, str]:
    """{host: stratum} of every manifest in ``folder``."""
    strata = {}
    for path in sorted(folder.glob("*.json")):
        manifest = json.loads(path.read_text(encoding="utf-8"))
        strata[manifest["host"]] = stratum(bool(manifest["bilingual_sr_en"]), manifest["languages"])
    if not strata:
        raise SystemExit(f"error: no manifests (*.json) in {folder}")
    return strata


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--manifests", type=Path, default=REPO_ROOT / "data" / "realweb" / "sites")
    parser.add_argument("--split", type=Path, default=REPO_ROOT / "data" / "realweb" / "split.json")
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 when the record is not up to date")
    parser.add_argument("--new-to-dev-train", action="store_true",
                        help="list the hosts the record does not hold yet as dev_train_only: they all go to dev-train")
    args = parser.parse_args(argv)
    strata = manifest_strata(args.manifests)
    old = json.loads(args.split.read_text(encoding="utf-8")) if args.split.exists() else None
    if args.new_to_dev_train and not args.check:
        if old is None:
            raise SystemExit("error: --new-to-dev-train needs an existing record (the first split is made by the rule)")
        new = sorted(set(strata) - set(recorded_parts(old)))
        old = dict(old, dev_train_only=sorted(set(old.get("dev_train_only", [])) | set(new)))
    record = make_record(strata, old)
    before = recorded_parts(old) if old else {}
    added = sorted(set(record["sites"]) - set(before))
    removed = sorted(set(before) - set(record["sites"]))
    for host in added:
        print(f"new: {host} ({record['sites'][host]['stratum']}) → {record['sites'][host]['part']}")
    for host in removed:
        print(f"removed (no manifest): {host}")
    parts = {host: entry["part"] for host, entry in record["sites"].items()}
    for name, counts in part_counts(parts, strata).items():
        print(f"  {name:6} " + "  ".join(f"{part} {counts[part]:3}" for part in PARTS))
    print("  all    " + "  ".join(f"{part} {sum(p == part for p in parts.values()):3}" for part in PARTS))
    if args.check:
        stale = added or removed or old is None or old != record
        if stale:
            print(f"error: {args.split} is not up to date: run scripts/realweb_split.py", file=sys.stderr)
        return 1 if stale else 0
    args.split.write_text(json.dumps(record, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {args.split}: {len(parts)} sites")
    return 0


if __name__ == "__main__":
    sys.exit(main())
