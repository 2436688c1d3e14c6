"""Small helpers the rule modules share: time shares, thresholds, shape matching, text."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from rknnprof.model import Layer, Profile, Shape
from rknnprof.rules.base import RuleContext


def opt(context: RuleContext, code: str, key: str, default: Any) -> Any:
    """Threshold ``key`` of rule ``code``: ``context.options["RKN010.min_share"]`` or the default."""
    return context.options.get(f"{code}.{key}", default)


def total_us(profile: Profile) -> float:
    """The profile's total time, microseconds (0 when unknown)."""
    return float(profile.total_time_us or 0.0)


def share(layer: Layer, profile: Profile) -> float:
    """The layer's share of the total time, fraction 0..1 (analysis's value when set)."""
    if layer.time_share is not None:
        return layer.time_share
    total = total_us(profile)
    return (layer.time_us or 0.0) / total if total else 0.0


def time_of(layers: Iterable[Layer]) -> float:
    """Sum of the layers' times, microseconds."""
    return float(sum(la.time_us or 0.0 for la in layers))


def pct(fraction: float) -> str:
    """``0.1234`` -> ``12.3%``."""
    return f"{fraction * 100:.1f}%"


def us(value: float) -> str:
    """``12345.6`` -> ``12346 us``."""
    return f"{value:.0f} us"



def out_shape(layer: Layer) -> Shape | None:
    return layer.output_shapes[0] if layer.output_shapes else None


def in_shape(layer: Layer) -> Shape | None:
    return layer.input_shapes[0] if layer.input_shapes else None


def feeds(producer: Layer, consumer: Layer) -> bool:
    """True when ``consumer`` takes a tensor shaped like ``producer``'s (first) output.

    The tables print no graph edges; the runtime prints layers in execution order, so a shape
    match between neighbours is the best evidence of an edge the logs give.
    """
    produced = out_shape(producer)
    return produced is not None and bool(consumer.input_shapes) and produced in consumer.input_shapes


def following(layers: Sequence[Layer], index: int, window: int) -> Sequence[Layer]:
    """Up to ``window`` NPU/CPU layers after ``layers[index]`` (table order)."""
    return layers[index + 1 : index + 1 + window]
