"""scripts/install.sh, the first step of both README commands: with and without --test, from a fresh
clone (no .venv) and again on the same clone, in both orders (`make demo` then `make test`, and back).

Runs the real script on a real clone; Debian packages are already present on a machine that runs the
tests, so only the virtualenv is built (from pip's usual sources). The bug this guards against: under
`set -e` the script stopped whenever --test was not given, so `make demo` never worked on a fresh
machine and nothing noticed, because CI ran only `make test`.
"""
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
INSTALL_TIMEOUT_S = 900


def run_install(checkout: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["bash", "scripts/install.sh", *args], cwd=checkout, capture_output=True, text=True,
                          timeout=INSTALL_TIMEOUT_S)


def assert_succeeded(result: subprocess.CompletedProcess) -> None:
    assert result.returncode == 0, f"install.sh exited {result.returncode}:\n{result.stdout}\n{result.stderr}"


@pytest.fixture(scope="module")
def fresh_clone(tmp_path_factory) -> Path:
    checkout = tmp_path_factory.mktemp("clone") / "repo"
    subprocess.run(["git", "clone", "-q", str(ROOT), str(checkout)], check=True, timeout=120)
    return checkout


def test_a_fresh_clone_installs_without_test_tools_then_with_them_and_each_run_again_does_nothing(fresh_clone):
    plain = run_install(fresh_clone)                      # make demo on a fresh machine
    assert_succeeded(plain)
    assert "creating .venv" in plain.stdout
    assert (fresh_clone / ".venv" / "bin" / "python").exists()
    imported = subprocess.run([".venv/bin/python", "-c", "import django, hunspell, crawlweb, labeling, training"],
                              cwd=fresh_clone, capture_output=True, text=True)
    assert imported.returncode == 0, imported.stderr
    no_pytest = subprocess.run([".venv/bin/python", "-c", "import pytest"], cwd=fresh_clone, capture_output=True)
    assert no_pytest.returncode != 0, "the plain install must not bring the test tools"

    again = run_install(fresh_clone)                      # idempotent: only checks
    assert_succeeded(again)
    assert "installing" not in again.stdout

    with_tests = run_install(fresh_clone, "--test")       # make test afterwards on the same clone
    assert_succeeded(with_tests)
    assert "with test tools" in with_tests.stdout
    assert subprocess.run([".venv/bin/python", "-c", "import pytest, playwright"], cwd=fresh_clone).returncode == 0
    assert_succeeded(run_install(fresh_clone, "--test"))

    back = run_install(fresh_clone)                       # and make demo again: nothing to install
    assert_succeeded(back)
    assert "installing" not in back.stdout


def test_an_unknown_argument_is_refused_by_name():
    result = run_install(ROOT, "--tests")
    assert result.returncode == 2
    assert "unknown argument: --tests" in result.stderr
