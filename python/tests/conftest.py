"""Shared settings: Hypothesis derandomized with no example database (so CI
runs are reproducible and nothing is written into the source tree), and the
paths of the CLI and the source tree the CTest registration passes in."""

import os
import pathlib

import pytest
from hypothesis import HealthCheck, settings

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
