"""The reference pages (docs/reference/) name everything an operator can set or run, read from the code:
every environment variable the code reads, every management command of the project with each of its
flags, every bench script with each key of its RESULT line. A setting, flag or key added without its
line in the reference fails here, naming it."""
from __future__ import annotations

import argparse
import ast
import re
from pathlib import Path

from django.core.management import get_commands, load_command_class

ROOT = Path(__file__).resolve().parents[1]
REFERENCE = ROOT / "docs" / "reference"
APPS = ("crawlweb", "frontier", "evaluation", "labeling", "training", "console")
# Readers in crawlweb/settings.py whose first argument is the variable's name.
SETTING_READERS = {"env_str", "env_bool", "env_number", "env_choice", "env_list", "secret_key", "redis_url",
                   "database_from_url", "_lexicon", "_lexicon_languages", "_growth"}
# Variables the code sets or reads for a library rather than for an operator.
NOT_SETTINGS = {"DJANGO_SETTINGS_MODULE", "MPLBACKEND", "http_proxy", "no_proxy"}
# Options every Django command has (Django documents them).
DJANGO_OPTIONS = {"help", "version", "verbosity", "settings", "pythonpath", "traceback", "no_color", "force_color",
                  "skip_checks"}


def _string(node: ast.AST) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def settings_in_code() -> set[str]:
    """Names read by settings.py's typed readers, its _PAIRS_READERS keys, and every os.environ read
    (os.environ.get("X"), os.environ["X"]) in the project's packages."""
    names: set[str] = set()
    settings = ast.parse((ROOT / "crawlweb" / "settings.py").read_text(encoding="utf-8"))
    for node in ast.walk(settings):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in SETTING_READERS:
            if node.args and _string(node.args[0]):
                names.add(_string(node.args[0]))
        if (isinstance(node, ast.Assign) and isinstance(node.value, ast.Dict)
                and any(isinstance(t, ast.Name) and t.id == "_PAIRS_READERS" for t in node.targets)):
            names.update(_string(key) for key in node.value.keys if _string(key))
    for app in APPS:
        for path in (ROOT / app).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                environ = None
                if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                        and node.func.attr in ("get", "setdefault") and ast.unparse(node.func.value) == "os.environ"):
                    environ = node.args[0] if node.args else None
                elif isinstance(node, ast.Subscript) and ast.unparse(node.value) == "os.environ":
                    environ = node.slice
                if environ is not None and _string(environ):
                    names.add(_string(environ))
    return names - NOT_SETTINGS


def test_settings_are_read_from_the_code():
    names = settings_in_code()
    # The reader finds the settings of each kind: typed readers, the pairing table, os.environ reads.
    assert {"DATABASE_URL", "CRAWLER_CONCURRENCY", "PAIRS_CONTENT_THRESHOLD", "PAIR_LEXICON", "SHARED_DATA_DIR",
            "DEMO_ADMIN_PASSWORD", "HUNSPELL_DIR"} <= names
    assert len(names) >= 70


def test_every_setting_is_in_the_settings_reference():
    page = (REFERENCE / "settings.md").read_text(encoding="utf-8")
    missing = sorted(name for name in settings_in_code() if f"`{name}`" not in page)
    assert not missing, f"settings the code reads but docs/reference/settings.md does not list: {missing}"


def _parser_flags(parser: argparse.ArgumentParser, prefix: str) -> dict[str, set[str]]:
    """{"crawl start": {"--budget", …}, …}: each (sub)command's own options."""
    found: dict[str, set[str]] = {prefix: set()}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                found.update(_parser_flags(sub, f"{prefix} {name}"))
        elif action.option_strings and action.dest not in DJANGO_OPTIONS:
            found[prefix].add(max(action.option_strings, key=len))
    return found


def project_commands() -> dict[str, dict[str, set[str]]]:
    commands = {}
    for name, app in get_commands().items():
        if app.split(".")[0] in APPS:
            command = load_command_class(app, name)
            commands[name] = _parser_flags(command.create_parser("manage.py", name), name)
    return commands


def _sections(page: str) -> dict[str, str]:
    """The commands page split at its `## \\`name …\\`` headings: {name: section text}."""
    sections = {}
    for match in re.finditer(r"^## `([\w-]+)[^`]*`\n(.*?)(?=^## |\Z)", page, flags=re.M | re.S):
        sections[match.group(1)] = match.group(2)
    return sections


def test_every_command_and_flag_is_in_the_commands_reference():
    commands = project_commands()
    assert {"crawl", "demo", "export", "pairs", "evaluation", "testweb", "experiment", "cleandb",
            "importseeds"} <= set(commands)
    sections = _sections((REFERENCE / "commands.md").read_text(encoding="utf-8"))
    missing = []
    for name, parsers in sorted(commands.items()):
        if name not in sections:
            missing.append(f"command {name}")
            continue
        for full_name, flags in sorted(parsers.items()):
            if full_name != name and f"`{full_name}" not in sections[name]:
                missing.append(f"subcommand {full_name}")
            missing += [f"{full_name} {flag}" for flag in sorted(flags) if f"`{flag}" not in sections[name]]
    assert "rqworker" in sections, "docs/reference/commands.md has no section on rqworker"
    assert not missing, f"not in docs/reference/commands.md (under the command's ## heading): {missing}"


def _text(node: ast.AST, names: dict[str, str]) -> str:
    """A string expression as text: literals as they are, a formatted name by what it was assigned
    (so `{extra}` brings that string's keys), any other value as <name> or <…>."""
    if _string(node) is not None:
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(_text(part, names) for part in node.values)
    if isinstance(node, ast.FormattedValue):
        if isinstance(node.value, ast.Name):
            return names.get(node.value.id, f"<{node.value.id}>")
        return "<…>"
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _text(node.left, names) + _text(node.right, names)
    if isinstance(node, ast.Name):
        return names.get(node.id, "")
    if isinstance(node, ast.List):
        return " ".join(_text(element, names) for element in node.elts)
    if isinstance(node, ast.IfExp):
        return _text(node.body, names) + " " + _text(node.orelse, names)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "join":
        return " ".join(_text(arg.elt if isinstance(arg, ast.GeneratorExp) else arg, names) for arg in node.args)
    return ""


def _result_keys(tree: ast.Module) -> set[str]:
    keys: set[str] = set()
    for scope in [tree, *(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef))]:
        names = {}
        dict_keys: set[str] = set()
        for node in ast.walk(scope):
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                names[node.targets[0].id] = _text(node.value, {})
                if isinstance(node.value, ast.Dict):
                    dict_keys |= {_string(k) for k in node.value.keys if _string(k)}
            if isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):  # parts += [...]
                names[node.target.id] = names.get(node.target.id, "") + " " + _text(node.value, {})
        for node in ast.walk(scope):
            if isinstance(node, (ast.JoinedStr, ast.BinOp, ast.Constant)):
                text = _text(node, names)
                if text.startswith("RESULT "):
                    for key in re.findall(r"([A-Za-z_<][\w<>…]*)=", text):
                        # "{key}={value}" over a dict's items: the dict's keys are the line's keys
                        keys |= dict_keys if key in ("<key>", "<…>") else {key}
    return keys


def bench_results() -> dict[str, set[str]]:
    """{"bench/scale.py": {"pages", …}}: the keys of each bench's RESULT line, read from its source and
    from the bench/support module that writes it, when one does."""
    results = {}
    for path in sorted((ROOT / "bench").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        keys = _result_keys(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("bench.support."):
                if "result_line" in {alias.name for alias in node.names}:
                    support = ROOT / (node.module.replace(".", "/") + ".py")
                    keys |= _result_keys(ast.parse(support.read_text(encoding="utf-8")))
        results[f"bench/{path.name}"] = keys
    return results


def test_bench_result_keys_are_read_from_the_code():
    results = bench_results()
    assert {"pages_per_s", "vs_scrapy"} <= results["bench/crawl_throughput.py"]
    assert {"site_p", "pair_r", "train_pair_r", "cobfc_sites_per_100", "budget"} <= results["bench/realweb.py"]
    assert {"judge_p95_ms", "saturated_p95_ms"} <= results["bench/judging.py"]
    assert all(results.values()), [name for name, keys in results.items() if not keys]


def test_every_bench_and_result_key_is_in_the_benchmarks_reference():
    page = (REFERENCE / "benchmarks.md").read_text(encoding="utf-8")
    sections = {m.group(1): m.group(2) for m in
                re.finditer(r"^## `(bench/[\w.]+)`\n(.*?)(?=^## |\Z)", page, flags=re.M | re.S)}
    missing = []
    for script, keys in bench_results().items():
        if script not in sections:
            missing.append(script)
            continue
        missing += [f"{script} {key}" for key in sorted(keys) if f"`{key}`" not in sections[script]]
    assert not missing, f"not in docs/reference/benchmarks.md (under the script's ## heading): {missing}"
