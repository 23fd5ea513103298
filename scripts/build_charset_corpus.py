"""Build the charset corpus from its manifest and the fetched repository mirrors.

    .venv/bin/python scripts/build_charset_corpus.py [--out DIR] [--manifest data/charsets/manifest.json]
        [--mirrors /work/.mirror] [--reserved ../shared/data/reserved-repos.sha256] [--check-only]

Each entry of the manifest (schema in data/charsets/README.md) names a page at a pinned commit of a
public repository; its bytes are read from the bare mirror /work/.mirror/<owner>+<repo> with `git show`
(gunzipped when the repository keeps it gzipped) and written unchanged to <out>/pages/<id>.html, with
<out>/corpus.json listing them. <out> defaults to CHARSET_CORPUS_DIR (else <SHARED_DATA_DIR>/charsets).

Every entry is checked first: no reserved repository, the file exists, its bytes decode strictly with
the manifest's codec and hold text beyond ASCII, and the charset the manifest says the page declares
is the one its first 4 KB name. Any problem stops the build with exit status 1, naming the entry and
the problem, and leaves <out> untouched.
"""
from __future__ import annotations

import argparse
import codecs
import gzip
import hashlib
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from crawlweb.crawler.charset import sniff_meta_charset  # noqa: E402
from crawlweb.devdata import charset_corpus_dir, shared_data_dir  # noqa: E402

REPO_ROOT = Path(__file__).resolve().parents[1]
FIELDS = ("id", "source", "path", "encoding", "codec", "header", "meta", "gzip", "note")


class BuildError(Exception):
    """An entry or its mirror cannot be used; the message says which and why."""


def git_dir(mirrors: Path, repo: str) -> Path:
    base = mirrors / repo.replace("/", "+")
    for candidate in (base / "repo", base):
        if (candidate / "objects").is_dir() and (candidate / "HEAD").is_file():
            return candidate
    raise BuildError(f"no mirror of {repo} under {base}: fetch it first (the fetch tool with source github:{repo})")


def page_bytes(mirrors: Path, entry: dict) -> bytes:
    repo, _, commit = entry["source"].partition("@")
    shown = subprocess.run(["git", "--git-dir", str(git_dir(mirrors, repo)), "show", f"{commit}:{entry['path']}"],
                           capture_output=True)
    if shown.returncode != 0:
        raise BuildError(f"{entry['path']} is not at {entry['source']}: "
                         f"{shown.stderr.decode(errors='replace').strip()}")
    return gzip.decompress(shown.stdout) if entry["gzip"] else shown.stdout


def entry_problems(entry: dict, body: bytes, reserved: set[str]) -> list[str]:
    problems = []
    repo = entry["source"].partition("@")[0]
    if hashlib.sha256(repo.lower().encode()).hexdigest() in reserved:
        problems.append(f"{repo} is reserved for independent evaluation")
    try:
        text = body.decode(entry["codec"])
    except (UnicodeDecodeError, LookupError) as error:
        return problems + [f"does not decode strictly as {entry['codec']}: {error}"]
    if text.isascii():
        problems.append("holds no text beyond ASCII: it tells nothing about a charset")
    if entry["meta"] != sniff_meta_charset(body):
        problems.append(f"the manifest says it declares {entry['meta']!r} in <meta>; its first 4 KB say "
                        f"{sniff_meta_charset(body)!r}")
    return problems


def load_manifest(path: Path) -> list[dict]:
    try:
        pages = json.loads(path.read_text(encoding="utf-8"))["pages"]
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise BuildError(f"{path}: not a manifest with a list of pages ({error})") from error
    ids = set()
    for entry in pages:
        missing = [name for name in FIELDS if name not in entry]
        if missing:
            raise BuildError(f"{path}: entry {entry.get('id', '?')} lacks {', '.join(missing)}")
        if entry["id"] in ids:
            raise BuildError(f"{path}: the id {entry['id']} is used twice")
        ids.add(entry["id"])
        try:
            codecs.lookup(entry["codec"])
        except LookupError as error:
            raise BuildError(f"{path}: entry {entry['id']}: unknown codec {entry['codec']!r}") from error
    return pages


def write_corpus(pages: list[tuple[dict, bytes]], out: Path) -> None:
    out.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".charsets-", dir=out.parent))
    try:
        (staging / "pages").mkdir()
        listed = []
        for entry, body in pages:
            file = f"pages/{entry['id']}.html"
            (staging / file).write_bytes(body)
            listed.append({**entry, "file": file, "bytes": len(body), "sha256": hashlib.sha256(body).hexdigest()})
        index = {"generated_by": "scripts/build_charset_corpus.py from data/charsets/manifest.json", "pages": listed}
        (staging / "corpus.json").write_text(json.dumps(index, ensure_ascii=False, indent=1), encoding="utf-8")
        staging.chmod(0o755)  # mkdtemp makes it private; tests and benches of other users read it
        old = None
        if out.exists():
            old = Path(tempfile.mkdtemp(prefix=".charsets-old-", dir=out.parent)) / "corpus"
            out.rename(old)
        staging.rename(out)
        if old is not None:
            shutil.rmtree(old.parent)
    finally:
        if staging.exists():
            shutil.rmtree(staging)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=None, help="corpus folder (default: CHARSET_CORPUS_DIR)")
    parser.add_argument("--manifest", type=Path, default=REPO_ROOT / "data" / "charsets" / "manifest.json")
    parser.add_argument("--mirrors", type=Path, default=Path("/work/.mirror"))
    parser.add_argument("--reserved", type=Path, default=shared_data_dir() / "reserved-repos.sha256")
    parser.add_argument("--check-only", action="store_true", help="verify the manifest, write nothing")
    args = parser.parse_args(argv)
    if not args.reserved.is_file():
        print(f"error: {args.reserved} is missing: the reserved repositories cannot be checked", file=sys.stderr)
        return 1
    reserved = {line.strip() for line in args.reserved.read_text().splitlines()
                if line.strip() and not line.startswith("#")}
    try:
        entries = load_manifest(args.manifest)
        pages, problems = [], []
        for entry in entries:
            body = page_bytes(args.mirrors, entry)
            problems += [f"{entry['id']}: {problem}" for problem in entry_problems(entry, body, reserved)]
            pages.append((entry, body))
    except BuildError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    if problems:
        print("\n".join(f"error: {problem}" for problem in problems), file=sys.stderr)
        print(f"{len(problems)} problem(s); nothing was written", file=sys.stderr)
        return 1
    encodings = sorted({entry["encoding"] for entry in entries})
    if args.check_only:
        print(f"{len(entries)} pages in {len(encodings)} encodings are sound")
        return 0
    out = args.out or charset_corpus_dir()
    write_corpus(pages, out)
    print(f"built {out}: {len(entries)} pages in {len(encodings)} encodings ({', '.join(encodings)}) "
          f"from {len({entry['source'].partition('@')[0] for entry in entries})} repositories")
    return 0


if __name__ == "__main__":
    sys.exit(main())
