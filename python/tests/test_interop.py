"""JAX, PyTorch DTensor and Orbax interop, with known answers from the
frameworks' own sources and tests (cited per test)."""

import pickle
from collections import OrderedDict

import pytest

import shardbridge as sb
from shardbridge.jax import UNCONSTRAINED


class FakeJaxMesh:
    """Duck-typed jax.sharding.Mesh: .shape maps axis names to sizes."""

    def __init__(self, **axes):
        self.shape = OrderedDict(axes)
        self.axis_names = tuple(axes)


class FakeNamedSharding:
    def __init__(self, mesh, spec, logical_device_ids=None):
        self.mesh, self.spec, self._logical_device_ids = mesh, spec, logical_device_ids


def test_jax_iota_tile_example():
    # jax/_src/named_sharding.py, named_sharding_to_xla_hlo_sharding's worked
    # example: mesh {'a': 2, 'b': 2, 'c': 2, 'd': 2}, P(None, ('d', 'b'), 'c'),
    # rank 4 -> dims [1, 4, 2, 1, 2], reshape_dims [2, 2, 2, 2],
    # transpose_perm [3, 1, 2, 0], subgroup REPLICATED.
    mesh = FakeJaxMesh(a=2, b=2, c=2, d=2)
    s = sb.from_partition_spec((None, ("d", "b"), "c"), mesh, rank=4)
    assert str(s) == '#sdy.sharding<@mesh, [{}, {"d", "b"}, {"c"}, {}]>'
    jax_args = sb.HloSharding.parse("{devices=[1,4,2,1,2]<=[2,2,2,2]T(3,1,2,0) last_tile_dim_replicate}")
    assert sb.to_hlo(s) == jax_args
    # XLA canonicalises the iota (merging mesh dims that stay adjacent).
    assert str(sb.to_hlo(s)) == str(jax_args) == "{devices=[1,4,2,1,2]<=[2,4,2]T(2,1,0) last_tile_dim_replicate}"


def test_jax_spec_forms_and_rules():
    mesh = {"x": 2, "y": 2, "z": 2, "w": 2}
    spec = sb.PartitionSpec("x", ("y", "z"), None, unreduced={"w"})
    s = sb.from_partition_spec(spec, mesh)
    # NamedSharding._to_sdy_sharding + SdyArray.build: dims in spec order,
    # unreduced axes sorted in mesh order.
    assert str(s) == '#sdy.sharding<@mesh, [{"x"}, {"y", "z"}, {}], unreduced={"w"}>'
    assert s.partition_spec() == spec
    assert s.partition_spec().unreduced == frozenset({"w"})
    u = sb.from_partition_spec(sb.PartitionSpec(None, unreduced={"z", "x"}), mesh)
    assert u.unreduced == ["x", "z"]
    assert str(sb.from_partition_spec((UNCONSTRAINED,), mesh)) == "#sdy.sharding<@mesh, [{?}]>"
    ns = FakeNamedSharding(FakeJaxMesh(x=2, y=2), ("y", "x"))
    assert str(sb.to_hlo(sb.from_partition_spec(ns))) == "{devices=[2,2]<=[2,2]T(1,0)}"
    # A NamedSharding with logical device ids keeps them as device_ids.
    ld = sb.from_partition_spec(FakeNamedSharding(FakeJaxMesh(x=2), ("x",), (1, 0)))
    assert ld.mesh.device_ids == [1, 0]
    assert str(sb.to_hlo(ld)) == "{devices=[2]1,0}"
    assert pickle.loads(pickle.dumps(spec)) == spec
    assert repr(spec) == "P('x', ('y', 'z'), None, unreduced={'w'})"


def test_jax_errors():
    mesh = {"x": 2, "y": 2}
    with pytest.raises(sb.Error, match='unknown axis name: "q"'):
        sb.from_partition_spec(("q",), mesh)
    with pytest.raises(sb.Error, match="duplicate"):
        sb.from_partition_spec(("x", "x"), mesh)
    with pytest.raises(sb.Error, match="rank 1"):
        sb.from_partition_spec(("x", "y"), mesh, rank=1)
    with pytest.raises(sb.Error, match="unreduced"):
        sb.from_partition_spec(sb.PartitionSpec(unreduced={"q"}), mesh)
    with pytest.raises(TypeError):
        sb.from_partition_spec("x", mesh)
    with pytest.raises(TypeError):
        sb.from_partition_spec(("x",), 7)
    with pytest.raises(TypeError):
        sb.from_partition_spec((3,), mesh)
    sub = sb.TensorSharding.parse('#sdy.sharding<@mesh, [{"x":(1)2}]>', '<["x"=4]>')
    with pytest.raises(sb.Error, match="sub-axis"):
        sub.partition_spec()
    with pytest.raises(sb.Error, match="no known mesh"):
        sb.TensorSharding.parse('<@mesh, [{"x"}]>').partition_spec()


def test_hlo_dump_as_partition_specs(examples):
    rows = sb.list_shardings(examples / "jax_module.hlo.txt")
    mesh = sb.Mesh({"_axis_0": 2, "_axis_1": 4})
    specs = [sb.TensorSharding.parse(r["sdy"], mesh).partition_spec() for r in rows
             if r["sdy"] and r["sdy"].startswith("#sdy.sharding<")]
    assert sb.PartitionSpec("_axis_0", "_axis_1") in specs


class Shard:
    def __init__(self, dim):
        self.dim = dim


class Replicate:
    pass


class Partial:
    def __init__(self, reduce_op="sum"):
        self.reduce_op = reduce_op


def test_dtensor_placements():
    # torch/distributed/tensor/placement_types.py and
    # pytorch test/distributed/tensor/test_utils.py
    # (compute_local_shape_and_global_offset): on a mesh of shape (2, 2) with
    # devices in row-major order, Shard(0) on mesh dim 0 gives the rank at
    # coordinate (i, j) chunk i; Replicate() on a mesh dim copies over it;
    # Shard(0), Shard(0) splits dim 0 four ways with mesh dim 0 major (chunk
    # 2i + j).
    assert str(sb.from_placements([Shard(0), Replicate()], (2, 2), rank=1)) == \
        "{devices=[2,2]<=[4] last_tile_dim_replicate}"
    assert str(sb.from_placements(["R", "S(0)"], (2, 2), rank=1)) == \
        "{devices=[2,2]<=[2,2]T(1,0) last_tile_dim_replicate}"
    assert str(sb.from_placements(["S(0)", "S(0)"], (2, 2), rank=1)) == "{devices=[4]<=[4]}"
    assert str(sb.from_placements(["S(1)", "S(0)"], (2, 2), rank=2)) == "{devices=[2,2]<=[2,2]T(1,0)}"
    # DTensorSpec.shard_order: mesh dim 1 shards tensor dim 0 first (major).
    assert str(sb.from_placements(["S(0)", "S(0)"], (2, 2), rank=1, shard_order={0: [1, 0]})) == \
        "{devices=[4]<=[2,2]T(1,0)}"
    assert str(sb.from_placements([Partial(), Shard(0)], (2, 2), ["dp", "tp"], rank=1)) == \
        "{devices=[2,2]<=[2,2]T(1,0) last_tile_dims={unreduced}}"
    assert sb.from_placements(["S(-1)"], (4,), rank=2) == sb.HloSharding.parse("{devices=[1,4]<=[4]}")


def test_dtensor_placements_back():
    for placements, rank in ([["S(0)", "R"], 1], [["R", "S(0)"], 1], [["S(1)", "S(0)"], 2], [["R", "R"], 1],
                             [["P(sum)", "S(0)"], 1], [["S(0)", "S(0)"], 1]):
        h = sb.from_placements(placements, (2, 2), rank=rank)
        assert h.placements((2, 2), rank=rank) == placements
    h = sb.from_placements(["S(0)", "S(0)"], (2, 2), rank=1, shard_order={0: [1, 0]})
    assert h.placements((2, 2), with_shard_order=True) == (["S(0)", "S(0)"], {0: [1, 0]})
    with pytest.raises(sb.Error, match="shard_order"):
        h.placements((2, 2))
    with pytest.raises(sb.Error):
        sb.HloSharding.parse("{devices=[2,2]0,1,3,2}").placements((2, 2))
    with pytest.raises(sb.Error, match="manual"):
        sb.HloSharding.parse("{manual}").placements((2,))


def test_dtensor_errors():
    with pytest.raises(sb.Error, match="2 placements"):
        sb.from_placements(["R", "R"], (4,), rank=1)
    with pytest.raises(sb.Error, match="out of range"):
        sb.from_placements(["S(2)"], (4,), rank=1)
    with pytest.raises(sb.Error, match="no HLO form"):
        sb.from_placements(["P(avg)"], (4,), rank=1)
    with pytest.raises(sb.Error, match="not S"):
        sb.from_placements(["X"], (4,), rank=1)
    with pytest.raises(TypeError):
        sb.from_placements([object()], (4,), rank=1)
    with pytest.raises(TypeError):
        sb.from_placements(["R"], (4,), rank="1")


ORBAX = ('{"sharding_type": "NamedSharding", "shape": [2, 4], "axis_names": ["x", "y"], '
         '"partition_spec": [["x", "y"], null]}')


def test_orbax():
    # orbax/checkpoint/metadata/sharding.py NamedShardingMetadata.to_serialized_string:
    # sharding_type, shape (mesh axis sizes), axis_names, partition_spec
    # (tuples written as JSON lists), optional device_mesh {"mesh": [[{"id": N}]]}.
    mesh, s = sb.from_orbax(ORBAX)
    assert str(mesh) == '#sdy.mesh<["x"=2, "y"=4]>'
    assert str(s) == '#sdy.sharding<@mesh, [{"x", "y"}, {}]>'
    assert str(sb.to_hlo(s)) == "{devices=[8,1]<=[8]}"
    with_devices = {"sharding_type": "NamedSharding", "shape": [2], "axis_names": ["x"],
                    "partition_spec": ["x"], "device_mesh": {"mesh": [{"id": 1}, {"id": 0}]}}
    mesh, s = sb.from_orbax(with_devices)
    assert mesh.device_ids == [1, 0]
    with pytest.raises(sb.Error, match="SingleDeviceSharding"):
        sb.from_orbax('{"sharding_type": "SingleDeviceSharding", "device_str": "TFRT_CPU_0"}')
    with pytest.raises(sb.Error, match="not JSON"):
        sb.from_orbax("{")
    with pytest.raises(sb.Error, match="partition_spec"):
        sb.from_orbax('{"sharding_type": "NamedSharding", "shape": [2], "axis_names": ["x"]}')
    with pytest.raises(TypeError):
        sb.from_orbax(3)


class _StridedShard:
    def __init__(self, dim, split_factor):
        self.dim, self.split_factor = dim, split_factor


def test_dtensor_strided_shard_is_a_shard_order():
    # torch/distributed/tensor/_dtensor_spec.py, the docstrings of
    # convert_shard_order_to_StridedShard and
    # maybe_convert_StridedShard_to_shard_order: on a mesh (4, 3, 2),
    # (_StridedShard(0, sf=2), _StridedShard(0, sf=2), Shard(0)) is tensor
    # dim 0 sharded over mesh dims 2, then 0, then 1.
    want = sb.from_placements(["S(0)", "S(0)", "S(0)"], (4, 3, 2), rank=1, shard_order={0: [2, 0, 1]})
    # Mesh dims (2, 0, 1) major to minor: [4,3,2]T(2,0,1), which XLA
    # canonicalises by merging mesh dims 0 and 1 (adjacent in both orders).
    assert want == sb.HloSharding.parse("{devices=[24]<=[4,3,2]T(2,0,1)}")
    assert str(want) == "{devices=[24]<=[12,2]T(1,0)}"
    got = sb.from_placements([_StridedShard(0, 2), _StridedShard(0, 2), Shard(0)], (4, 3, 2), rank=1)
    assert got == want
    # The same placements as the strings str(_StridedShard) gives (placement_types.py: "_S(dim, sf)").
    assert sb.from_placements(["_S(0, 2)", "_S(0, 2)", "S(0)"], (4, 3, 2), rank=1) == want
    assert want.placements((4, 3, 2), with_shard_order=True) == (["S(0)", "S(0)", "S(0)"], {0: [2, 0, 1]})
    with pytest.raises(sb.Error, match="matches no shard order"):
        sb.from_placements([_StridedShard(0, 5), Shard(0)], (2, 2), rank=1)
    with pytest.raises(sb.Error, match="both _StridedShard placements and a shard_order"):
        sb.from_placements([_StridedShard(0, 2), Shard(0)], (2, 2), rank=1, shard_order={0: [1, 0]})
    with pytest.raises(TypeError):
        sb.from_placements([_StridedShard(0, "2"), Shard(0)], (2, 2), rank=1)


def test_dtensor_format_shard_order_example():
    # torch/distributed/tensor/_dtensor_spec.py format_shard_order_str: a
    # rank-3 tensor on a 2x2x2x2 mesh with placements
    # [Partial(), Shard(1), Shard(1), Replicate()] and shard_order
    # (ShardOrderEntry(tensor_dim=1, mesh_dims=(2, 1)),) -- "PS(1)[1]S(1)[0]R":
    # mesh dim 2 shards tensor dim 1 first, mesh dim 1 second.
    h = sb.from_placements([Partial(), Shard(1), Shard(1), Replicate()], (2, 2, 2, 2), rank=3,
                           shard_order={1: [2, 1]})
    sdy = sb.to_sdy(h, sb.Mesh({"dim0": 2, "dim1": 2, "dim2": 2, "dim3": 2}))
    assert sdy.dims == [[], ["dim2", "dim1"], []]
    assert sdy.unreduced == ["dim0"]
    assert h.placements((2, 2, 2, 2), rank=3, with_shard_order=True) == (["P(sum)", "S(1)", "S(1)", "R"], {1: [2, 1]})


def test_dtensor_mesh_shape_types():
    with pytest.raises(TypeError, match="sequence of ints"):
        sb.from_placements(["S(0)"], ("2",), rank=1)
    with pytest.raises(TypeError, match="sequence of ints"):
        sb.from_placements(["S(0)"], (2.0,), rank=1)
    with pytest.raises(TypeError, match="sequence of ints"):
        sb.HloSharding.parse("{devices=[2]<=[2]}").placements((True,))
    with pytest.raises(TypeError, match="Shard.dim must be an int"):
        sb.from_placements([Shard("0")], (2,), rank=1)
    with pytest.raises(sb.Error, match="repeat a name"):
        sb.from_placements(["S(0)", "R"], (2, 2), ["a", "a"], rank=1)


def test_orbax_known_answer_and_axis_types():
    # orbax/checkpoint/_src/metadata/sharding_test.py
    # test_convert_between_named_sharding_string_to_named_sharding_metadata:
    # the exact string NamedShardingMetadata.to_serialized_string writes.
    mesh, s = sb.from_orbax('{"sharding_type": "NamedSharding", "shape": [1], "axis_names": ["x"],'
                            ' "partition_spec": [null]}')
    assert str(mesh) == '#sdy.mesh<["x"=1]>' and str(s) == "#sdy.sharding<@mesh, [{}]>"
    # test_named_sharding_with_explicit_axis_type_roundtrip: "axis_types" is
    # written as ["AxisType.Explicit"]; it does not change the sharding.
    _, s = sb.from_orbax('{"sharding_type": "NamedSharding", "shape": [2], "axis_names": ["x"],'
                         ' "axis_types": ["AxisType.Explicit"], "partition_spec": ["x"]}')
    assert str(s) == '#sdy.sharding<@mesh, [{"x"}]>'
    # sharding.py from_serialized_string: PositionalSharding is deprecated.
    with pytest.raises(sb.Error, match="PositionalSharding"):
        sb.from_orbax('{"sharding_type": "PositionalSharding", "shape": [1, 2]}')


@pytest.mark.parametrize("fields,message", [
    ({"shape": ["2"]}, "shape must be the mesh axis sizes"),
    ({"shape": [True]}, "shape must be the mesh axis sizes"),
    ({"axis_names": [3]}, "axis_names must be strings"),
    ({"partition_spec": "x"}, "partition_spec must be a list"),
    ({"partition_spec": [3]}, "partition_spec entry 3"),
    ({"partition_spec": [["x", 1]]}, "partition_spec entry"),
    ({"shape": [2, 2], "axis_names": ["x", "x"]}, "repeat a name"),
    ({"device_mesh": {"mesh": [{"id": "1"}, {"id": 0}]}}, "the id must be an int"),
    ({"device_mesh": {"mesh": [{"id": 1}, {"id": 1}]}}, "not a permutation"),
])
def test_orbax_malformed_metadata_is_an_error(fields, message):
    data = {"sharding_type": "NamedSharding", "shape": [2], "axis_names": ["x"], "partition_spec": ["x"]}
    data.update(fields)
    with pytest.raises(sb.Error, match=message):
        sb.from_orbax(data)


def test_partition_spec_on_a_mesh_with_device_ids_warns():
    # The device order lives in a jax Mesh's device array
    # (jax/_src/named_sharding.py: the sdy mesh of a NamedSharding has no
    # device ids unless _logical_device_ids are given): the spec exists, and
    # the warning says which order the Mesh must list.
    s = sb.to_sdy("{devices=[4]0,3,1,2}")
    with pytest.warns(UserWarning, match=r"device order \[0, 3, 1, 2\]"):
        assert s.partition_spec() == sb.PartitionSpec("_axis_0")
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert sb.to_sdy("{devices=[4]<=[4]}").partition_spec() == sb.PartitionSpec("_axis_0")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # replicated axes lose nothing: no warning
        r = sb.TensorSharding.parse('#sdy.sharding<@mesh, [{"x"}], replicated={"y"}>', '<["x"=2, "y"=2]>')
        assert r.partition_spec() == sb.PartitionSpec("x")
    m = sb.TensorSharding.parse('#sdy.sharding<@mesh, [{"x"}], unreduced=max{"y"}>', '<["x"=2, "y"=2]>')
    with pytest.warns(UserWarning, match="reduction op max"):
        assert m.partition_spec() == sb.PartitionSpec("x", unreduced={"y"})
