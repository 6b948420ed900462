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


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _flat_ids(tree: Any, out: list) -> None:
    if isinstance(tree, dict):
        if "id" not in tree:
            raise Error(f"device_mesh entry {tree!r} has no 'id'")
        if not _is_int(tree["id"]):
            raise Error(f"device_mesh entry {tree!r}: the id must be an int")
        out.append(tree["id"])
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
    # The metadata is input: malformed fields are Errors, not TypeErrors.
    names, sizes, parts = data["axis_names"], data["shape"], data["partition_spec"]
    if not isinstance(names, (list, tuple)) or not isinstance(sizes, (list, tuple)) or len(names) != len(sizes):
        raise Error("axis_names and shape must be lists of the same length")
    if not all(isinstance(n, str) for n in names):
        raise Error(f"axis_names must be strings, got {names!r}")
    if not all(_is_int(n) for n in sizes):
        raise Error(f"shape must be the mesh axis sizes (ints), got {sizes!r}")
    if not isinstance(parts, (list, tuple)):
        raise Error(f"partition_spec must be a list (one entry per tensor dim), got {parts!r}")
    for p in parts:
        if not (p is None or isinstance(p, str) or
                (isinstance(p, (list, tuple)) and all(isinstance(a, str) for a in p))):
            raise Error(f"partition_spec entry {p!r} is not null, an axis name or a list of axis names")
    device_ids = None
    if data.get("device_mesh"):
        dm = data["device_mesh"]
        ids: list = []
        _flat_ids(dm.get("mesh") if isinstance(dm, dict) else dm, ids)
        if sorted(ids) != list(range(len(ids))):
            raise Error(f"device_mesh ids {ids} are not a permutation of 0..{len(ids) - 1}")
        if ids != list(range(len(ids))):
            device_ids = ids
    if len(set(names)) != len(names):
        raise Error(f"axis_names {names!r} repeat a name")
    mesh = Mesh(dict(zip(names, sizes)), device_ids=device_ids)
    spec = tuple(tuple(p) if isinstance(p, (list, tuple)) else p for p in parts)
    return mesh, from_partition_spec(spec, mesh, rank=rank)
