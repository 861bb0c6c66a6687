"""Every calculator by name (`calckit.registry` refuses a name taken twice, at the line of the second)."""

from __future__ import annotations

from calckit import registry
from calckit.spec import Calculator

from .collectives import COLLECTIVE
from .communication import ALLREDUCE
from .comparison import COMPARISON
from .disaggregation import DISAGGREGATION
from .energy import ENERGY
from .expert_parallel import EXPERT_PARALLEL
from .inference import INFERENCE
from .kv_cache import KV_CACHE
from .latency_throughput import LATENCY_THROUGHPUT
from .matmul import MATMUL
from .parallelism import PARALLELISM
from .pipeline_schedule import PIPELINE_SCHEDULE
from .roofline import ROOFLINE
from .serving import SERVING
from .speculative import SPECULATIVE
from .systolic import SYSTOLIC
from .training import TRAINING
from .training_memory import TRAINING_MEMORY
from .utilization import UTILIZATION

__all__ = ["CALCULATORS"]


CALCULATORS: dict[str, Calculator] = registry(
    ROOFLINE,
    UTILIZATION,
    COMPARISON,
    INFERENCE,
    ENERGY,
    TRAINING,
    MATMUL,
    ALLREDUCE,
    SERVING,
    COLLECTIVE,
    PARALLELISM,
    KV_CACHE,
    LATENCY_THROUGHPUT,
    SPECULATIVE,
    SYSTOLIC,
    TRAINING_MEMORY,
    PIPELINE_SCHEDULE,
    EXPERT_PARALLEL,
    DISAGGREGATION,
)
