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
