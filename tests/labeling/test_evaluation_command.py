"""manage.py evaluation create: the same checks as the admin's form."""
import pytest
from django.core.management import CommandError, call_command

from labeling.models import Evaluation

pytestmark = pytest.mark.django_db


def test_it_creates_an_evaluation_with_the_seed_given(crawl, people, capsys):
    call_command("evaluation", "create", "--name", "cli", "--crawl", str(crawl.pk), "--size", "2", "--seed", "9",
                 "--stratify-by", "verdict", "--evaluator", "ana", "--evaluator", "bob")
    evaluation = Evaluation.objects.get(name="cli")
    assert evaluation.seed == 9 and evaluation.items.count() == 4
    assert "4 items" in capsys.readouterr().out


def test_bad_input_is_named(crawl, people):
    with pytest.raises(CommandError, match="no such user: ghost"):
        call_command("evaluation", "create", "--name", "x", "--crawl", str(crawl.pk), "--evaluator", "ghost")
    with pytest.raises(CommandError, match="what: Select a valid choice"):
        call_command("evaluation", "create", "--name", "x", "--what", "pages", "--crawl", str(crawl.pk),
                     "--evaluator", "ana")
    with pytest.raises(CommandError, match="evaluators: Select a valid choice"):
        call_command("evaluation", "create", "--name", "x", "--crawl", str(crawl.pk), "--evaluator", "vera",
                     "--overlap", "0")
    assert not Evaluation.objects.exists()
