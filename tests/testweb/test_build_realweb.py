"""scripts/build_realweb.py on a fabricated mirror (a real bare git repository in tmp_path)."""
from __future__ import annotations

import importlib.util
import json
import subprocess
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "build_realweb.py"
spec = importlib.util.spec_from_file_location("build_realweb", SCRIPT)
build_realweb = importlib.util.module_from_spec(spec)
spec.loader.exec_module(build_realweb)


def make_mirror(tmp_path: Path, robots: str = "User-agent: *\n", sitemap: str | None = None) -> str:
    work = tmp_path / "work"
    (work / "en").mkdir(parents=True)
    (work / "index.html").write_text("<html lang=sr><body>Dobro došli</body></html>")
    (work / "en" / "index.html").write_text("<html lang=en><body>Welcome</body></html>")
    (work / "robots.txt").write_text(robots)
    if sitemap is not None:
        (work / "sitemap.xml").write_text(sitemap)
    git = ["git", "-C", str(work), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run(git[:3] + ["init", "-q"], check=True)
    subprocess.run(git + ["add", "."], check=True)
    subprocess.run(git + ["commit", "-qm", "site"], check=True)
    commit = subprocess.run(git[:3] + ["rev-parse", "HEAD"], capture_output=True, text=True, check=True).stdout.strip()
    subprocess.run(["git", "clone", "-q", "--bare", str(work), str(tmp_path / "mirrors" / "someone+site" / "repo")], check=True)
    return commit


def manifest(commit: str, **changes) -> dict:
    data = {"host": "site.someone.gh.test", "source": f"someone/site@{commit}", "root": "",
            "files": ["index.html", "en/index.html", "robots.txt"], "kind": "bilingual_sr_en",
            "languages": ["sr-Latn", "en"], "bilingual_sr_en": True,
            "page_languages": {"/index.html": "sr-Latn", "/en/index.html": "en"},
            "parallel_pairs": [["/index.html", "/en/index.html"]],
            "pair_status": {"/index.html|/en/index.html": "translated"}, "other_language_pairs": [],
            "traits": [], "checked_by_reading": [["/index.html", "/en/index.html"]], "notes": "fabricated"}
    data.update(changes)
    return data


def run(tmp_path: Path, data: dict) -> int:
    folder = tmp_path / "manifests"
    folder.mkdir(exist_ok=True)
    (folder / f"{data['host']}.json").write_text(json.dumps(data))
    reserved = tmp_path / "reserved.sha256"
    reserved.write_text("0" * 64 + "\n")
    return build_realweb.main(["--manifests", str(folder), "--mirrors", str(tmp_path / "mirrors"),
                               "--reserved", str(reserved), "--out", str(tmp_path / "out")])


def test_a_sound_manifest_builds_hosts_hubs_and_truth(tmp_path):
    commit = make_mirror(tmp_path)
    assert run(tmp_path, manifest(commit)) == 0
    out = tmp_path / "out"
    assert (out / "hosts" / "site.someone.gh.test" / "robots.txt").read_text() == "User-agent: *\n"
    truth = json.loads((out / "truth.json").read_text())
    site = truth["sites"][0]
    assert site["parallel_pairs"] == [["http://site.someone.gh.test/index.html", "http://site.someone.gh.test/en/index.html"]]
    assert "http://site.someone.gh.test/" in (out / "hosts" / "hub1.realweb.test" / "index.html").read_text()


def test_a_bad_manifest_stops_the_build_naming_the_file_and_the_problem(tmp_path, capsys):
    commit = make_mirror(tmp_path)
    assert run(tmp_path, manifest(commit, files=["index.html", "en/index.html", "sitemap.xml"])) == 1
    err = capsys.readouterr().err
    assert "site.someone.gh.test.json: file 'sitemap.xml' is not in the commit" in err
    assert not (tmp_path / "out").exists()


def test_a_missing_mirror_says_how_to_fetch_it(tmp_path, capsys):
    make_mirror(tmp_path)
    assert run(tmp_path, manifest("b" * 40, source=f"other/site@{'b' * 40}")) == 1
    assert "no mirror of other/site" in capsys.readouterr().err


def test_a_second_build_replaces_the_corpus_whole(tmp_path):
    commit = make_mirror(tmp_path)
    assert run(tmp_path, manifest(commit)) == 0
    assert run(tmp_path, manifest(commit, files=["index.html", "en/index.html"])) == 0
    out = tmp_path / "out"
    assert not (out / "hosts" / "site.someone.gh.test" / "robots.txt").exists()
    assert (out / "hosts" / "site.someone.gh.test" / "index.html").is_file()
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".realweb")) == []


def test_the_sites_own_origins_are_served_under_its_host(tmp_path):
    commit = make_mirror(tmp_path, robots="Sitemap: https://www.primer.rs/sitemap.xml\n",
                         sitemap='<urlset><url><loc>https://www.primer.rs/en/</loc></url></urlset>')
    assert run(tmp_path, manifest(commit, files=["index.html", "en/index.html", "robots.txt", "sitemap.xml"],
                                  aliases=["https://www.primer.rs"])) == 0
    site = tmp_path / "out" / "hosts" / "site.someone.gh.test"
    assert (site / "robots.txt").read_text() == "Sitemap: http://site.someone.gh.test/sitemap.xml\n"
    assert "<loc>http://site.someone.gh.test/en/</loc>" in (site / "sitemap.xml").read_text()
    assert (site / "index.html").read_text() == "<html lang=sr><body>Dobro došli</body></html>"
    truth = json.loads((tmp_path / "out" / "truth.json").read_text())
    assert truth["sites"][0]["aliases"] == ["https://www.primer.rs"]
