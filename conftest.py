"""Docstring examples run with the sample data folder at hand, whatever the working directory."""

from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parent / "data"

# Running the module would start the command line.
collect_ignore = ["deckstat/__main__.py"]


@pytest.fixture(autouse=True)
def _doctest_namespace(doctest_namespace):
    doctest_namespace["DATA"] = DATA
