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


CLASSES = [sb.Mesh, sb.TensorSharding, sb.HloSharding]


def _members(kind):
    for cls in CLASSES:
        for name in sorted(vars(cls)):
            if name.startswith("_"):
                continue
            member = vars(cls)[name]
            is_property = isinstance(member, property)
            if (kind == "property") == is_property:
                yield f"{cls.__name__}.{name}", getattr(cls, name)


@pytest.mark.parametrize("name,method", list(_members("method")), ids=lambda v: v if isinstance(v, str) else "")
def test_public_method_has_an_example(name, method):
    # pybind11 puts the signature on the first line: the text after it is ours.
    assert ">>>" in (method.__doc__ or ""), name


@pytest.mark.parametrize("name,prop", list(_members("property")), ids=lambda v: v if isinstance(v, str) else "")
def test_public_property_has_a_docstring(name, prop):
    assert (prop.__doc__ or "").strip(), name


def _stub_names():
    """{class or '' (module level): names} declared in the package's .pyi stubs."""
    import ast
    import pathlib
    here = pathlib.Path(sb.__file__).parent
    names = {}
    for stub in ("_core.pyi", "__init__.pyi"):
        tree = ast.parse((here / stub).read_text())
        for node in tree.body:
            if isinstance(node, ast.ClassDef):
                names.setdefault(node.name, set()).update(
                    n.name for n in node.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)))
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                names.setdefault("", set()).add(node.name)
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                names.setdefault("", set()).add(node.target.id)
            elif isinstance(node, ast.ImportFrom):
                names.setdefault("", set()).update(a.asname or a.name for a in node.names)
    return names


def test_stubs_declare_every_public_name():
    stubs = _stub_names()
    missing = [n for n in sb.__all__ if n not in stubs[""]]
    for cls in CLASSES:
        missing += [f"{cls.__name__}.{n}" for n in vars(cls) if not n.startswith("_") and n not in stubs[cls.__name__]]
    assert missing == []
