"""The layers the tree states hold: who may import what, no import cycles, a light ``import deckstat``.

Imports are read from the source (module level and inside functions), so a
lazy import counts as much as a top-level one.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

import deckstat

PACKAGE = Path(deckstat.__file__).resolve().parent


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _resolve(module: str, name: str | None) -> str:
    """The deckstat module an import statement reaches (``from a import b``: ``a.b`` when that is a module)."""
    if name is not None and f"{module}.{name}" in MODULES:
        return f"{module}.{name}"
    return module


def imports_of(name: str) -> set[str]:
    """Every module ``name`` imports, top-level names for outside packages (``pandas``, ``matplotlib``)."""
    tree = ast.parse(MODULES[name].read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.update(_resolve(node.module, alias.name) for alias in node.names)
    return {m if m.startswith("deckstat") else m.split(".")[0] for m in found}


def _in(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


BASE = ("deckstat.errors", "deckstat._fork", "deckstat._shipped", "deckstat.text", "deckstat.terms",
        "deckstat._version", "deckstat._validate", "deckstat.schema", "deckstat.events", "deckstat.effects",
        "deckstat.i18n", "deckstat.locales", "deckstat.parsing")
STANDARD = set(sys.stdlib_module_names)


def test_every_module_is_seen():
    for package in ("deckstat.engines", "deckstat.play", "deckstat.questions", "deckstat.present", "deckstat.cli",
                    "deckstat.games"):
        assert package in MODULES
    assert len(MODULES) > 30


@pytest.mark.parametrize("name", [m for m in MODULES if _in(m, "deckstat.engines")])
def test_engines_use_arrays_only(name):
    # numba compiles the kernel's array loops (deckstat.engines._compiled).
    allowed = {"numpy", "scipy", "numba"} | set(BASE) | {m for m in MODULES if _in(m, "deckstat.engines")}
    outside = {m for m in imports_of(name) - STANDARD if m not in allowed}
    assert not outside, f"{name} imports {sorted(outside)}; engines take and return arrays"


@pytest.mark.parametrize("name", [m for m in MODULES if _in(m, "deckstat.questions")])
def test_questions_do_not_present(name):
    banned = {m for m in imports_of(name)
              if _in(m, "deckstat.present") or _in(m, "deckstat.cli") or m in ("matplotlib", "rich", "typer")}
    assert not banned, f"{name} imports {sorted(banned)}"


@pytest.mark.parametrize("name", [m for m in MODULES if _in(m, "deckstat.present")])
def test_present_computes_nothing(name):
    banned = {m for m in imports_of(name) if _in(m, "deckstat.engines") or m in ("scipy", "rich", "typer")}
    assert not banned, f"{name} imports {sorted(banned)}"


@pytest.mark.parametrize("name", [m for m in MODULES if _in(m, "deckstat.explorer")])
def test_the_explorer_presents(name):
    # Like the command line: one public question per view, shown with deckstat.present; no engine.
    banned = {m for m in imports_of(name) if _in(m, "deckstat.engines") or _in(m, "deckstat.cli")
              or m in ("scipy", "numba", "matplotlib", "rich", "typer")}
    assert not banned, f"{name} imports {sorted(banned)}"


def test_only_the_explorer_uses_panel_and_bokeh():
    users = {name for name in MODULES if imports_of(name) & {"panel", "bokeh"}}
    assert users == {"deckstat.explorer.app"}, sorted(users)
    # Its state (a batch spec, a page's address) reads without them.
    assert not imports_of("deckstat.explorer.state") & {"panel", "bokeh", "numpy", "pandas"}


@pytest.mark.parametrize("name", [m for m in MODULES if _in(m, "deckstat.games")])
def test_games_are_rules_as_data(name):
    banned = {m for m in imports_of(name) if any(_in(m, p) for p in ("deckstat.engines", "deckstat.questions",
                                                                       "deckstat.present", "deckstat.cli"))}
    assert not banned, f"{name} imports {sorted(banned)}"


#: What a play model reads a deck with: the deck and the modules below it.
PLAY_BELOW = {"numpy", "pandas", "deckstat.deck", *BASE}


@pytest.mark.parametrize("name", [m for m in MODULES if _in(m, "deckstat.play")])
def test_play_models_work_on_dealt_arrays(name):
    allowed = PLAY_BELOW | {m for m in MODULES if _in(m, "deckstat.play")}
    if name == "deckstat.play.engine":
        allowed |= {m for m in MODULES if _in(m, "deckstat.engines")}
    else:
        # A model is handed the dealt games; dealing and exact pricing are the engine's.
        allowed.discard("deckstat.play.engine")
    outside = {m for m in imports_of(name) - STANDARD if m not in allowed}
    assert not outside, f"{name} imports {sorted(outside)}"


@pytest.mark.parametrize("name", [m for m in MODULES if not _in(m, "deckstat.play")])
def test_only_questions_run_play_models(name):
    # Profiles and the report describe the policies from the catalogue (deckstat.play.MODELS), nothing more.
    reached = {m for m in imports_of(name) if _in(m, "deckstat.play")}
    if _in(name, "deckstat.questions"):
        return
    if _in(name, "deckstat.games") or _in(name, "deckstat.present"):
        reached.discard("deckstat.play")
    assert not reached, f"{name} imports {sorted(reached)}"


def test_the_play_catalogue_loads_no_engine():
    code = ("import sys, deckstat.play; "
            "print(sorted(m for m in sys.modules if m.startswith('deckstat.engines') or m in ('scipy', 'numba')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


@pytest.mark.parametrize("name", BASE)
def test_base_modules_stand_alone(name):
    # check_deck compares with the Deck class, imported where it is used.
    exceptions = {"deckstat._validate": {"deckstat.deck"}}.get(name, set())
    outside = {m for m in imports_of(name) - STANDARD - exceptions if m not in set(BASE) | {"numpy"}}
    assert not outside, f"{name} imports {sorted(outside)}"


def test_only_plots_draws_and_only_the_cli_prints_tables():
    for name in MODULES:
        found = imports_of(name)
        if "matplotlib" in found:
            assert _in(name, "deckstat.present.plots"), name
        if found & {"rich", "typer"}:
            assert _in(name, "deckstat.cli"), name


FIGURES = [m for m in MODULES if _in(m, "deckstat.present.plots") and m not in ("deckstat.present.plots",
                                                                                  "deckstat.present.plots.visuals")]


@pytest.mark.parametrize("name", FIGURES)
def test_each_figure_family_draws_with_the_shared_toolkit_alone(name):
    # A figure module shares only through plots.visuals, so that one family can change without another.
    others = {m for m in imports_of(name) if m in FIGURES}
    assert not others, f"{name} imports {sorted(others)}"


def test_only_the_cli_and_the_report_draw():
    drawers = {name for name in MODULES if not _in(name, "deckstat.present.plots")
               and any(_in(m, "deckstat.present.plots") for m in imports_of(name))}
    assert all(_in(name, "deckstat.cli") or name == "deckstat.present.report" for name in drawers), sorted(drawers)
    assert FIGURES


def test_no_import_cycles():
    # The top-level package re-exports the API and is left out; so is a module's implicit import of its own
    # package, which only re-exports what its modules define.
    graph = {name: {m for m in imports_of(name) if m in MODULES and m != "deckstat"} for name in MODULES}
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                cycle = path[path.index(nxt):] + [nxt]
                pytest.fail("import cycle: " + " -> ".join(cycle))
            if nxt not in state:
                visit(nxt)
        path.pop()
        state[node] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name)


#: Packages a start can do without: what a quick command loads is paid for on every run.
HEAVY = ("scipy.stats", "matplotlib", "pandas", "numpy", "numba", "rich", "typer", "dask", "nbformat", "pyarrow",
         "panel", "bokeh")

# Runs a command line in a fresh interpreter, then names the HEAVY packages it loaded.
_RUN_CLI = """
import json, sys
watched = json.loads(sys.argv[2])
sys.argv = ["deckstat", *json.loads(sys.argv[1])]
from deckstat.cli import main
try:
    main()
except SystemExit:
    pass
sys.stderr.write("\\nloaded: " + json.dumps([m for m in watched if m in sys.modules]))
"""


def _loaded_by(args: list[str]) -> set[str]:
    done = subprocess.run([sys.executable, "-c", _RUN_CLI, json.dumps(args), json.dumps(HEAVY)], cwd=PACKAGE.parent,
                          capture_output=True, text=True, check=True)
    assert "error" not in done.stderr.split("\nloaded: ")[0], done.stderr
    return set(json.loads(done.stderr.rsplit("\nloaded: ", 1)[1]))


def test_import_deckstat_loads_only_what_a_name_asks_for():
    code = f"import sys, deckstat; print(sorted(m for m in {HEAVY!r} if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
    # Every public name still resolves, and dir() lists it before its first use.
    code = ("import deckstat; listed = set(dir(deckstat)); "
            "print(sorted(n for n in deckstat.__all__ if n not in listed or getattr(deckstat, n) is None))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


@pytest.mark.parametrize(("args", "allowed"), [
    (["--help"], {"rich", "typer"}),
    (["odds", "--help"], {"rich", "typer"}),
    (["games"], {"rich", "typer", "numpy"}),
    # The play models (for their policies) read decks, which are pandas tables.
    (["games", "show", "wankul"], {"rich", "typer", "numpy", "pandas", "pyarrow"}),
    (["odds", "data/wankul/sample_deck.csv", "--game", "wankul", "-e", "Terrain>=1"],
     {"rich", "typer", "numpy", "pandas", "pyarrow"}),
])
def test_quick_commands_load_only_what_they_use(args, allowed):
    extra = _loaded_by(args) - allowed
    assert not extra, f"deckstat {' '.join(args)} loads {sorted(extra)}"


def test_each_folder_states_its_rule():
    for package in ("deckstat.engines", "deckstat.play", "deckstat.questions", "deckstat.present", "deckstat.cli",
                    "deckstat.games", "deckstat.explorer"):
        doc = ast.get_docstring(ast.parse(MODULES[package].read_text(encoding="utf-8"))) or ""
        assert "Layer rule" in doc, package
