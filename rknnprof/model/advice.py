"""What the rules produce: a :class:`Finding`, with its saving and the evidence behind it."""

from __future__ import annotations

from rknnprof.model.enums import Confidence, Severity
from rknnprof.model.record import Record, record


@record
class ThroughputGain(Record):
    """A throughput (frames per second) gain that is not a latency saving: more contexts, idle
    NPU cores, batching."""

    factor: float
    """Achievable FPS multiplier, e.g. ``2.7`` for 2.7x the frames per second."""
    bound: str
    """What bounds ``factor``, in one line (e.g. ``3 cores, capped by the 27% of the frame on
    the CPU``)."""


@record
class Finding(Record):
    """One piece of advice from a rule."""

    code: str
    """``RKNnnn``."""
    name: str
    """Rule name, e.g. ``cpu-fallback``."""
    severity: Severity
    message: str
    """One line: what was found, with numbers."""
    fix: str
    """One or two lines: what to change."""
    layer_ids: tuple[int, ...] = ()
    """IDs of the layers the finding is about (``Layer.id``)."""
    est_saving_us: float = 0.0
    """Estimated time saved per frame if fixed, microseconds (see the rule's doc for how)."""
    estimate: str = ""
    """How ``est_saving_us`` was estimated, in one sentence."""
    source: str = ""
    """Where the advice comes from (SDK guide section, issue URL)."""
    saving_by_layer: tuple[tuple[int, float], ...] = ()
    """``est_saving_us`` explained layer by layer: (``Layer.id``, microseconds) pairs whose
    values sum to ``est_saving_us``; empty for findings whose saving is not layer time (time
    outside the table) or is zero."""
    basis: str = ""
    """One line naming the evidence the saving rests on (the cycles and the share of the time
    they explain, an in-log pair, a measured speed-up, a cited bound)."""
    confidence: Confidence = Confidence.LOW
    """How well the log supports ``est_saving_us`` (see :class:`Confidence`)."""
    throughput_gain: ThroughputGain | None = None
    """A throughput gain the change would bring, kept apart from the latency saving."""
