"""scripts/build_charset_corpus.py on a fabricated mirror (a real bare git repository in tmp_path), and
the corpus's serving modes (crawlweb/testweb/charset_corpus.py). Pages are written here for the test."""
from __future__ import annotations

import codecs
import gzip
import hashlib
import importlib.util
import json
import subprocess
from pathlib import Path

from crawlweb.testweb.charset_corpus import load_corpus, page_modes, strip_declarations

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "build_charset_corpus.py"
spec = importlib.util.spec_from_file_location("build_charset_corpus", SCRIPT)
build = importlib.util.module_from_spec(spec)
spec.loader.exec_module(build)

SERBIAN = '<html><head><meta charset="windows-1250"><title>Početna</title></head><body>Dobro došli, čast je naša</body></html>'
KOREAN = '<?xml version="1.0" encoding="EUC-KR"?>\n<html><body>한국어 문서입니다</body></html>'


def make_mirror(tmp_path: Path) -> str:
    work = tmp_path / "work"
    work.mkdir()
    (work / "sr.html").write_bytes(SERBIAN.encode("cp1250"))
    (work / "ko.html.gz").write_bytes(gzip.compress(KOREAN.encode("euc_kr")))
    git = ["git", "-C", str(work), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run(git[:3] + ["init", "-q"], check=True)
    subprocess.run(git + ["add", "."], check=True)
    subprocess.run(git + ["commit", "-qm", "pages"], check=True)
    commit = subprocess.run(git[:3] + ["rev-parse", "HEAD"], capture_output=True, text=True, check=True).stdout.strip()
    subprocess.run(["git", "clone", "-q", "--bare", str(work), str(tmp_path / "mirrors" / "someone+pages" / "repo")],
                   check=True)
    return commit


def entry(commit: str, **changes) -> dict:
    data = {"id": "sr-page", "source": f"someone/pages@{commit}", "path": "sr.html", "encoding": "windows-1250",
            "codec": "cp1250", "header": None, "meta": "windows-1250", "gzip": False, "note": "fabricated"}
    data.update(changes)
    return data


def run(tmp_path: Path, pages: list[dict], reserved: str = "0" * 64) -> int:
    manifest = tmp_path / "manifest.json"
    manifest.write_text(json.dumps({"pages": pages}))
    (tmp_path / "reserved.sha256").write_text(f"# reserved\n{reserved}\n")
    return build.main(["--manifest", str(manifest), "--mirrors", str(tmp_path / "mirrors"),
                       "--reserved", str(tmp_path / "reserved.sha256"), "--out", str(tmp_path / "out")])


def test_a_sound_manifest_builds_the_pages_byte_for_byte(tmp_path):
    commit = make_mirror(tmp_path)
    korean = entry(commit, id="ko-page", path="ko.html.gz", encoding="EUC-KR", codec="euc_kr", header="EUC-KR",
                   meta=None, gzip=True)
    assert run(tmp_path, [entry(commit), korean]) == 0
    pages = {page.id: page for page in load_corpus(tmp_path / "out")}
    assert pages["sr-page"].body == SERBIAN.encode("cp1250")
    assert pages["ko-page"].body == KOREAN.encode("euc_kr") and pages["ko-page"].header == "EUC-KR"


def test_a_reserved_repository_a_wrong_codec_or_a_wrong_meta_stops_the_build(tmp_path, capsys):
    commit = make_mirror(tmp_path)
    reserved = hashlib.sha256(b"someone/pages").hexdigest()
    assert run(tmp_path, [entry(commit)], reserved=reserved) == 1
    assert run(tmp_path, [entry(commit, codec="utf-8")]) == 1
    assert run(tmp_path, [entry(commit, meta="iso-8859-2")]) == 1
    errors = capsys.readouterr().err
    assert "someone/pages is reserved" in errors and "does not decode strictly as utf-8" in errors
    assert "declares 'iso-8859-2'" in errors and not (tmp_path / "out").exists()


def test_a_missing_mirror_names_the_fetch_to_do(tmp_path, capsys):
    assert run(tmp_path, [entry("0" * 40, source="nobody/else@" + "0" * 40)]) == 1
    assert "fetch it first" in capsys.readouterr().err


def test_declarations_are_stripped_and_the_text_kept():
    stripped = strip_declarations(SERBIAN.encode("cp1250"), "cp1250")
    assert stripped == SERBIAN.replace('<meta charset="windows-1250">', "").encode("cp1250")
    assert strip_declarations(KOREAN.encode("euc_kr"), "euc_kr").startswith(b'<?xml version="1.0"?>')


def test_utf16_pages_keep_their_byte_order_mark_and_byte_order():
    text = '<html><head><meta http-equiv="Content-Type" content="text/html; charset=UTF-16BE"></head><body>Ćao</body></html>'
    body = codecs.BOM_UTF16_BE + text.encode("utf-16-be")
    stripped = strip_declarations(body, "utf-16")
    assert stripped.startswith(codecs.BOM_UTF16_BE)
    assert stripped.decode("utf-16") == "<html><head></head><body>Ćao</body></html>"


def test_western_modes_are_served_only_where_a_western_header_would_be_wrong(tmp_path):
    commit = make_mirror(tmp_path)
    western = entry(commit, id="west", encoding="windows-1252", codec="cp1252")
    assert run(tmp_path, [entry(commit), western]) == 0
    modes = {page.id: [served.mode for served in page_modes(page)] for page in load_corpus(tmp_path / "out")}
    assert modes == {"sr-page": ["declared", "undeclared", "western_header", "western_only"],
                     "west": ["declared", "undeclared"]}
