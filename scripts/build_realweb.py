"""Build the real development web from the site manifests and the fetched repository mirrors.

    .venv/bin/python scripts/build_realweb.py [--out DIR] [--manifests data/realweb/sites]
        [--mirrors /work/.mirror] [--reserved ../shared/data/reserved-repos.sha256] [--check-only]

Each manifest (data/realweb/sites/<host>.json, schema in data/realweb/README.md) names a pinned
commit; its files are read from the bare mirror /work/.mirror/<owner>+<repo> with `git show` and
written to <out>/hosts/<host>/<path>, with the site's own real origins (the manifest's "aliases")
mapped to http://<host> in robots.txt, sitemaps and hreflang/canonical links
(crawlweb/testweb/realweb_aliases.py). Hub pages (crawlweb/testweb/realweb_hubs.py) are written
beside them, and <out>/truth.json in the format of shared/data/real-sites/truth.json, with
page_languages, hubs and seed_urls added. <out> defaults to REAL_WEB_DIR.

Every manifest is checked first (files exist at the commit, every html page has a language, pair
sides are pages of the site, no reserved repository); any problem stops the build with exit
status 1, naming the manifest and the problem, and leaves <out> untouched.
"""
from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from crawlweb.devdata import real_web_dir, shared_data_dir  # noqa: E402
from crawlweb.testweb import realweb_hubs  # noqa: E402
from crawlweb.testweb.realweb_aliases import map_aliases  # noqa: E402
from crawlweb.testweb.realweb_manifest import (  # noqa: E402
    ManifestError, check_manifest, home_path, parse_source, repo_path, truth_entry)

REPO_ROOT = Path(__file__).resolve().parents[1]
HUB_SEED = 16


class BuildError(Exception):
    """A manifest or its mirror cannot be used; the message names which and why."""


def git_dir(mirrors: Path, repo: str) -> Path:
    """The bare git directory `fetch` made for owner/repo."""
    base = mirrors / repo.replace("/", "+")
    for candidate in (base / "repo" / ".git", base / "repo", base):
        if (candidate / "objects").is_dir() and (candidate / "HEAD").is_file():
            return candidate
    raise BuildError(f"no mirror of {repo} under {base}: fetch it first "
                     f"(the fetch tool with source github:{repo})")


def commit_files(git: Path, commit: str) -> set[str]:
    listed = subprocess.run(["git", "--git-dir", str(git), "ls-tree", "-r", "--name-only", "-z", commit],
                            capture_output=True)
    if listed.returncode != 0:
        raise BuildError(f"commit {commit} is not in {git}: fetch the repository again "
                         f"({listed.stderr.decode(errors='replace').strip()})")
    return {name for name in listed.stdout.decode("utf-8", errors="surrogateescape").split("\0") if name}


def file_bytes(git: Path, commit: str, path: str) -> bytes:
    shown = subprocess.run(["git", "--git-dir", str(git), "show", f"{commit}:{path}"], capture_output=True)
    if shown.returncode != 0:
        raise BuildError(f"cannot read {path} at {commit} in {git}")
    return shown.stdout


def load_manifests(folder: Path) -> list[tuple[Path, dict]]:
    paths = sorted(folder.glob("*.json"))
    if not paths:
        raise BuildError(f"no manifests (*.json) in {folder}")
    loaded = []
    for path in paths:
        try:
            manifest = json.loads(path.read_text(encoding="utf-8"))
        except ValueError as error:
            raise BuildError(f"{path}: not valid JSON ({error})") from error
        if not isinstance(manifest, dict):
            raise BuildError(f"{path}: a manifest is a JSON object")
        loaded.append((path, manifest))
    return loaded


def verify(manifests: list[tuple[Path, dict]], mirrors: Path, reserved: set[str]) -> list[str]:
    """Every problem of every manifest, each prefixed with the manifest's file name."""
    problems, hosts = [], {}
    for path, manifest in manifests:
        try:
            repo, commit = parse_source(manifest.get("source", ""))
            files = commit_files(git_dir(mirrors, repo), commit)
        except (ManifestError, BuildError) as error:
            problems.append(f"{path.name}: {error}")
            files = None
        found = check_manifest(manifest, repo_files=files, reserved=reserved)
        host = manifest.get("host")
        if isinstance(host, str) and path.stem != host:
            found.append(f"the file must be named {host}.json")
        if host in hosts:
            found.append(f"host {host} is also the host of {hosts[host]}")
        hosts[host] = path.name
        problems += [f"{path.name}: {problem}" for problem in found]
    return problems


def write_corpus(manifests: list[dict], mirrors: Path, out: Path) -> dict:
    """Write hosts/ and truth.json into a fresh folder, then put it in place of `out`."""
    out.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".realweb-", dir=out.parent))
    try:
        for manifest in manifests:
            repo, commit = parse_source(manifest["source"])
            git = git_dir(mirrors, repo)
            for path in manifest["files"]:
                target = staging / "hosts" / manifest["host"] / path
                target.parent.mkdir(parents=True, exist_ok=True)
                data = file_bytes(git, commit, repo_path(manifest["root"], path))
                target.write_bytes(map_aliases(path, data, manifest.get("aliases", []), manifest["host"]))
        homes = {manifest["host"]: f"http://{manifest['host']}{home_path(manifest)}" for manifest in manifests}
        hubs = realweb_hubs.plan_hubs(list(homes), seed=HUB_SEED)
        for hub in hubs:
            folder = staging / "hosts" / hub.host
            folder.mkdir(parents=True)
            (folder / "index.html").write_bytes(realweb_hubs.render_hub(hub, homes))
            (folder / "robots.txt").write_bytes(realweb_hubs.hub_robots())
        truth = {
            "generated_by": "scripts/build_realweb.py from data/realweb/sites/*.json (labels read by hand)",
            "description": "Real public static sites from pinned GitHub commits, plus hub pages linking them. "
                           "URLs are http://<host>/<path under the site's root>.",
            "sites": [truth_entry(manifest) for manifest in manifests]
                     + [{"host": hub.host, "source": "generated hub (crawlweb/testweb/realweb_hubs.py)",
                         "kind": "hub", "languages": ["en"], "bilingual_sr_en": False, "parallel_pairs": [],
                         "links": [homes[h] for h in hub.site_hosts] + [f"http://{h}/" for h in hub.hub_hosts]} for hub in hubs],
            "hubs": [hub.url for hub in hubs],
            "seed_urls": realweb_hubs.seed_urls(hubs, homes, seed=HUB_SEED),
        }
        (staging / "truth.json").write_text(json.dumps(truth, ensure_ascii=False, indent=1), encoding="utf-8")
        staging.chmod(0o755)   # mkdtemp makes it private; the corpus is read by other users' servers
        swap_in(staging, out)
    finally:
        if staging.exists():
            shutil.rmtree(staging)
    return truth


def swap_in(staging: Path, out: Path) -> None:
    """Put the built folder at `out`: the old corpus is renamed away first and removed after, so
    a server reading `out` meanwhile sees the old or the new corpus whole, never a half-written one
    (only for the instant between the two renames is there none)."""
    old = None
    if out.exists():
        old = Path(tempfile.mkdtemp(prefix=".realweb-old-", dir=out.parent)) / "corpus"
        out.rename(old)
    staging.rename(out)
    if old is not None:
        shutil.rmtree(old.parent)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=None, help="corpus folder (default: REAL_WEB_DIR)")
    parser.add_argument("--manifests", type=Path, default=REPO_ROOT / "data" / "realweb" / "sites")
    parser.add_argument("--mirrors", type=Path, default=Path("/work/.mirror"))
    parser.add_argument("--reserved", type=Path, default=shared_data_dir() / "reserved-repos.sha256")
    parser.add_argument("--check-only", action="store_true", help="verify the manifests, write nothing")
    args = parser.parse_args(argv)
    out = args.out or real_web_dir()
    if not args.reserved.is_file():
        print(f"error: {args.reserved} is missing: the reserved repositories cannot be checked", file=sys.stderr)
        return 1
    reserved = {line.strip() for line in args.reserved.read_text().splitlines() if line.strip()}
    try:
        loaded = load_manifests(args.manifests)
        problems = verify(loaded, args.mirrors, reserved)
    except BuildError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    if problems:
        print("\n".join(f"error: {problem}" for problem in problems), file=sys.stderr)
        print(f"{len(problems)} problem(s); nothing was written", file=sys.stderr)
        return 1
    if args.check_only:
        print(f"{len(loaded)} manifests are sound")
        return 0
    truth = write_corpus([manifest for _, manifest in loaded], args.mirrors, out)
    real = [site for site in truth["sites"] if site["kind"] == "real"]
    print(f"built {out}: {len(real)} sites ({sum(s['bilingual_sr_en'] for s in real)} sr-en), "
          f"{sum(s['n_pages'] for s in real)} pages, {sum(len(s['parallel_pairs']) for s in real)} sr-en pairs, "
          f"{len(truth['hubs'])} hubs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
