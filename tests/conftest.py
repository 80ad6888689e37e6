import os
from pathlib import Path

# The suite reads English unless a test asks for French, whatever the machine's locale; a message that has no
# French text fails instead of falling back to English (deckstat/i18n.py).
os.environ["DECKSTAT_LANG"] = "en"
os.environ["DECKSTAT_STRICT_I18N"] = "1"

import functools

import numpy as np
import pytest
import typer.testing
from helpers import DATA

# typer's test runner builds the click command from the app again at every call: about 12 ms, some 1,800 times a
# run. The command of an app is built once; the runner still isolates every call (streams, environment).
typer.testing._get_command = functools.cache(typer.testing._get_command)


@pytest.fixture
def data_dir() -> Path:
    """The sample data folder, whatever the working directory."""
    return DATA


@pytest.fixture
def rng() -> np.random.Generator:
    return np.random.default_rng(20261129)


@pytest.fixture(autouse=True)
def _language_follows_the_environment():
    """A test that asks for French (``--lang fr`` in process, ``set_language``) leaves the next test in English."""
    yield
    from deckstat.i18n import set_language

    set_language(None)


@pytest.fixture(autouse=True)
def _worker_processes_always_pay(monkeypatch):
    """Runs asked for several workers use them, however short: the suite's runs are small, and what they check
    (the same numbers whoever runs a block, processes that end) needs the processes. The choice itself is tested
    in tests/test_runner.py."""
    from deckstat.engines import runner

    monkeypatch.setattr(runner, "_pool_start_seconds", lambda: 0.0)
