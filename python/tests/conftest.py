"""Shared settings: Hypothesis derandomized with no example database (so CI
runs are reproducible and nothing is written into the source tree), and the
paths of the CLI and the source tree the CTest registration passes in."""

import os
import pathlib
import tempfile

# Hypothesis keeps caches (e.g. its Unicode tables) in a storage directory,
# ./.hypothesis by default: put it in the build tree (CTest sets the
# variable) or a temporary directory, never the source tree.
os.environ.setdefault("HYPOTHESIS_STORAGE_DIRECTORY", os.path.join(tempfile.gettempdir(), "shardbridge-hypothesis"))

import pytest  # noqa: E402
from hypothesis import HealthCheck, settings  # noqa: E402
from hypothesis.configuration import set_hypothesis_home_dir  # noqa: E402

set_hypothesis_home_dir(os.environ["HYPOTHESIS_STORAGE_DIRECTORY"])

settings.register_profile(
    "shardbridge",
    derandomize=True,
    database=None,
    deadline=None,
    max_examples=int(os.environ.get("SB_HYPOTHESIS_EXAMPLES", "60")),
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile("shardbridge")

SOURCE_DIR = pathlib.Path(os.environ.get("SB_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[2]))


@pytest.fixture
def cli():
    path = os.environ.get("SB_CLI")
    if not path or not os.path.exists(path):
        pytest.skip("SB_CLI (the shardbridge binary) is not set")
    return path


@pytest.fixture
def examples():
    return SOURCE_DIR / "examples"
