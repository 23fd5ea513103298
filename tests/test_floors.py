"""The floors (docs/explanation/architecture.md) hold what the import-linter contracts of
pyproject.toml cannot say themselves: every package of the project is a floor of the layers contract
(a package left out would be checked by nothing), the acyclic-siblings contract covers every floor,
and no module imports itself back through others (an import cycle), within a floor as between floors.
`lint-imports` (scripts/test.sh) checks the contracts."""
from __future__ import annotations

import sys
import tomllib
from pathlib import Path

import grimp
import networkx

ROOT = Path(__file__).resolve().parents[1]
NOT_PACKAGES = {"tests", "bench", "scripts", "docs", "data", "static", "templates"}  # tools and files, above the floors


def _importlinter() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]


def _contract(config: dict, contract_id: str) -> dict:
    return next(contract for contract in config["contracts"] if contract["id"] == contract_id)


def _graph() -> grimp.ImportGraph:
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    return grimp.build_graph(*_importlinter()["root_packages"], cache_dir=None)


def test_every_package_of_the_project_is_a_floor():
    config = _importlinter()
    packages = {path.parent.name for path in ROOT.glob("*/__init__.py")} - NOT_PACKAGES
    floors = _contract(config, "floors")["layers"]
    assert set(config["root_packages"]) == set(floors), "root_packages and the floors name other packages"
    assert packages == set(floors), (f"packages that are no floor: {sorted(packages - set(floors))}; "
                                     f"floors that are no package: {sorted(set(floors) - packages)}")


def test_every_floor_is_checked_for_cycles_between_its_parts():
    config = _importlinter()
    floors = _contract(config, "floors")["layers"]
    acyclic = _contract(config, "acyclic")
    assert acyclic["type"] == "acyclic_siblings"
    assert set(acyclic["ancestors"]) == set(floors), "a floor whose subpackages may import each other in a circle"


def test_no_module_imports_itself_back():
    graph = _graph()
    imports = networkx.DiGraph()
    for module in graph.modules:
        imports.add_edges_from((module, imported) for imported in graph.find_modules_directly_imported_by(module))
    cycles = sorted(sorted(component) for component in networkx.strongly_connected_components(imports)
                    if len(component) > 1)
    assert not cycles, f"import cycles: {cycles}"
