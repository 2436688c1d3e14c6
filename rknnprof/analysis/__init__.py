"""Analysis: fills what the log does not say outright, once, so that later stages only read.

:func:`analyze_profile` returns a copy of a parsed profile with its NPU clock (``npu_clock``:
:mod:`~rknnprof.analysis.clock`), each layer's ``bound``, ``bound_basis``, ``time_share``,
``cycles_explained`` and ``bound_weak`` (:mod:`~rknnprof.analysis.classify`), roofline figures
(:mod:`~rknnprof.analysis.roofline`) and ONNX node names (:mod:`~rknnprof.analysis.onnx_names`);
the profile's ``op_stats``, frame time and percentiles (:mod:`~rknnprof.analysis.figures`), roofs
and waterfall (:mod:`~rknnprof.analysis.waterfall`), the verdict on what the log can support
(``validity``: :mod:`~rknnprof.analysis.validity`); and the consistency warnings.
"""

from __future__ import annotations

from typing import Any

from rknnprof.analysis.classify import (
    DEFAULT_BOUND_RATIO,
    DEFAULT_RW_SHARE,
    ClassifyOptions,
    classify,
    classify_layers,
    options_from,
    with_explained,
)
from rknnprof.analysis.consistency import check_cycles, check_ids, check_ranking, check_total
from rknnprof.analysis.figures import (
    compute_frame_total_us,
    frame_percentiles_us,
    frame_total_us,
)
from rknnprof.analysis.optypes import aggregate
from rknnprof.model import Profile, ReportWarning
from rknnprof.model.record import replace


def analyze_profile(
    profile: Profile,
    *,
    platform: Any = None,
    bound_ratio: float = DEFAULT_BOUND_RATIO,
    rw_share: float = DEFAULT_RW_SHARE,
) -> tuple[Profile, list[ReportWarning]]:
    """``profile`` with layers classified and op types aggregated, plus its warnings.

    ``platform`` is a ``rknnprof.platforms.Platform`` (its ``ddr_bandwidth_gbs`` judges rows
    without cycles) or None.
    """
    # here, not at the top: the CLI imports this package for its option defaults, and
    # --help should not pay for the roofline's MAC model and the platform facts
    from rknnprof.analysis.clock import npu_clock
    from rknnprof.analysis.onnx_names import onnx_nodes
    from rknnprof.analysis.roofline import roofline_fields, roofs
    from rknnprof.analysis.validity import compute_validity
    from rknnprof.analysis.waterfall import compute_waterfall

    options = options_from(platform, bound_ratio, rw_share)
    total = compute_frame_total_us(profile)
    clock = npu_clock(profile, platform)
    mhz = clock.mhz if clock else None
    classified = with_explained(classify_layers(profile.layers, options, total), mhz)
    layers = tuple(
        replace(la, onnx_nodes=onnx_nodes(la.full_name), **roofline_fields(la, platform, mhz))
        for la in classified
    )
    op_stats = aggregate(layers, total) if layers else profile.ranking
    p50, p90 = frame_percentiles_us(profile)  # assemble's, of every frame, when it set them
    result = replace(
        profile,
        layers=layers,
        op_stats=op_stats,
        frame_total_us=total,
        frame_time_p50_us=p50,
        frame_time_p90_us=p90,
        npu_clock=clock,
    )
    result = replace(result, waterfall=compute_waterfall(result), roofs=roofs(result, platform))
    notes = [
        *check_total(result),
        *check_cycles(result),
        *check_ids(result),
        *check_ranking(result, op_stats),
    ]
    result = replace(result, validity=compute_validity(result, platform, mhz))
    path = profile.source.path
    return result, [ReportWarning(path, line, message) for line, message in notes]


__all__ = [
    "DEFAULT_BOUND_RATIO",
    "DEFAULT_RW_SHARE",
    "ClassifyOptions",
    "aggregate",
    "analyze_profile",
    "frame_percentiles_us",
    "frame_total_us",
    "classify",
    "classify_layers",
]
