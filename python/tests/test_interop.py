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
