"""The judging guidelines: every key of every kind of item has a meaning and an example in the card's
help and in docs/judging-guidelines.md, with the rules (partial, thin pages, boilerplate-only pairs),
and the help says nothing untrue about who sees what."""
import html
import re
from pathlib import Path

import pytest
from django.urls import reverse

from labeling.guidelines import RULES, guidelines
from labeling.keys import KEYS

DOCS = Path(__file__).resolve().parents[2] / "docs" / "judging-guidelines.md"


def text_of(body: str) -> str:
    return re.sub(r"\s+([:.,])", r"\1", re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", body))))


@pytest.mark.django_db
@pytest.mark.parametrize("what", ["pairs", "sites", "links"])
def test_the_help_gives_each_key_its_meaning_and_an_example(login, people, what):
    body = text_of(login(people["ana"]).get(reverse("labeling:help"), {"what": what}).content.decode())
    for key, guideline in guidelines(what):
        assert f"{key.key} {key.label}: {guideline.meaning}" in body
        assert f"Example: {guideline.example}" in body
    for name, rule in RULES[what]:
        assert name in body and rule in body


@pytest.mark.django_db
def test_the_help_states_the_rules_and_the_blindness_truthfully(login, people):
    body = text_of(login(people["ana"]).get(reverse("labeling:help"), {"what": "pairs"}).content.decode())
    assert "Partial" in body and "Thin pages" in body and "Boilerplate-only pair" in body
    assert "no evaluator sees another's" in body and "reports, agreement and adjudication are for admins and reviewers" in body
    assert "You never see another evaluator's answers." not in body


def test_every_key_has_a_guideline_with_an_example():
    for what, keys in KEYS.items():
        pairs = guidelines(what)
        assert [g.key for _, g in pairs] == [k.key for k in keys]
        assert all(g.meaning and g.example for _, g in pairs)


def test_the_docs_give_every_key_its_example_and_the_rules():
    docs = DOCS.read_text(encoding="utf-8").replace("`", "").replace("“", '"').replace("”", '"')
    for what in KEYS:
        for key, guideline in guidelines(what):
            example = guideline.example.replace("“", '"').replace("”", '"')
            assert f"| {key.key} | {key.label} |" in docs, (what, key.key)
            assert example in docs, (what, key.key)
    for name in ("Partial", "Thin pages", "Boilerplate-only pair"):
        assert f"**{name}**" in docs
    assert "Wilson's score interval at the effective sample size" in docs and "Landis & Koch" in docs
