"""Orbax interop: the sharding metadata Orbax writes next to a checkpoint.

Orbax (``orbax/checkpoint/metadata/sharding.py``,
``NamedShardingMetadata.to_serialized_string``) stores a ``NamedSharding``
as JSON: ``sharding_type`` ``"NamedSharding"``, ``shape`` (the mesh axis
sizes), ``axis_names``, ``partition_spec`` (``null``, a name, or a list of
names per dim) and optionally ``device_mesh`` (``{"mesh": nested lists of
{"id": N}}`` in mesh layout).
"""

from __future__ import annotations

import json
from typing import Any, Optional, Union

from ._core import Mesh, TensorSharding
from ._errors import Error
from .jax import from_partition_spec


def _flat_ids(tree: Any, out: list) -> None:
    if isinstance(tree, dict):
        if "id" not in tree:
            raise Error(f"device_mesh entry {tree!r} has no 'id'")
        out.append(int(tree["id"]))
    elif isinstance(tree, (list, tuple)):
        for t in tree:
            _flat_ids(t, out)
    else:
        raise Error(f"device_mesh holds {tree!r}, not a device {{'id': N}}")


def from_orbax(metadata: Union[str, bytes, dict], *, rank: Optional[int] = None) -> tuple[Mesh, TensorSharding]:
    """``(Mesh, TensorSharding)`` from Orbax's sharding metadata (the JSON
    text, or the dict it holds). The mesh lists the devices of
    ``device_mesh`` when they are not in iota order.

    >>> mesh, s = from_orbax('{"sharding_type": "NamedSharding", "shape": [2, 4], '
    ...                      '"axis_names": ["x", "y"], "partition_spec": [["x", "y"], null]}')
    >>> str(s)
    '#sdy.sharding<@mesh, [{"x", "y"}, {}]>'
    """
    if isinstance(metadata, (str, bytes, bytearray)):
        try:
            data = json.loads(metadata)
        except ValueError as e:
            raise Error(f"Orbax sharding metadata is not JSON: {e}") from None
    elif isinstance(metadata, dict):
        data = metadata
    else:
        raise TypeError(f"metadata must be JSON text or a dict, not {type(metadata).__name__}")
    if not isinstance(data, dict):
        raise Error("Orbax sharding metadata must be a JSON object")
    kind = data.get("sharding_type")
    if kind != "NamedSharding":
        raise Error(f"sharding_type {kind!r} is not supported (only NamedSharding carries a mesh and a spec)")
    for key in ("shape", "axis_names", "partition_spec"):
        if key not in data:
            raise Error(f"Orbax NamedSharding metadata has no {key!r}")
    names, sizes = data["axis_names"], data["shape"]
    if not isinstance(names, list) or not isinstance(sizes, list) or len(names) != len(sizes):
        raise Error("axis_names and shape must be lists of the same length")
    device_ids = None
    if data.get("device_mesh"):
        dm = data["device_mesh"]
        ids: list = []
        _flat_ids(dm.get("mesh") if isinstance(dm, dict) else dm, ids)
        if sorted(ids) != list(range(len(ids))):
            raise Error(f"device_mesh ids {ids} are not a permutation of 0..{len(ids) - 1}")
        if ids != list(range(len(ids))):
            device_ids = ids
    mesh = Mesh(dict(zip(names, (int(s) for s in sizes))), device_ids=device_ids)
    spec = tuple(tuple(p) if isinstance(p, list) else p for p in data["partition_spec"])
    return mesh, from_partition_spec(spec, mesh, rank=rank)
