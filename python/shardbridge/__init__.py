"""shardbridge: Shardy (sdy) and XLA HloSharding conversions, explanations and
pictures, over the same C++ code as the ``shardbridge`` command.

>>> import shardbridge as sb
>>> s = sb.HloSharding.parse('{devices=[4,2]<=[2,4]T(1,0)}')
>>> print(s, sb.to_sdy(s, '<["x"=2, "y"=4]>'))
{devices=[4,2]<=[2,4]T(1,0)} #sdy.sharding<@mesh, [{"y"}, {"x"}]>

See docs/python.md for the walkthrough and every public name.
"""

from ._errors import Error
from ._core import (
    __version__,
    HloSharding,
    Mesh,
    TensorSharding,
    convert_module,
    infer_mesh,
    list_shardings,
    to_hlo,
    to_sdy,
)
from .jax import PartitionSpec, from_partition_spec
from .torch import from_placements
from .orbax import from_orbax

__all__ = [
    "__version__",
    "Error",
    "HloSharding",
    "Mesh",
    "PartitionSpec",
    "TensorSharding",
    "convert_module",
    "from_orbax",
    "from_partition_spec",
    "from_placements",
    "infer_mesh",
    "list_shardings",
    "to_hlo",
    "to_sdy",
]
