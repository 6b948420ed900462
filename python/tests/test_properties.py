"""The C++ round-trip properties through Python
(tests/convert/roundtrip_property_test.cc, tests/sdy/text_property_test.cc):
import then export is the identity on tiled HLO shardings (iota and
explicit lists, with a companion sharding in the same module); export then
import gives the sharding back on meshes with device_ids and sub-axes; text
round trips of meshes and shardings; any V1 device order imports and exports
back (tests/convert/any_order_test.cc); a module exported, imported and
exported again keeps its sharding strings (tests/module/convert_module_test.cc)."""

import itertools
import math

import pytest
from hypothesis import given, strategies as st

import shardbridge as sb


def iota_devices(reshape, perm):
    """The device list of <=[reshape]T(perm), computed here: iota over
    `reshape`, transposed by `perm`, flattened."""
    n = math.prod(reshape)
    strides = [math.prod(reshape[i + 1:]) for i in range(len(reshape))]
    out = []
    for idx in itertools.product(*[range(reshape[p]) for p in perm]):
        out.append(sum(i * strides[p] for i, p in zip(idx, perm)))
    assert sorted(out) == list(range(n))
    return out


@st.composite
def tiled_hlo(draw):
    reshape = draw(st.lists(st.sampled_from([2, 3, 4]), min_size=1, max_size=3))
    perm = draw(st.permutations(range(len(reshape))))
    factors = [reshape[p] for p in perm]
    cuts = sorted(draw(st.sets(st.integers(1, len(factors) - 1), max_size=len(factors) - 1))) if len(factors) > 1 else []
    bounds = [0, *cuts, len(factors)]
    dims = [math.prod(factors[a:b]) for a, b in zip(bounds, bounds[1:])]
    replicate = len(dims) > 1 and draw(st.booleans())
    explicit = draw(st.booleans())
    suffix = " last_tile_dim_replicate" if replicate else ""
    head = "{devices=[" + ",".join(map(str, dims)) + "]"
    if explicit:
        text = head + ",".join(map(str, iota_devices(reshape, perm))) + suffix + "}"
    else:
        # XLA's parser wants T(...) whenever the reshape has several dims.
        t = "" if len(reshape) == 1 else "T(" + ",".join(map(str, perm)) + ")"
        text = head + "<=[" + ",".join(map(str, reshape)) + "]" + t + suffix + "}"
    return text, math.prod(reshape)


@given(tiled_hlo(), st.sampled_from(["{replicated}", "{manual}", "{unknown}", "{maximal device=0}", None]))
def test_import_then_export_is_the_identity(case, companion):
    text, _ = case
    h = sb.HloSharding.parse(text)
    module = [h] + ([companion] if companion else [h])
    mesh, imported = sb.infer_mesh(module)
    back = sb.to_hlo(imported[0])
    assert back == h, (text, str(mesh), str(imported[0]), str(back))
    # V1 and V2 texts of the same sharding are equal and hash equal.
    assert hash(back) == hash(h)


@given(tiled_hlo())
def test_iota_and_its_device_list_are_equal(case):
    text, _ = case
    h = sb.HloSharding.parse(text)
    head, _, rest = text.partition("]")
    if "<=" in text:
        reshape = [int(x) for x in text.split("<=[")[1].split("]")[0].split(",")]
        perm = ([int(x) for x in text.split("T(")[1].split(")")[0].split(",")] if "T(" in text
                else list(range(len(reshape))))
        suffix = " last_tile_dim_replicate" if "last_tile_dim_replicate" in text else ""
        v1 = sb.HloSharding.parse(head + "]" + ",".join(map(str, iota_devices(reshape, perm))) + suffix + "}")
        assert v1 == h and hash(v1) == hash(h)


@st.composite
def mesh_with_ids(draw):
    sizes = draw(st.lists(st.sampled_from([2, 3, 4]), min_size=1, max_size=3))
    names = ["x", "y", "z"][: len(sizes)]
    n = math.prod(sizes)
    ids = draw(st.one_of(st.none(), st.permutations(range(n))))
    return sb.Mesh(dict(zip(names, sizes)), device_ids=ids)


@given(mesh_with_ids(), st.data())
def test_export_then_import_on_meshes_with_device_ids(mesh, data):
    names = list(mesh.axes)
    rank = data.draw(st.integers(1, 3))
    order = data.draw(st.permutations(names))
    dims = [[] for _ in range(rank)]
    for a in order:
        d = data.draw(st.integers(-1, rank - 1))
        if d >= 0:
            dims[d].append(a)
    text = "#sdy.sharding<@mesh, [" + ", ".join("{" + ", ".join(f'"{a}"' for a in ds) + "}" for ds in dims) + "]>"
    s = sb.TensorSharding.parse(text, mesh)
    h = sb.to_hlo(s)
    back = sb.to_sdy(h, mesh, rank=rank)
    assert sb.to_hlo(back) == h
    assert pickle_round_trip(mesh) == mesh
    assert sb.Mesh.parse(str(mesh)) == mesh


def pickle_round_trip(x):
    import pickle
    return pickle.loads(pickle.dumps(x))


SUB_AXIS_SHARDINGS = [
    '#sdy.sharding<@mesh, [{"x":(1)2}, {"x":(2)4, "y"}]>',
    '#sdy.sharding<@mesh, [{"y", "x":(1)4}, {}], replicated={"x":(4)2}>',
    '#sdy.sharding<@mesh, [{"x":(2)2, ?}, {"y":(1)2}p0], unreduced={"y":(2)2}>',
    '#sdy.sharding<@mesh, [{}, {"x"}], unreduced=max{"y"}>',
]


@given(st.sampled_from(SUB_AXIS_SHARDINGS))
def test_sub_axes_text_and_export_round_trips(text):
    mesh = sb.Mesh({"x": 8, "y": 4})
    s = sb.TensorSharding.parse(text, mesh)
    assert str(s) == text and str(sb.TensorSharding.parse(str(s), mesh)) == text
    h = sb.to_hlo(s)
    assert sb.HloSharding.from_proto(h.to_proto()) == h
    if not s.unreduced and not any(s.open_dims) and "p0" not in text:
        assert sb.to_hlo(sb.to_sdy(h, mesh, rank=s.rank)) == h


@st.composite
def any_v1_order(draw):
    dims = draw(st.lists(st.sampled_from([1, 2, 3, 4]), min_size=1, max_size=3).filter(lambda d: math.prod(d) > 1))
    n = math.prod(dims)
    devices = draw(st.permutations(range(n)))
    return "{devices=[" + ",".join(map(str, dims)) + "]" + ",".join(map(str, devices)) + "}", n


@given(any_v1_order())
def test_any_v1_device_order_imports_and_exports_back(case):
    # tests/convert/any_order_test.cc AnyV1OrderImportsAndExportsBack: every
    # V1 device order imports (onto a mesh with device_ids when no iota mesh
    # explains it) and exports back to an equal sharding.
    text, n = case
    h = sb.HloSharding.parse(text)
    s = sb.to_sdy(h)
    assert s.mesh.size == n
    assert sb.to_hlo(s) == h
    assert sb.to_hlo(sb.TensorSharding.parse(str(s), s.mesh)) == h


@pytest.mark.parametrize("name", ["jax_module.mlir", "jax_module_mhlo.mlir", "jax_shard_map_module.mlir",
                                  "small_module.mlir"])
def test_module_export_import_export_keeps_the_strings(examples, name):
    # tests/module/convert_module_test.cc ModuleRoundTrip
    # ExportImportExportKeepsStrings, over the bundled modules.
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        first = sb.convert_module((examples / name).read_text(), to="hlo")
        again = sb.convert_module(sb.convert_module(first, to="sdy"), to="hlo")
    rows = [r["hlo"] for r in sb.list_shardings(first)]
    assert rows and rows == [r["hlo"] for r in sb.list_shardings(again)]
