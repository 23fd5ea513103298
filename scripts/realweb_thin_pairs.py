"""List the real web's thin sr–en pairs for a blind audit by the thin-page rule (data/realweb/README.md).

    .venv/bin/python scripts/realweb_thin_pairs.py [--web /work/realweb] [--under 300] > thin.json

A pair is thin when the shorter of its two *bodies* (the lines beyond the site's template, as the
pair classifier reads them: evaluation.bodies.page_body) is under ``--under`` characters. Each item
gives the site, the two URLs, both pages' visible text (as the crawler stores it) and the two
bodies, and *not* the pair's current status, so that an auditor decides by the rule alone; the
statuses stay in the manifests, to be compared with the audit afterwards.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from crawlweb.crawler.htmlparse import parse_html  # noqa: E402
from frontier.classifiers.real_sites import load_truth, site_pages  # noqa: E402
from evaluation.bodies.page_body import SiteLines, bodies  # noqa: E402

TEXT_CHARS = 4000  # enough of a thin page to read it whole


def site_texts(web: Path, host: str) -> dict[str, str]:
    """Every page of the site as the crawler stores its text (its template is counted over all of them)."""
    return {url: parse_html(path.read_text(encoding="utf-8", errors="replace"), url).text
            for url, path in site_pages(web, host)}


def thin_pairs(web: Path, under: int) -> list[dict]:
    found = []
    for site in load_truth(web):
        if not site.get("bilingual_sr_en") or not site.get("parallel_pairs"):
            continue
        texts = site_texts(web, site["host"])
        template = SiteLines.from_texts(texts.values())
        for sr, en in site["parallel_pairs"]:
            if sr not in texts or en not in texts:
                continue
            sr_body, en_body = ("\n".join(lines) for lines in bodies(texts[sr], texts[en], template))
            if min(len(sr_body), len(en_body)) < under:
                found.append({"site": site["host"], "sr": sr, "en": en,
                              "sr_text": texts[sr][:TEXT_CHARS], "en_text": texts[en][:TEXT_CHARS],
                              "sr_body_beyond_template": sr_body[:TEXT_CHARS],
                              "en_body_beyond_template": en_body[:TEXT_CHARS]})
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--web", type=Path, default=Path("/work/realweb"), help="a built real web (truth.json, hosts/)")
    parser.add_argument("--under", type=int, default=300, help="a body shorter than this many characters is thin")
    args = parser.parse_args()
    if not (args.web / "truth.json").is_file():
        raise SystemExit(f"{args.web} holds no truth.json: build it first (scripts/build_realweb.py --out {args.web})")
    found = thin_pairs(args.web, args.under)
    json.dump(found, sys.stdout, ensure_ascii=False, indent=1)
    print(f"{len(found)} thin pairs", file=sys.stderr)


if __name__ == "__main__":
    main()
