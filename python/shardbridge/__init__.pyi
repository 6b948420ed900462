from ._core import (
    HloSharding as HloSharding,
    Mesh as Mesh,
    TensorSharding as TensorSharding,
    __version__ as __version__,
    convert_module as convert_module,
    infer_mesh as infer_mesh,
    list_shardings as list_shardings,
    to_hlo as to_hlo,
    to_sdy as to_sdy,
)
from ._errors import Error as Error
from .jax import PartitionSpec as PartitionSpec, from_partition_spec as from_partition_spec
from .orbax import from_orbax as from_orbax
from .torch import from_placements as from_placements

__all__: list[str]
