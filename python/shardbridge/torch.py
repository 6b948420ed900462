"""PyTorch DTensor interop without importing torch: placements <-> HloSharding.

A DTensor on a ``DeviceMesh`` of shape ``mesh_shape`` (devices in row-major
order) has one placement per mesh dim (``torch/distributed/tensor/placement_types.py``):
``Shard(d)`` splits tensor dim ``d`` over that mesh dim, ``Replicate()``
copies the tensor over it, ``Partial(op)`` holds partial values to be reduced
with ``op``. Several mesh dims sharding one tensor dim split it in mesh-dim
order (the first is major), unless a ``shard_order`` says otherwise (as
``DTensorSpec.shard_order``: per tensor dim, the mesh dims major first).
Placements are objects (duck-typed by class name: ``Shard`` with ``.dim``,
``Replicate``, ``Partial`` with ``.reduce_op``) or the strings their
``str()`` gives: ``"S(0)"``, ``"R"``, ``"P(sum)"``. ``_StridedShard``
(``.dim``, ``.split_factor``; ``"_S(0, 2)"``) stands for a shard order, decoded
as DTensorSpec decodes it (``maybe_convert_StridedShard_to_shard_order``).
"""

from __future__ import annotations

import operator
import re
from typing import Any, Mapping, Optional, Sequence, Union

from ._core import HloSharding, Mesh, to_hlo, to_sdy
from ._errors import Error
from .jax import _check_rank

_OPS = {"sum": "sum", "max": "max", "min": "min"}


def _int_attr(p: Any, attr: str) -> int:
    value = getattr(p, attr, None)
    if isinstance(value, bool):
        raise TypeError(f"{type(p).__name__}.{attr} must be an int, not bool")
    try:
        return operator.index(value)
    except TypeError:
        raise TypeError(f"{type(p).__name__}.{attr} must be an int, not {type(value).__name__}") from None


def _placement(p: Any) -> tuple[str, Any]:
    """('S', dim) | ('R', None) | ('P', op)."""
    if isinstance(p, str):
        s = p.strip()
        m = re.fullmatch(r"S\((-?\d+)\)", s)
        if m:
            return "S", int(m.group(1))
        if s == "R":
            return "R", None
        m = re.fullmatch(r"P(?:\((\w+)\))?", s)
        if m:
            return "P", m.group(1) or "sum"
        m = re.fullmatch(r"_S\((-?\d+),\s*(\d+)\)", s)
        if m:
            return "SS", (int(m.group(1)), int(m.group(2)))
        raise Error(f"placement {p!r} is not S(dim), R, P(op) or _S(dim, split_factor)")
    name = type(p).__name__
    if name == "Shard":
        return "S", _int_attr(p, "dim")
    if name == "Replicate":
        return "R", None
    if name in ("Partial", "_Partial"):
        op = getattr(p, "reduce_op", "sum")
        return "P", str(getattr(op, "name", op)).lower()
    if name == "_StridedShard":
        return "SS", (_int_attr(p, "dim"), _int_attr(p, "split_factor"))
    raise TypeError(f"a placement must be Shard, Replicate, Partial or a string, not {name}")


def _sizes(mesh_shape: Any) -> list[int]:
    """The mesh dim sizes: ints (a torch.Size or a tuple); TypeError for
    anything else (a float size is not silently truncated)."""
    if isinstance(mesh_shape, (int, str, bytes)):
        raise TypeError("mesh_shape must be a sequence of ints")
    try:
        items = list(mesh_shape)
    except TypeError:
        raise TypeError(f"mesh_shape must be a sequence of ints, not {type(mesh_shape).__name__}") from None
    sizes = []
    for s in items:
        if isinstance(s, bool):
            raise TypeError("mesh_shape must be a sequence of ints, not bool")
        try:
            sizes.append(operator.index(s))
        except TypeError:
            raise TypeError(f"mesh_shape must be a sequence of ints, not {type(s).__name__}") from None
    return sizes


def _names(mesh_shape: Sequence[int], mesh_dim_names: Optional[Sequence[str]]) -> list[str]:
    if isinstance(mesh_shape, int) or isinstance(mesh_shape, (str, bytes)):
        raise TypeError("mesh_shape must be a sequence of ints")
    if mesh_dim_names is None:
        return [f"dim{i}" for i in range(len(mesh_shape))]
    names = [str(n) for n in mesh_dim_names]
    if len(names) != len(mesh_shape):
        raise Error(f"mesh_dim_names has {len(names)} names but the mesh has {len(mesh_shape)} dims")
    return names


def _orders(shard_order: Any) -> dict[int, list[int]]:
    if shard_order is None:
        return {}
    out: dict[int, list[int]] = {}
    items = shard_order.items() if isinstance(shard_order, Mapping) else shard_order
    for entry in items:
        if hasattr(entry, "tensor_dim"):
            out[int(entry.tensor_dim)] = [int(d) for d in entry.mesh_dims]
        else:
            dim, mesh_dims = entry
            out[int(dim)] = [int(d) for d in mesh_dims]
    return out


def _strided_order(dim: int, mesh_dims: list[int], split_factors: dict[int, int], sizes: list[int]) -> list[int]:
    """The shard order (mesh dims, major first) that Shard and _StridedShard
    placements on tensor dim ``dim`` stand for, as DTensorSpec decodes them
    (``torch/distributed/tensor/_dtensor_spec.py``,
    ``maybe_convert_StridedShard_to_shard_order``): a mesh dim whose split
    factor is f comes right after the mesh dims, later in the placements,
    whose sizes multiply to f."""
    order: list[int] = []
    for m in reversed(mesh_dims):
        want = split_factors.get(m, 1)
        product = 1
        for at in range(len(order) + 1):
            if product == want:
                order.insert(at, m)
                break
            if at < len(order):
                product *= sizes[order[at]]
        else:
            raise Error(f"_StridedShard({dim}, split_factor={want}) on mesh dim {m} matches no shard order of "
                        f"mesh dims {mesh_dims} (sizes {[sizes[i] for i in mesh_dims]})")
    return order


def from_placements(placements: Sequence[Any], mesh_shape: Sequence[int],
                    mesh_dim_names: Optional[Sequence[str]] = None, *, rank: int,
                    shard_order: Any = None) -> HloSharding:
    """The HloSharding of a DTensor with ``placements`` on a mesh of
    ``mesh_shape``, for a tensor of ``rank`` dims.

    >>> str(from_placements(["S(0)", "R"], (2, 2), rank=1))
    '{devices=[2,2]<=[4] last_tile_dim_replicate}'
    """
    sizes = _sizes(mesh_shape)
    names = _names(sizes, mesh_dim_names)
    if len(set(names)) != len(names):
        raise Error(f"mesh_dim_names {names} repeat a name")
    if isinstance(placements, (str, bytes)):
        raise TypeError("placements must be a sequence of placements")
    parsed = [_placement(p) for p in placements]
    if len(parsed) != len(sizes):
        raise Error(f"{len(parsed)} placements for a mesh of {len(sizes)} dims")
    rank = _check_rank(rank)
    dims: list[list[int]] = [[] for _ in range(rank)]
    split_factors: dict[int, int] = {}  # mesh dim -> split factor of a _StridedShard
    partial: list[int] = []
    ops = set()
    for i, (kind, arg) in enumerate(parsed):
        if kind in ("S", "SS"):
            dim = arg if kind == "S" else arg[0]
            d = dim + rank if dim < 0 else dim
            if not 0 <= d < rank:
                raise Error(f"Shard({dim}) on mesh dim {i} is out of range for a tensor of rank {rank}")
            dims[d].append(i)
            if kind == "SS":
                split_factors[i] = arg[1]
        elif kind == "P":
            if arg not in _OPS:
                raise Error(f"Partial({arg}) has no HLO form (XLA reduces unreduced values with sum, max or min)")
            partial.append(i)
            ops.add(arg)
    if len(ops) > 1:
        raise Error(f"Partial placements with different reductions ({', '.join(sorted(ops))}) have no HLO form")
    orders = _orders(shard_order)
    for d in range(rank):
        if any(i in split_factors for i in dims[d]):
            if d in orders:
                raise Error(f"tensor dim {d} has both _StridedShard placements and a shard_order")
            orders[d] = _strided_order(d, dims[d], split_factors, sizes)
    for d, order in orders.items():
        if not 0 <= d < rank or sorted(order) != sorted(dims[d]):
            raise Error(f"shard_order for tensor dim {d} is {order}, but the placements shard it over mesh dims {dims[d]}")
        dims[d] = order
    mesh = Mesh(dict(zip(names, sizes)))
    q = lambda i: '"' + names[i] + '"'
    text = "#sdy.sharding<@mesh, [" + ", ".join("{" + ", ".join(q(i) for i in ds) + "}" for ds in dims) + "]"
    if partial:
        op = ops.pop()
        text += ", unreduced=" + ("" if op == "sum" else op) + "{" + ", ".join(q(i) for i in partial) + "}"
    return to_hlo(text + ">", mesh)


def placements(sharding: Union[HloSharding, str], mesh_shape: Sequence[int],
               mesh_dim_names: Optional[Sequence[str]] = None, *, rank: Optional[int] = None,
               with_shard_order: bool = False):
    """The DTensor placements (as strings ``"S(d)"``, ``"R"``, ``"P(op)"``)
    that express ``sharding`` on a mesh of ``mesh_shape``; with
    ``with_shard_order=True``, ``(placements, shard_order)`` where shard_order
    maps each tensor dim sharded over several mesh dims out of mesh-dim order
    to its mesh dims, major first. Raises Error when no placement list
    expresses it (a device order the mesh does not have, a split of a mesh
    dim, manual shardings).

    >>> HloSharding.parse('{devices=[2,1,2]<=[2,2]T(1,0) last_tile_dim_replicate}').placements((2, 2))
    ['R', 'S(0)']
    """
    sizes = _sizes(mesh_shape)
    names = _names(sizes, mesh_dim_names)
    if len(set(names)) != len(names):
        raise Error(f"mesh_dim_names {names} repeat a name")
    mesh = Mesh(dict(zip(names, sizes)))
    hlo = sharding if isinstance(sharding, HloSharding) else HloSharding.parse(sharding)
    if hlo.is_tuple:
        raise Error("a tuple sharding has no placements: take one of its tuple_elements")
    if hlo.is_manual or "manual" in hlo.subgroup_types:
        raise Error(f"{hlo} is manual: DTensor placements have no manual form")
    sdy = to_sdy(hlo, mesh, rank=rank, upstream_device_order=True)
    out = ["R"] * len(names)
    order: dict[int, list[int]] = {}
    for d, axes in enumerate(sdy.dims):
        idx = []
        for a in axes:
            if ":" in a:
                raise Error(f"{hlo} splits mesh dim {a.split(':')[0]!r} into parts ({a}), which no placement expresses")
            idx.append(names.index(a))
        for i in idx:
            out[i] = f"S({d})"
        if idx != sorted(idx):
            order[d] = idx
    for a in sdy.unreduced:
        if ":" in a:
            raise Error(f"{hlo} is unreduced over part of mesh dim ({a}), which no placement expresses")
        out[names.index(a)] = f"P({sdy.reduction})"
    if order and not with_shard_order:
        raise Error(f"{hlo} shards tensor dims over mesh dims out of mesh-dim order ({order}): "
                    "call with with_shard_order=True for the shard_order")
    return (out, order) if with_shard_order else out


HloSharding.placements = placements  # type: ignore[attr-defined]
