"""The direct CPython entry points (python/src/fast_calls.cc) give exactly what
the pybind11 functions they stand in for give: HloSharding.parse, str() of an
HloSharding and to_sdy are compared with _core._pybind11_functions and the
pybind11 __str__ the class keeps, on results (text, metadata, equality, hash,
proto bytes, mesh, rank) and on errors (type, message, code, offset, line,
column, diagnostic, note). _core._fast_call_stats says which path answered,
so each test also checks that the case it is about took the path it should
(a fast path that silently handed every call on would pass the comparisons)."""

import gc
import pickle
import sys
import threading
import weakref

import pytest
from hypothesis import assume, given, strategies as st

import shardbridge as sb
from shardbridge import _core

SLOW_PARSE = _core._pybind11_functions["HloSharding.parse"]
SLOW_TO_SDY = _core._pybind11_functions["to_sdy"]
SLOW_STR = vars(sb.HloSharding)["__str__"]

VALID = [
    "{replicated}", "{manual}", "{unknown}", "{maximal device=3}",
    "{devices=[4,2]<=[2,4]T(1,0)}", "{devices=[2,2]0,2,1,3}", "{devices=[4,2]0,4,1,5,2,6,3,7}",
    "{devices=[2,2,4]<=[16] last_tile_dim_replicate}", "{devices=[2,1,2]<=[4] last_tile_dims={manual}}",
    "{devices=[2,2]<=[2,2]T(1,0) last_tile_dims={unreduced}}", "{devices=[24]<=[4,3,2]T(2,0,1)}",
    "{{replicated}, {devices=[2]<=[2]}}", "{{replicated}, {maximal device=1}}",
    '{devices=[2]<=[2] metadata={op_name="a"}}', '{devices=[2]<=[2] metadata={op_name="\u00e9"}}',
    "{mesh['x'=2,'y'=4], [{'y'}, {'x'}]}", "{mesh['\u00e9'=2], [{'\u00e9'}]}",
    "  {devices=[2]<=[2]}  ", "{devices=[2]0,0}", "{maximal device=-1}",
]
INVALID = [
    "", "{", "}", "{devices=[2]0}", "{devices=[2,2]<=[5]}", "{devices=[2]<=[2]} trailing", "garbage",
    "{mesh['x'=2], [{'y'}]}", "{devices=[2]<=[2] metadata={op_name=}", "{{replicated},\n {devices=[2]0}}",
    "{devices=[2]<=[2]\n metadata={op_name=}", "{devices=[2]<=[2]}\nx", "\u00e9{replicated}",
]


def error_fields(e):
    fields = (type(e), str(e), e.args)
    if isinstance(e, sb.Error):
        fields += (e.code, e.offset, e.line, e.column, e.diagnostic, e.note, e.note_line, e.note_column)
    return fields


def describe(value):
    """Everything observable about a result, through the pybind11 functions."""
    if isinstance(value, list):
        return ("list", [describe(v) for v in value])
    if isinstance(value, sb.HloSharding):
        return (type(value), SLOW_STR(value), value.to_string(metadata=True), repr(value), hash(value),
                value.to_proto(), value.tile_dims, value.is_tuple)
    if isinstance(value, sb.TensorSharding):
        mesh = value.mesh
        return (type(value), sb.TensorSharding.__str__(value), repr(value), value.rank, value.dims,
                value.replicated, value.unreduced, value.open_dims, value.mesh_name, hash(value),
                None if mesh is None else (type(mesh), str(mesh), mesh.name, mesh.device_ids))
    return (type(value), value)


def outcome(fn, *args, **kwargs):
    try:
        value = fn(*args, **kwargs)
    except Exception as e:  # every exception is part of the comparison
        return ("raised", error_fields(e))
    return ("returned", describe(value))


def stats(entry):
    return _core._fast_call_stats()[entry]


class Taken:
    """Counts how many calls of `entry` each path took inside the block."""

    def __init__(self, entry):
        self.entry = entry

    def __enter__(self):
        self.before = stats(self.entry)
        return self

    def __exit__(self, *exc):
        after = stats(self.entry)
        self.answered = after[0] - self.before[0]
        self.handed_on = after[1] - self.before[1]


def test_the_fast_functions_are_installed_and_look_like_pybind11s():
    fast_parse = sb.HloSharding.parse
    assert fast_parse is not SLOW_PARSE and sb.to_sdy is not SLOW_TO_SDY
    assert isinstance(vars(sb.HloSharding)["parse"], staticmethod)
    assert sb.to_sdy is _core.to_sdy
    for fast, slow in [(fast_parse, SLOW_PARSE), (sb.to_sdy, SLOW_TO_SDY)]:
        assert type(fast) is type(slow)
        for attr in ("__doc__", "__name__", "__qualname__", "__module__", "__text_signature__"):
            assert getattr(fast, attr) == getattr(slow, attr), attr
        assert fast.__self__ is slow.__self__


@pytest.mark.parametrize("text", VALID)
def test_parse_and_str_equal_pybind11s(text):
    with Taken("HloSharding.parse") as taken:
        fast = sb.HloSharding.parse(text)
    assert (taken.answered, taken.handed_on) == (1, 0)
    slow = SLOW_PARSE(text)
    assert type(fast) is sb.HloSharding and fast == slow
    assert describe(fast) == describe(slow)
    with Taken("str(HloSharding)") as taken:
        texts = [str(fast), str(slow), f"{fast}", "%s" % fast, format(fast)]
    assert taken.answered == 5 and taken.handed_on == 0
    assert texts == [SLOW_STR(slow)] * 5


@pytest.mark.parametrize("text", INVALID)
def test_parse_errors_equal_pybind11s(text):
    with Taken("HloSharding.parse") as taken:
        fast = outcome(sb.HloSharding.parse, text)
    assert taken.answered == 0 and taken.handed_on == 1
    assert fast[0] == "raised" and fast[1][0] is sb.Error
    assert fast == outcome(SLOW_PARSE, text)


class Text(str):
    pass


@pytest.mark.parametrize("args,kwargs", [
    ((b"{replicated}",), {}), ((bytearray(b"{devices=[2]0,1}"),), {}), ((b"{devices=[2]0}",), {}),
    ((3,), {}), ((None,), {}), (("\ud800",), {}), ((), {}), (("{replicated}", "x"), {}),
    ((), {"text": "{replicated}"}), ((), {"text": 3}), ((), {"txt": "{replicated}"}),
    ((Text("{devices=[2]<=[2]}"),), {}), ((Text("{devices=[2]0}"),), {}),
    (("{devices=[4096]<=[4096]}" + " " * 4096,), {}),  # large: the GIL is released on the pybind11 path
])
def test_other_parse_calls_equal_pybind11s(args, kwargs):
    assert outcome(sb.HloSharding.parse, *args, **kwargs) == outcome(SLOW_PARSE, *args, **kwargs)


def test_a_str_subclass_is_parsed_in_place():
    with Taken("HloSharding.parse") as taken:
        assert sb.HloSharding.parse(Text("{devices=[2]<=[2]}")) == SLOW_PARSE("{devices=[2]<=[2]}")
    assert (taken.answered, taken.handed_on) == (1, 0)


def test_str_of_subclasses():
    class Sub(sb.HloSharding):
        pass

    class Named(sb.HloSharding):
        def __str__(self):
            return "named"

    for cls, want in [(Sub, "{devices=[2]<=[2]}"), (Named, "named")]:
        obj = cls.__new__(cls)
        obj.__setstate__((b"{devices=[2]<=[2]}",))
        with Taken("str(HloSharding)") as taken:
            assert str(obj) == want
        assert taken.answered == 0  # subclasses use CPython's slot_tp_str
        assert SLOW_STR(obj) == "{devices=[2]<=[2]}"
        assert type(cls.parse("{replicated}")) is sb.HloSharding
        assert outcome(sb.to_sdy, obj, sb.Mesh({"x": 2})) == outcome(SLOW_TO_SDY, obj, sb.Mesh({"x": 2}))


MESHES = [
    '<["x"=2, "y"=4]>', '<["a"=4, "b"=2]>', '<["x"=8]>', '<["x"=2, "y"=2]>', '<["x"=24]>',
    '<["x"=2, "y"=4], device_ids=[7, 6, 5, 4, 3, 2, 1, 0]>', 'sdy.mesh @m = <["x"=2, "y"=4]>', '<["x"=4]>',
]


@pytest.mark.parametrize("mesh_text", MESHES)
@pytest.mark.parametrize("text", VALID)
def test_to_sdy_equals_pybind11s(text, mesh_text):
    mesh = sb.Mesh.parse(mesh_text)
    h = sb.HloSharding.parse(text)
    with Taken("to_sdy") as taken:
        fast = outcome(sb.to_sdy, h, mesh)
    assert taken.answered + taken.handed_on == 1
    # Tuples, single-device shardings and errors are left to pybind11.
    plain = fast[0] == "returned" and not h.is_tuple and not h.is_maximal
    assert taken.answered == plain
    assert fast == outcome(SLOW_TO_SDY, h, mesh)
    if fast[0] == "returned" and plain:
        t = sb.to_sdy(h, mesh)
        assert t.mesh is mesh and SLOW_TO_SDY(h, mesh).mesh is mesh
        assert t == SLOW_TO_SDY(h, mesh)


def test_to_sdy_errors_equal_pybind11s():
    mesh = sb.Mesh({"x": 3})
    h = sb.HloSharding.parse("{devices=[4,2]<=[2,4]T(1,0)}")
    with Taken("to_sdy") as taken:
        fast = outcome(sb.to_sdy, h, mesh)
    assert fast[0] == "raised" and fast[1][0] is sb.Error
    assert (taken.answered, taken.handed_on) == (0, 1)
    assert fast == outcome(SLOW_TO_SDY, h, mesh)


class SubMesh(sb.Mesh):
    pass


H = "{devices=[4,2]<=[2,4]T(1,0)}"


@pytest.mark.parametrize("args,kwargs", [
    ((H, '<["x"=2, "y"=4]>'), {}), ((sb.HloSharding.parse(H),), {}), ((sb.HloSharding.parse(H), None), {}),
    ((sb.HloSharding.parse(H), '<["x"=2, "y"=4]>'), {}), ((sb.HloSharding.parse(H).to_proto(), sb.Mesh({"x": 8})), {}),
    ((sb.HloSharding.parse(H), sb.Mesh({"x": 2, "y": 4})), {"rank": 3}),
    ((sb.HloSharding.parse(H), sb.Mesh({"x": 2, "y": 4})), {"open_dims": True}),
    ((sb.HloSharding.parse(H), sb.Mesh({"x": 2, "y": 4})), {"upstream_device_order": True}),
    ((sb.HloSharding.parse("{devices=[2]1,0}"), sb.Mesh({"x": 2})), {"upstream_device_order": True}),
    ((sb.HloSharding.parse(H),), {"mesh": sb.Mesh({"x": 8})}), ((), {"sharding": H}),
    ((sb.HloSharding.parse(H), SubMesh({"x": 2, "y": 4})), {}), ((3, sb.Mesh({"x": 2})), {}),
    ((sb.HloSharding.parse(H), 3), {}), ((), {}), ((sb.HloSharding.parse(H), sb.Mesh({"x": 8}), 1), {}),
    ((sb.HloSharding.parse(H), sb.Mesh({"x": 2, "y": 4})), {"rank": -1}),
    ((sb.HloSharding.parse("{devices=[64,64]<=[4096]}"), sb.Mesh({"x": 64, "y": 64})), {}),  # large
])
def test_other_to_sdy_calls_equal_pybind11s(args, kwargs):
    assert outcome(sb.to_sdy, *args, **kwargs) == outcome(SLOW_TO_SDY, *args, **kwargs)


def test_results_keep_their_context_and_mesh_alive():
    h = sb.HloSharding.parse("{devices=[4,2]<=[2,4]T(1,0)}")
    t = sb.to_sdy(h, sb.Mesh.parse('sdy.mesh @grid = <["x"=2, "y"=4]>'))
    gc.collect()
    assert str(t) == '#sdy.sharding<@grid, [{"y"}, {"x"}]>'
    assert str(t.mesh) == '#sdy.mesh<["x"=2, "y"=4]>' and t.mesh.name == "grid"
    assert str(sb.to_hlo(t)) == str(h)


def test_contexts_are_freed_after_fast_calls():
    h = sb.HloSharding.parse("{devices=[2,2]<=[4]}")
    for i in range(3000):
        # A new mesh each round: about 25 new attributes, so the contexts rotate.
        mesh = sb.Mesh({f"a{i}": 2, f"b{i}": 2})
        assert sb.to_sdy(h, mesh).dims == [[f"a{i}"], [f"b{i}"]]
    live, _ = _core._context_stats()
    assert live <= 2


def test_fast_results_pickle_and_take_weak_references():
    h = sb.HloSharding.parse('{devices=[4,2]<=[2,4]T(1,0) metadata={op_name="x"}}')
    t = sb.to_sdy(h, sb.Mesh.parse('<["x"=2, "y"=4]>'))
    assert pickle.loads(pickle.dumps(h)).to_string(metadata=True) == h.to_string(metadata=True)
    back = pickle.loads(pickle.dumps(t))
    assert back == t and str(back.mesh) == str(t.mesh)
    # A weakly referenced object is freed by pybind11's own tp_dealloc,
    # which clears the references.
    dead = []
    refs = [weakref.ref(obj, dead.append) for obj in (h, t)]
    assert refs[0]() is h and refs[1]() is t
    del h, t, back
    gc.collect()
    assert len(dead) == 2 and refs[0]() is None and refs[1]() is None


def test_fast_calls_do_not_leak():
    from test_core import _resident_mib
    text = "{devices=[4,2]<=[2,4]T(1,0)}"
    mesh = sb.Mesh.parse('<["x"=2, "y"=4]>')

    def loop(n):
        for _ in range(n):
            h = sb.HloSharding.parse(text)
            str(h)
            sb.to_sdy(h, mesh)

    loop(20000)
    refs = (sys.getrefcount(text), sys.getrefcount(mesh))
    before = _resident_mib()
    with Taken("to_sdy") as taken:
        loop(100000)
    grown = _resident_mib() - before
    assert taken.answered == 100000
    # An HloSharding or TensorSharding left behind per round would be tens of MiB.
    assert grown < 4, f"resident size grew by {grown:.1f} MiB over 100,000 rounds"
    assert (sys.getrefcount(text), sys.getrefcount(mesh)) == refs


def test_threads_use_the_fast_paths():
    mesh = sb.Mesh.parse('<["x"=2, "y"=4]>')
    want = (SLOW_STR(SLOW_PARSE(H)), sb.TensorSharding.__str__(SLOW_TO_SDY(H, mesh)))
    errors = []

    def work():
        try:
            for _ in range(2000):
                h = sb.HloSharding.parse(H)
                got = (str(h), str(sb.to_sdy(h, mesh)))
                if got != want:
                    errors.append(got)
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    with Taken("to_sdy") as taken:
        threads = [threading.Thread(target=work) for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert errors == []
    assert taken.answered == 8000


SHARDING_CHARS = "{}[],<=>T() 0123456789devicsmaxlrpt_=\"'xy"


@given(st.text(alphabet=SHARDING_CHARS, max_size=40) | st.sampled_from(VALID + INVALID))
def test_any_text_parses_as_pybind11_parses_it(text):
    fast = outcome(sb.HloSharding.parse, text)
    assert fast == outcome(SLOW_PARSE, text)
    if fast[0] == "returned":
        h = sb.HloSharding.parse(text)
        # The str round trip, through the fast paths.
        assert sb.HloSharding.parse(str(h)) == h and str(sb.HloSharding.parse(str(h))) == str(h)


@st.composite
def tiled(draw):
    dims = draw(st.lists(st.sampled_from([1, 2, 3, 4]), min_size=1, max_size=3))
    n = 1
    for d in dims:
        n *= d
    assume(n > 1)  # XLA wants more than one device in a tile assignment
    order = draw(st.permutations(range(n)))
    replicate = len(dims) > 1 and draw(st.booleans())
    suffix = " last_tile_dim_replicate" if replicate else ""
    return "{devices=[" + ",".join(map(str, dims)) + "]" + ",".join(map(str, order)) + suffix + "}", n


@given(tiled(), st.sampled_from([None, "x", "xy"]))
def test_to_sdy_converts_as_pybind11_converts(case, axes):
    text, n = case
    h = sb.HloSharding.parse(text)
    if axes is None:
        mesh, _ = sb.infer_mesh([h])
    elif axes == "x" or n % 2:
        mesh = sb.Mesh({"x": n})
    else:
        mesh = sb.Mesh({"x": 2, "y": n // 2})
    fast = outcome(sb.to_sdy, h, mesh)
    assert fast == outcome(SLOW_TO_SDY, h, mesh)
    if fast[0] == "returned":
        assert sb.to_hlo(sb.to_sdy(h, mesh)) == h
