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
``str()`` gives: ``"S(0)"``, ``"R"``, ``"P(sum)"``.
"""

from __future__ import annotations

import re
from typing import Any, Mapping, Optional, Sequence, Union

from ._core import HloSharding, Mesh, to_hlo, to_sdy
from ._errors import Error

_OPS = {"sum": "sum", "max": "max", "min": "min"}


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
        raise Error(f"placement {p!r} is not S(dim), R or P(op)")
    name = type(p).__name__
    if name == "Shard":
        return "S", int(p.dim)
    if name == "Replicate":
        return "R", None
    if name in ("Partial", "_Partial"):
        op = getattr(p, "reduce_op", "sum")
        return "P", str(getattr(op, "name", op)).lower()
    if name == "_StridedShard":
        raise Error("_StridedShard placements are not supported: give the shard_order instead")
    raise TypeError(f"a placement must be Shard, Replicate, Partial or a string, not {name}")


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


def from_placements(placements: Sequence[Any], mesh_shape: Sequence[int],
                    mesh_dim_names: Optional[Sequence[str]] = None, *, rank: int,
                    shard_order: Any = None) -> HloSharding:
    """The HloSharding of a DTensor with ``placements`` on a mesh of
    ``mesh_shape``, for a tensor of ``rank`` dims.

    >>> str(from_placements(["S(0)", "R"], (2, 2), rank=1))
    '{devices=[2,2]<=[4] last_tile_dim_replicate}'
    """
    names = _names(mesh_shape, mesh_dim_names)
    sizes = [int(s) for s in mesh_shape]
    if isinstance(placements, (str, bytes)):
        raise TypeError("placements must be a sequence of placements")
    parsed = [_placement(p) for p in placements]
    if len(parsed) != len(sizes):
        raise Error(f"{len(parsed)} placements for a mesh of {len(sizes)} dims")
    if not isinstance(rank, int) or isinstance(rank, bool) or rank < 0:
        raise TypeError("rank must be a non-negative int")
    dims: list[list[int]] = [[] for _ in range(rank)]
    partial: list[int] = []
    ops = set()
    for i, (kind, arg) in enumerate(parsed):
        if kind == "S":
            d = arg + rank if arg < 0 else arg
            if not 0 <= d < rank:
                raise Error(f"Shard({arg}) on mesh dim {i} is out of range for a tensor of rank {rank}")
            dims[d].append(i)
        elif kind == "P":
            if arg not in _OPS:
                raise Error(f"Partial({arg}) has no HLO form (XLA reduces unreduced values with sum, max or min)")
            partial.append(i)
            ops.add(arg)
    if len(ops) > 1:
        raise Error(f"Partial placements with different reductions ({', '.join(sorted(ops))}) have no HLO form")
    for d, order in _orders(shard_order).items():
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
    names = _names(mesh_shape, mesh_dim_names)
    mesh = Mesh(dict(zip(names, (int(s) for s in mesh_shape))))
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
