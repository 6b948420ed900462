"""to_hlo / to_sdy / infer_mesh, and the round trips the C++ property tests
check (tests/convert/*_property_test.cc), through Python."""

import math
import pickle

import pytest
from hypothesis import given, strategies as st

import shardbridge as sb

MESH = '<["x"=2, "y"=4]>'


def test_done_when_line():
    s = sb.HloSharding.parse('{devices=[4,2]<=[2,4]T(1,0)}')
    assert f"{s} {sb.to_sdy(s, MESH)}" == '{devices=[4,2]<=[2,4]T(1,0)} #sdy.sharding<@mesh, [{"y"}, {"x"}]>'


def test_to_sdy_inputs():
    s = sb.HloSharding.parse('{devices=[4,2]<=[2,4]T(1,0)}')
    want = '#sdy.sharding<@mesh, [{"y"}, {"x"}]>'
    assert str(sb.to_sdy(str(s), MESH)) == want
    assert str(sb.to_sdy(s.to_proto(), sb.Mesh.parse(MESH))) == want
    assert str(sb.to_sdy("{replicated}", MESH, rank=3)) == "#sdy.sharding<@mesh, [{}, {}, {}]>"
    with pytest.raises(sb.Error, match="tiles 2 dimensions but the tensor has rank 3"):
        sb.to_sdy(s, MESH, rank=3)
    assert str(sb.to_sdy(s, MESH, open_dims=True)) == '#sdy.sharding<@mesh, [{"y", ?}, {"x", ?}]>'
    inferred = sb.to_sdy(s)
    assert inferred.mesh is not None and inferred.mesh.size == 8
    assert sb.to_hlo(inferred) == s
    single = sb.to_sdy("{maximal device=3}")
    assert str(single) == "#sdy.sharding<@single_device_3, []>"
    assert single.mesh.device_ids == [3] and single.mesh.name == "single_device_3"
    parts = sb.to_sdy("{{devices=[2]<=[2]}, {replicated}}", '<["a"=2]>')
    assert [str(p) for p in parts] == ['#sdy.sharding<@mesh, [{"a"}]>', "#sdy.sharding<@mesh, []>"]


def test_to_sdy_errors():
    with pytest.raises(TypeError):
        sb.to_sdy(3)
    with pytest.raises(TypeError):
        sb.to_sdy("{replicated}", mesh=4)
    with pytest.raises(sb.Error, match="rank must be at least 0"):
        sb.to_sdy("{replicated}", rank=-1)
    with pytest.raises(sb.Error):
        sb.to_sdy("{devices=[3]<=[3]}", MESH)
    with pytest.raises(sb.Error):
        sb.to_sdy("{devices=[2,2]0,1,3,2}", '<["x"=2, "y"=2]>', upstream_device_order=True)


def test_to_hlo():
    assert str(sb.to_hlo('#sdy.sharding<@mesh, [{"y"}, {"x"}]>', MESH)) == '{devices=[4,2]<=[2,4]T(1,0)}'
    assert str(sb.to_hlo('#sdy.sharding<@mesh, [{"y"}, {"x"}]>', MESH, v3=True)) == "{mesh['x'=2,'y'=4], [{'y'}, {'x'}]}"
    assert str(sb.to_hlo('#sdy.sharding<@mesh, [{"y"}, {}]>', MESH, manual_axes=["x"])) == \
        "{devices=[4,1,2]<=[2,4]T(1,0) last_tile_dims={manual}}"
    t = sb.TensorSharding.parse('#sdy.sharding<@mesh, [{"x"}]>', MESH)
    assert str(sb.to_hlo(t)) == "{devices=[2,4]<=[8] last_tile_dim_replicate}"
    with pytest.raises(sb.Error, match="no mesh"):
        sb.to_hlo('#sdy.sharding<@mesh, [{"x"}]>')
    with pytest.raises(sb.Error) as info:
        sb.to_hlo('#sdy.sharding<@mesh, [{"q"}]>', MESH)
    assert info.value.offset == 23
    with pytest.raises(TypeError):
        sb.to_hlo(sb.HloSharding.parse("{replicated}"), MESH)


def test_infer_mesh():
    mesh, out = sb.infer_mesh(["{devices=[2,4]<=[8]}", sb.HloSharding.parse("{devices=[8]<=[8]}"), "{replicated}"])
    assert str(mesh) == '#sdy.mesh<["_axis_0"=2, "_axis_1"=4]>'
    assert [str(s) for s in out] == ['#sdy.sharding<@mesh, [{"_axis_0"}, {"_axis_1"}]>',
                                     '#sdy.sharding<@mesh, [{"_axis_0", "_axis_1"}]>',
                                     "#sdy.sharding<@mesh, []>"]
    with pytest.raises(TypeError):
        sb.infer_mesh("{replicated}")
    with pytest.raises(sb.Error, match="^no common mesh"):
        sb.infer_mesh(["{devices=[2]<=[2]}", "{devices=[3]<=[3]}"], upstream_device_order=True)


# --- properties -------------------------------------------------------------

@st.composite
def mesh_and_sharding(draw):
    sizes = draw(st.lists(st.sampled_from([2, 3, 4]), min_size=1, max_size=3))
    names = ["a", "b", "c"][: len(sizes)]
    rank = draw(st.integers(min_value=1, max_value=3))
    order = draw(st.permutations(names))
    dims = [[] for _ in range(rank)]
    for name in order:
        d = draw(st.integers(min_value=-1, max_value=rank - 1))
        if d >= 0:
            dims[d].append(name)
    mesh = sb.Mesh(dict(zip(names, sizes)))
    text = "#sdy.sharding<@mesh, [" + ", ".join("{" + ", ".join(f'"{a}"' for a in ds) + "}" for ds in dims) + "]>"
    return mesh, sb.TensorSharding.parse(text, mesh), dims


@given(mesh_and_sharding())
def test_export_import_export(case):
    mesh, s, _ = case
    h = sb.to_hlo(s)
    back = sb.to_sdy(h, mesh, rank=s.rank)
    assert sb.to_hlo(back) == h
    assert sb.to_hlo(s, v3=True) == h and hash(sb.to_hlo(s, v3=True)) == hash(h)


@given(mesh_and_sharding())
def test_hlo_text_proto_pickle_round_trips(case):
    _, s, _ = case
    for h in (sb.to_hlo(s), sb.to_hlo(s, v3=True)):
        assert str(sb.HloSharding.parse(str(h))) == str(h)
        assert sb.HloSharding.from_proto(h.to_proto()) == h
        assert pickle.loads(pickle.dumps(h)) == h
    assert str(sb.TensorSharding.parse(str(s), s.mesh)) == str(s)
    assert pickle.loads(pickle.dumps(s)) == s


def expected_indices(mesh_sizes, names, dims, shape):
    """Independent of the C++ code: device d sits at its row-major coordinates
    in the mesh; along tensor dim i, sharded over axes (major first), its tile
    index is the mixed-radix number of those coordinates."""
    n = math.prod(mesh_sizes)
    out = {}
    for d in range(n):
        coords, rest = {}, d
        for name, size in reversed(list(zip(names, mesh_sizes))):
            coords[name] = rest % size
            rest //= size
        idx = []
        for axes, size in zip(dims, shape):
            shards = math.prod(mesh_sizes[names.index(a)] for a in axes)
            if shards == 1:
                idx.append(slice(None))
                continue
            t = 0
            for a in axes:
                t = t * mesh_sizes[names.index(a)] + coords[a]
            c = -(-size // shards)
            idx.append(slice(min(t * c, size), min((t + 1) * c, size)))
        out[d] = tuple(idx)
    return out


@given(mesh_and_sharding(), st.data())
def test_devices_indices_map_independent(case, data):
    mesh, s, dims = case
    names, sizes = list(mesh.axes), list(mesh.axes.values())
    shape = [data.draw(st.integers(min_value=1, max_value=13)) for _ in dims]
    h = sb.to_hlo(s)
    if h.is_replicated:
        got = h.devices_indices_map(shape, num_devices=mesh.size)
    else:
        got = h.devices_indices_map(shape)
    assert got == expected_indices(sizes, names, dims, shape)
    assert list(got) == sorted(got)


def test_devices_indices_map_leaves_the_collector_as_it_was():
    import gc
    s = sb.HloSharding.parse("{devices=[4]<=[4]}")
    assert gc.isenabled()
    s.devices_indices_map([8])
    assert gc.isenabled()
    gc.disable()
    try:
        s.devices_indices_map([8])
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_devices_indices_map_cases():
    # JAX's even split (jax/_src/op_shardings.py op_sharding_to_numpy_indices).
    s = sb.HloSharding.parse("{devices=[2,1,2]<=[4] last_tile_dim_replicate}")
    assert s.devices_indices_map((4, 3)) == {
        0: (slice(0, 2), slice(None)), 1: (slice(0, 2), slice(None)),
        2: (slice(2, 4), slice(None)), 3: (slice(2, 4), slice(None))}
    # Uneven: XLA's ceil split, 5 over 4 -> 2, 2, 1, 0.
    u = sb.HloSharding.parse("{devices=[4]<=[4]}").devices_indices_map([5])
    assert u == {0: (slice(0, 2),), 1: (slice(2, 4),), 2: (slice(4, 5),), 3: (slice(5, 5),)}
    assert sb.HloSharding.parse("{maximal device=5}").devices_indices_map("f32[3,2]") == {5: (slice(None), slice(None))}
    assert sb.HloSharding.parse("{replicated}").devices_indices_map([2], num_devices=2) == {0: (slice(None),), 1: (slice(None),)}
    with pytest.raises(sb.Error, match="num_devices"):
        sb.HloSharding.parse("{replicated}").devices_indices_map([2])
    with pytest.raises(sb.Error, match="manual"):
        sb.HloSharding.parse("{manual}").devices_indices_map([2])
    with pytest.raises(sb.Error, match="manual"):
        sb.HloSharding.parse("{devices=[2,2]<=[4] last_tile_dims={manual}}").devices_indices_map([2])
    with pytest.raises(sb.Error, match="unreduced"):
        sb.HloSharding.parse("{devices=[2,2]<=[4] last_tile_dims={unreduced}}").devices_indices_map([2])
    with pytest.raises(sb.Error, match="rank"):
        sb.HloSharding.parse("{devices=[2]<=[2]}").devices_indices_map([2, 2])
    with pytest.raises(sb.Error, match="tuple"):
        sb.HloSharding.parse("{{replicated}}").devices_indices_map([2])
    with pytest.raises(TypeError):
        sb.HloSharding.parse("{replicated}").devices_indices_map(3)
    # V3 through its V2 form.
    v3 = sb.HloSharding.parse("{mesh['x'=2,'y'=2], [{'y'}, {'x'}]}")
    assert v3.devices_indices_map((2, 2)) == sb.HloSharding.parse(str(sb.to_hlo(sb.to_sdy(v3)))).devices_indices_map((2, 2))


def test_devices_indices_map_require_even_is_jax_refusal():
    # jax/_src/sharding.py _common_shard_shape: an axis the tiles do not
    # divide raises IndivisibleError (a ValueError) before any device is
    # mapped; op_sharding_to_numpy_indices asserts the same.
    s = sb.HloSharding.parse("{devices=[4,1]<=[4]}")
    with pytest.raises(sb.Error, match=r"partitions array axis 0 4 times, but the dimension size is 5"):
        s.devices_indices_map((5, 3), require_even=True)
    # Even dims, and unsharded dims of any size, are what JAX gives either way.
    assert s.devices_indices_map((8, 3), require_even=True) == s.devices_indices_map((8, 3))
    assert s.devices_indices_map((8, 3), require_even=True)[3] == (slice(6, 8), slice(None))
