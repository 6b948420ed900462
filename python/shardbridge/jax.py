"""JAX interop without importing JAX: ``PartitionSpec`` <-> ``TensorSharding``.

The rules are JAX's own, from ``jax/_src/named_sharding.py``
(``NamedSharding._to_sdy_sharding`` and ``SdyArray.build``): dim ``i`` of the
spec shards tensor dim ``i`` over its axes in the order written (a tuple is
major to minor), ``None`` is an empty closed dim, ``P.UNCONSTRAINED`` an open
dim, dims past the spec are empty and closed, and unreduced axes are sorted
in mesh order. A JAX ``Mesh`` carries its device order in its device array,
which the HLO sharding indexes by position, so its sdy mesh has no
``device_ids``; a ``NamedSharding`` with logical device ids passes them on.
"""

from __future__ import annotations

import warnings
from typing import Any, Iterable, Optional

from ._core import Mesh, TensorSharding
from ._errors import Error


class _Unconstrained:
    """``PartitionSpec.UNCONSTRAINED``: an open dim (``{?}`` in sdy), as JAX's
    ``P.UNCONSTRAINED``."""

    def __repr__(self) -> str:
        return "P.UNCONSTRAINED"

    def __reduce__(self):
        return "UNCONSTRAINED"


UNCONSTRAINED = _Unconstrained()

# The sdy text of a rank-r sharding takes at least 4 bytes a dim ("{}, "),
# and the parser reads at most 64 MiB of one sharding (base/input.h
# kShardingInputLimit): a larger rank is refused before its text is built.
_MAX_RANK = (64 << 20) // 4


def _check_rank(rank: Any) -> int:
    if not isinstance(rank, int) or isinstance(rank, bool):
        raise TypeError(f"rank must be an int, not {type(rank).__name__}")
    if rank < 0:
        raise Error(f"rank must be at least 0, got {rank}")
    if rank > _MAX_RANK:
        raise Error(f"rank {rank} is larger than any sharding shardbridge reads (at most {_MAX_RANK} dims)")
    return rank


class PartitionSpec(tuple):
    """A tuple of per-dim partitions (``None``, an axis name, a tuple of names,
    or ``PartitionSpec.UNCONSTRAINED``) with ``.unreduced``, as JAX's
    ``jax.sharding.PartitionSpec``; used when JAX is not importable.

    >>> PartitionSpec('x', ('y', 'z'), None, unreduced={'w'})
    P('x', ('y', 'z'), None, unreduced={'w'})
    """

    UNCONSTRAINED = UNCONSTRAINED

    def __new__(cls, *partitions: Any, unreduced: Iterable[str] = frozenset()):
        self = super().__new__(cls, partitions)
        self.unreduced = frozenset(unreduced)
        return self

    def __repr__(self) -> str:
        parts = ", ".join(repr(p) for p in self)
        if self.unreduced:
            names = ", ".join(repr(u) for u in sorted(self.unreduced))
            parts += (", " if parts else "") + "unreduced={" + names + "}"
        return f"P({parts})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, tuple):
            return NotImplemented
        return tuple(self) == tuple(other) and self.unreduced == frozenset(getattr(other, "unreduced", ()))

    def __hash__(self) -> int:
        return hash((tuple(self), self.unreduced))

    def __reduce__(self):
        return (_make_spec, (tuple(self), tuple(sorted(self.unreduced))))


P = PartitionSpec


def _make_spec(partitions, unreduced):
    return PartitionSpec(*partitions, unreduced=unreduced)


def _quote(name: str) -> str:
    if not isinstance(name, str):
        raise TypeError(f"mesh axis names must be str, not {type(name).__name__}")
    if '"' in name or "\\" in name:
        raise Error(f"axis name {name!r} cannot be written in sdy text (it contains a quote or backslash)")
    return '"' + name + '"'


def _mesh_of(mesh: Any) -> Mesh:
    """A shardbridge Mesh from a Mesh, mesh text, a dict of sizes, or a JAX
    ``Mesh`` (duck-typed: ``.shape`` mapping axis names to sizes)."""
    if isinstance(mesh, Mesh):
        return mesh
    if isinstance(mesh, str):
        return Mesh.parse(mesh)
    if isinstance(mesh, dict):
        return Mesh(mesh)
    shape = getattr(mesh, "shape", None)
    if shape is not None and hasattr(shape, "items"):
        return Mesh({str(k): int(v) for k, v in shape.items()})
    names, sizes = getattr(mesh, "axis_names", None), getattr(mesh, "axis_sizes", None)
    if names is not None and sizes is not None:
        return Mesh(dict(zip(names, sizes)))
    raise TypeError(f"mesh must be a shardbridge.Mesh, mesh text, a dict of axis sizes or a JAX Mesh, "
                    f"not {type(mesh).__name__}")


def _spec_of(spec: Any) -> tuple[tuple, frozenset]:
    if isinstance(spec, (str, bytes)):
        raise TypeError("spec must be a PartitionSpec or a tuple of partitions, not a string")
    try:
        parts = tuple(spec)
    except TypeError:
        raise TypeError(f"spec must be a PartitionSpec or a tuple of partitions, not {type(spec).__name__}") from None
    return parts, frozenset(getattr(spec, "unreduced", ()) or ())


def from_partition_spec(spec: Any, mesh: Any = None, *, rank: Optional[int] = None) -> TensorSharding:
    """The sdy sharding JAX lowers ``NamedSharding(mesh, spec)`` to.

    ``spec``: a ``PartitionSpec`` (JAX's or ours), a tuple of partitions, or a
    JAX ``NamedSharding`` (then ``mesh`` may be omitted). ``mesh``: a Mesh,
    mesh text, ``{name: size}`` or a JAX ``Mesh``. ``rank``: the tensor rank
    (default: the spec's length; a longer spec is an Error).

    >>> str(from_partition_spec(('x', ('y', 'z'), None), {'x': 2, 'y': 2, 'z': 2, 'w': 2}))
    '#sdy.sharding<@mesh, [{"x"}, {"y", "z"}, {}]>'
    """
    logical_ids = None
    if hasattr(spec, "spec") and hasattr(spec, "mesh"):  # a NamedSharding
        if mesh is None:
            mesh = spec.mesh
        logical_ids = getattr(spec, "_logical_device_ids", None)
        spec = spec.spec
    if mesh is None:
        raise TypeError("from_partition_spec() needs a mesh (or a NamedSharding)")
    m = _mesh_of(mesh)
    if logical_ids is not None:
        m = Mesh(m.axes, device_ids=list(logical_ids), name=m.name)
    parts, unreduced = _spec_of(spec)
    rank = _check_rank(len(parts) if rank is None else rank)
    if len(parts) > rank:
        raise Error(f"PartitionSpec {PartitionSpec(*parts)} has {len(parts)} dims but the tensor has rank {rank}")
    dims = []
    for p in parts:
        if p is None:
            dims.append("{}")
        elif p is UNCONSTRAINED or repr(p) in ("UNCONSTRAINED", "P.UNCONSTRAINED"):
            dims.append("{?}")
        elif isinstance(p, str):
            dims.append("{" + _quote(p) + "}")
        elif isinstance(p, (tuple, list)):
            dims.append("{" + ", ".join(_quote(a) for a in p) + "}")
        else:
            raise TypeError(f"a partition must be None, an axis name or a tuple of names, not {type(p).__name__}")
    dims += ["{}"] * (rank - len(parts))
    order = list(m.axes)
    for u in unreduced:
        if u not in m.axes:
            raise Error(f"unreduced axis {u!r} is not an axis of the mesh {m}")
    text = "#sdy.sharding<@" + m.name + ", [" + ", ".join(dims) + "]"
    if unreduced:
        text += ", unreduced={" + ", ".join(_quote(u) for u in sorted(unreduced, key=order.index)) + "}"
    text += ">"
    return TensorSharding.parse(text, m)


def _jax_partition_spec():
    try:
        from jax.sharding import PartitionSpec as JaxSpec  # type: ignore
        return JaxSpec
    except Exception:
        return None


def partition_spec(sharding: TensorSharding):
    """The ``PartitionSpec`` of ``sharding`` on its mesh (JAX's when JAX is
    importable), or an Error saying why none exists (a sub-axis, an open dim
    with axes, a priority, a maximal mesh). What the spec alone cannot say
    is a UserWarning: on a mesh with ``device_ids``, that the jax Mesh must
    list its devices in that order; a ``max``/``min`` reduction.

    >>> s = to_sdy('{devices=[4,2]<=[2,4]T(1,0)}', '<["x"=2, "y"=4]>')
    >>> s.partition_spec()
    P('y', 'x')
    """
    exists, dims, unconstrained, unreduced, reason, notes = sharding._partition_spec()
    if not exists:
        raise Error(f"no PartitionSpec for {sharding}: {reason}")
    # What the spec alone loses (the CLI's explain prints the same notes): a
    # mesh with device_ids needs a jax Mesh whose device array lists the
    # devices in that order; a max/min reduction. Explicitly replicated axes
    # lose nothing (a spec replicates every unused axis).
    lost = [n for n in notes if not n.startswith("the explicitly replicated axes")]
    if lost:
        warnings.warn(f"PartitionSpec of {sharding}: " + "; ".join(lost), UserWarning, stacklevel=2)
    parts = []
    for axes, open_dim in zip(dims, unconstrained):
        if not axes:
            parts.append(UNCONSTRAINED if open_dim else None)
        elif len(axes) == 1:
            parts.append(axes[0])
        else:
            parts.append(tuple(axes))
    JaxSpec = _jax_partition_spec()
    if JaxSpec is not None:
        jparts = [JaxSpec.UNCONSTRAINED if p is UNCONSTRAINED else p for p in parts]
        try:
            return JaxSpec(*jparts, unreduced=frozenset(unreduced)) if unreduced else JaxSpec(*jparts)
        except TypeError:
            pass
    return PartitionSpec(*parts, unreduced=unreduced)


TensorSharding.partition_spec = partition_spec  # type: ignore[attr-defined]
