"""The model's vocabularies: where a layer ran, what bounds it and why, how sure and how severe
a finding is; and how a printed number is stored."""

from __future__ import annotations

from enum import StrEnum


def tidy_number(x: float) -> float:
    """``x`` as the model stores a printed number: integral values become ``int``, so JSON
    prints ``1134``, not ``1134.0``."""
    return int(x) if float(x).is_integer() else x


class Target(StrEnum):
    """Where the runtime ran a layer (the ``Target`` column)."""

    NPU = "NPU"
    CPU = "CPU"
    GPU = "GPU"
    UNKNOWN = "unknown"


class Bound(StrEnum):
    """What limits a layer. See ``analysis.classify`` for the thresholds."""

    COMPUTE = "compute"
    BANDWIDTH = "bandwidth"
    BALANCED = "balanced"
    CPU = "cpu"
    UNKNOWN = "unknown"


class BoundBasis(StrEnum):
    """What decided :class:`Bound`: DDR vs NPU cycles, RW(KB)/Time vs the DDR rate achieved on
    the platform, the Target column (CPU), NPU cycles 0 beside DDR cycles (the runtime did not
    compute the op's NPU cycles: ``unknown``), a rate no DDR reaches (a view), or nothing
    usable."""

    CYCLES = "cycles"
    NO_NPU_CYCLES = "no-npu-cycles"
    RW_RATE = "rw-rate"
    VIEW = "view"
    """RW(KB)/Time above the DDR's theoretical peak (or RW in Time 0): the op moved no data of its
    own (a Reshape relabelling a tensor); ``bound`` stays ``unknown``."""
    TARGET = "target"
    NONE = "none"


class Confidence(StrEnum):
    """How well the log supports a finding's saving: ``high`` measured in this log (cycles with
    the share of time they explain, an in-log pair of layers), ``medium`` from the SDK guide or a
    measured peer (model zoo figures, another corpus log), ``low`` an assumption, which the
    finding's message says it is."""

    HIGH = "high"
    MEDIUM = "medium"
    LOW = "low"


class Severity(StrEnum):
    """How much a finding matters. Ordered: ``info < warning < error``."""

    INFO = "info"
    WARNING = "warning"
    ERROR = "error"

    @property
    def rank(self) -> int:
        return ("info", "warning", "error").index(self.value)
