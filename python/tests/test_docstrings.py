"""Every public name has a docstring, and the examples in them run."""

import doctest

import pytest

import shardbridge as sb
from shardbridge import _core, _errors, jax, orbax, torch  # noqa: F401

PUBLIC = [n for n in sb.__all__ if n != "__version__"]


@pytest.mark.parametrize("name", PUBLIC)
def test_public_name_has_docstring(name):
    assert (getattr(sb, name).__doc__ or "").strip(), name


@pytest.mark.parametrize("module", [sb, _core, _errors, jax, orbax, torch], ids=lambda m: m.__name__)
def test_docstring_examples(module):
    finder = doctest.DocTestFinder(exclude_empty=True)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    globs = {"sb": sb, **{n: getattr(sb, n) for n in PUBLIC}, "HloSharding": sb.HloSharding}
    tests = finder.find(module, module.__name__, globs=globs)
    for t in tests:
        runner.run(t)
    assert runner.failures == 0


def test_docs_walkthrough(monkeypatch):
    """The >>> examples of docs/python.md, run from the source tree (they read examples/)."""
    from conftest import SOURCE_DIR
    monkeypatch.chdir(SOURCE_DIR)
    result = doctest.testfile(str(SOURCE_DIR / "docs" / "python.md"), module_relative=False,
                              optionflags=doctest.NORMALIZE_WHITESPACE, report=True)
    assert result.attempted > 5 and result.failed == 0
