"""Docstring examples run with the sample data folder at hand, whatever the working directory; bytecode is cached."""

import os
import sys
from pathlib import Path

import pytest

# Compiled bytecode and rewritten test modules are cached in __pycache__ even where PYTHONDONTWRITEBYTECODE is set
# (as in many container images): otherwise every run, every worker and every deckstat process a test starts compiles
# deckstat and rewrites the tests again, two thirds of the collection's CPU time. This file is loaded before any test
# module or deckstat module is imported; workers and subprocesses inherit the environment.
sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)

DATA = Path(__file__).resolve().parent / "data"

# Running the module would start the command line.
collect_ignore = ["deckstat/__main__.py"]


@pytest.fixture(autouse=True)
def _doctest_namespace(doctest_namespace):
    doctest_namespace["DATA"] = DATA


#: The test files that take longest (seconds of one worker, measured with ``pytest --durations=0``), longest first.
#: The workers take whole files (``--dist loadfile``) from the collection's order: these start first, so that the
#: shorter files fill the gaps and the workers end together instead of one running the longest file alone at the end.
LONGEST_FIRST = (
    "tests/test_interrupts.py",
    "tests/test_output_safety.py",
    "tests/test_notebooks.py",
    "tests/test_cli_questions.py",
    "tests/test_report_pages.py",
    "tests/test_readme.py",
    "tests/test_figures.py",
    "tests/test_bench_script.py",
    "tests/test_explorer_page.py",
    "tests/test_report_playability.py",
    "tests/test_fuzz.py",
    "tests/test_encoding.py",
    "tests/test_batch_run.py",
    "tests/test_play_mana.py",
    "tests/test_report.py",
    "tests/test_plots.py",
)


def pytest_collection_modifyitems(session, config, items):
    """Put the files of :data:`LONGEST_FIRST` first, in its order; every file keeps its tests' order."""
    rank = {name: place for place, name in enumerate(LONGEST_FIRST)}
    root = Path(__file__).resolve().parent
    order = {}
    for item in items:
        path = Path(str(item.path)).resolve()
        name = path.relative_to(root).as_posix() if path.is_relative_to(root) else path.as_posix()
        order[item.nodeid] = rank.get(name, len(LONGEST_FIRST))
    items.sort(key=lambda item: order[item.nodeid])  # stable: each file keeps its own order
