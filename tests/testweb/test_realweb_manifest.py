"""The manifest checks of the real development web, on small fabricated manifests (no git, no database)."""
from __future__ import annotations

import copy

from crawlweb.testweb.realweb_hubs import plan_hubs, render_hub, seed_urls
from crawlweb.testweb.realweb_manifest import check_manifest, default_host, repo_hash, truth_entry

COMMIT = "a" * 40
SOUND = {
    "host": "www.primer.rs", "source": f"someone/primer@{COMMIT}", "root": "site",
    "files": ["index.html", "en/index.html", "o-nama.html", "en/about.html", "robots.txt"],
    "kind": "bilingual_sr_en", "languages": ["sr-Latn", "en"], "bilingual_sr_en": True,
    "page_languages": {"/index.html": "sr-Latn", "/en/index.html": "en", "/o-nama.html": "sr-Latn",
                       "/en/about.html": "mixed"},
    "parallel_pairs": [["/index.html", "/en/index.html"], ["/o-nama.html", "/en/about.html"]],
    "pair_status": {"/index.html|/en/index.html": "translated", "/o-nama.html|/en/about.html": "partial"},
    "other_language_pairs": [], "traits": ["translated-slugs"],
    "checked_by_reading": [["/index.html", "/en/index.html"], ["/o-nama.html", "/en/about.html"]],
    "notes": "fabricated",
}
REPO_FILES = {f"site/{path}" for path in SOUND["files"]} | {"README.md"}


def changed(**fields):
    manifest = copy.deepcopy(SOUND)
    manifest.update(fields)
    return manifest


def test_a_sound_manifest_has_no_problems():
    assert check_manifest(SOUND, repo_files=REPO_FILES) == []


def test_a_file_missing_from_the_commit_is_named():
    problems = check_manifest(SOUND, repo_files=REPO_FILES - {"site/en/about.html"})
    assert problems == ["file 'site/en/about.html' is not in the commit"]


def test_every_html_page_needs_a_language_and_labels_must_be_known():
    pages = dict(SOUND["page_languages"])
    del pages["/o-nama.html"]
    pages["/en/index.html"] = "english"
    problems = check_manifest(changed(page_languages=pages))
    assert "html page /o-nama.html has no page language" in problems
    assert "page /en/index.html has the unknown label 'english'" in problems


def test_pair_sides_must_be_pages_of_the_site_and_have_a_status():
    problems = check_manifest(changed(parallel_pairs=SOUND["parallel_pairs"] + [["/kontakt.html", "/en/index.html"]]))
    assert problems == ["pair side /kontakt.html is not an html page of the site"]
    status = dict(SOUND["pair_status"])
    del status["/o-nama.html|/en/about.html"]
    assert check_manifest(changed(pair_status=status)) == ["pair /o-nama.html|/en/about.html has no pair_status"]


def test_a_translated_pair_must_put_serbian_first_and_english_second():
    status = dict(SOUND["pair_status"], **{"/o-nama.html|/en/about.html": "translated"})
    problems = check_manifest(changed(pair_status=status))
    assert problems == ["translated pair /o-nama.html|/en/about.html joins sr-Latn and mixed, "
                        "not Serbian first and English second"]


def test_a_reserved_repository_is_refused():
    problems = check_manifest(SOUND, reserved={repo_hash("Someone/Primer")})
    assert problems == ["someone/primer is a reserved repository: it must never be used"]


def test_too_few_pairs_read_and_bad_sources_are_reported():
    problems = check_manifest(changed(checked_by_reading=[], source="someone/primer@main"))
    assert "source 'someone/primer@main' is not owner/repo@<40-hex commit>" in problems
    assert "only 0 pairs were read side by side; read at least 2" in problems


def test_a_negative_site_keeps_its_pairs_apart_and_missing_keys_are_named():
    negative = changed(kind="negative", bilingual_sr_en=False)
    assert "a negative site has no sr-en parallel_pairs (use other_language_pairs)" in check_manifest(negative)
    incomplete = copy.deepcopy(SOUND)
    del incomplete["files"]
    assert check_manifest(incomplete) == ["key 'files' is missing"]


def test_the_truth_entry_has_full_urls():
    entry = truth_entry(SOUND)
    assert entry["parallel_pairs"][0] == ["http://www.primer.rs/index.html", "http://www.primer.rs/en/index.html"]
    assert entry["parallel_pairs_translated"] == [entry["parallel_pairs"][0]]
    assert entry["page_languages"]["http://www.primer.rs/en/about.html"] == "mixed"
    assert entry["pair_status"]["http://www.primer.rs/o-nama.html http://www.primer.rs/en/about.html"] == "partial"


def test_hosts_come_from_the_cname_or_the_repository_name():
    assert default_host("Owner/My.Site", None) == "my.site.owner.gh.test"
    assert default_host("Owner/Web_Site", None) == "web-site.owner.gh.test"
    assert default_host("Owner/site", "https://www.Primer.rs/\n") == "www.primer.rs"


def test_hubs_link_every_site_some_many_some_few_and_the_plan_is_seeded():
    hosts = [f"site{i}.example.gh.test" for i in range(40)]
    hubs = plan_hubs(hosts, seed=3)
    assert {host for hub in hubs for host in hub.site_hosts} == set(hosts)
    sizes = [len(hub.site_hosts) for hub in hubs]
    assert max(sizes) >= 20 and min(sizes) <= 6
    assert [hub.site_hosts for hub in plan_hubs(hosts, seed=3)] == [hub.site_hosts for hub in hubs]
    page = render_hub(hubs[0]).decode()
    assert all(f'href="http://{host}/"' in page for host in hubs[0].site_hosts)
    seeds = seed_urls(hubs, {host: f"http://{host}/" for host in hosts}, seed=3)
    assert seeds[:4] == [hub.url for hub in hubs] and len(seeds) == 7


def test_a_misspelt_key_and_empty_notes_are_refused():
    misspelt = changed(notes="  ")
    misspelt["page_language"] = misspelt.pop("page_languages")
    assert check_manifest(misspelt) == ["key 'page_languages' is missing", "key 'page_language' is not in the schema"]
    assert check_manifest(changed(notes="  ")) == ["notes are empty: say what the site is and why the labels"]


def test_aliases_must_be_origins():
    assert check_manifest(changed(aliases=["https://www.primer.rs", "https://someone.github.io/primer"])) == []
    assert check_manifest(changed(aliases=["www.primer.rs/"])) == [
        "alias 'www.primer.rs/' is not an origin like https://www.example.rs or https://user.github.io/repo"]
