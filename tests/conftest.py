import os
from pathlib import Path

# The suite reads English unless a test asks for French, whatever the machine's locale; a message that has no
# French text fails instead of falling back to English (deckstat/i18n.py).
os.environ["DECKSTAT_LANG"] = "en"
os.environ["DECKSTAT_STRICT_I18N"] = "1"

import numpy as np
import pytest
from helpers import DATA


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
