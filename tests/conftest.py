from pathlib import Path

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
