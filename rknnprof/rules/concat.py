"""RKN073 concat copies: Concat layers that take a large share of the frame, said for what they
are (a copy through DDR), with the changes that would shrink them and no invented saving.

The NPU runs a Concat as a copy: it reads every input and writes the output, with no
arithmetic (NPU cycles 0). The log holds no evidence of what a model change removing one
would save, so the finding is ``info`` with no saving; the changes that do have evidence (INT8
halves the bytes, a multi-core mask splits Concat) are RKN002's and RKN030's and are named.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from rknnprof.analysis.savings import MULTI_CORE_SPEEDUP, Saving
from rknnprof.model import Confidence, Finding, Layer, Profile, Severity, Target
from rknnprof.rules._util import (
    alignment,
    feeds,
    labels,
    multi_core_run,
    of_frame,
    opt,
    total_us,
    us,
)
from rknnprof.rules.base import Rule, RuleContext
from rknnprof.rules.outliers import outliers, supported
from rknnprof.rules.sources import cite, sources

CODE, NAME = "RKN073", "concat-copies"
MIN_SHARE = 0.15
"""Concat time (at the times the log supports) at least this share of the frame raises the
finding (RKN073.min_share). YOLO necks spend 5-10% of the frame in Concat (public RK3588
profiles: yolov8n 8.8%, yolov5n 6.9%, yolo26n 8.1%; the bundled yolov5s 9.8%): the ordinary
cost of their feature pyramids."""
WINDOW = 3
"""A running concatenation's previous Concat is at most this many layers before it (08: #5
Concat -> #6 conv -> #7 Concat)."""
WIDE = ("FLOAT16", "BFLOAT16", "INT16", "FLOAT32")
"""Data types INT8 would narrow (RKN002 prices FP16)."""
NO_SAVING = Saving(
    basis=(
        "no saving: the log holds no Concat that a change made cheaper (none folded into its "
        "producers, no pair under another layout), and its cycles only restate the copy"
    ),
    confidence=Confidence.LOW,
)
SOURCE = sources(
    cite("guide", "§8.5.2 Table 8-5 (Concat is a data-transfer operator)"),
    cite("guide", "§8.5.1 Tables 8-1..8-4 (channel alignment of other ops)"),
    cite("ops", "multi-core table: Concat splits"),
)


def _running(layers: Sequence[Layer], concats: Sequence[Layer]) -> list[Layer]:
    """Concats that take the output of the Concat before them (within :data:`WINDOW` layers,
    matched by shape): a dense block's running concatenation, which copies the earlier
    features again."""
    ids = {la.id for la in concats}
    found = []
    for index, layer in enumerate(layers):
        if layer.id not in ids:
            continue
        before = [la for la in layers[max(0, index - WINDOW) : index] if la.id in ids]
        if before and feeds(before[-1], layer):
            found.append(layer)
    return found


def _misaligned(concats: Sequence[Layer], context: RuleContext) -> list[tuple[Layer, int, int]]:
    """(Concat, input channels, alignment) for 4-D channel-axis inputs whose channels are not a
    multiple of the platform's alignment for ops other than conv."""
    found: list[tuple[Layer, int, int]] = []
    for layer in concats:
        align = alignment(layer, context)
        out = layer.output_shapes[0] if layer.output_shapes else None
        if align is None or not out or len(out) != 4:
            continue
        found.extend(
            (layer, shape[1], align.other)
            for shape in layer.input_shapes or ()
            if len(shape) == 4 and shape[2:] == out[2:] and shape[1] % align.other
        )
    return found


def _rates(layers: Sequence[Layer]) -> str:
    """``: 217,600 KB moved (RW(KB)) at 4.5-11.9 GB/s in this log``; empty without RW(KB)."""
    moved = [la for la in layers if la.rw_kb and la.time_us]
    rates = sorted((la.rw_kb or 0.0) * 1024.0 / ((la.time_us or 1.0) * 1e3) for la in moved)
    if not rates:
        return ""
    span = f"{rates[0]:.1f}" if rates[-1] - rates[0] < 0.05 else f"{rates[0]:.1f}-{rates[-1]:.1f}"
    kb = sum(la.rw_kb or 0.0 for la in moved)
    return f": {kb:,.0f} KB moved (RW(KB)) at {span} GB/s in this log"


def check_concat_copies(profile: Profile, context: RuleContext) -> Iterator[Finding]:
    """
    What it finds:
        Concat layers on the NPU that together take at least 15% of the frame (option
        RKN073.min_share) at the times the log supports (a single-frame outlier at its
        same-shape sibling's time, as RKN050 flags it). YOLO necks spend 5-10% of the frame in
        Concat, which is what their feature pyramids cost; dense blocks (DenseNet, FusionNet),
        which concatenate after every layer, spend far more. Silent on an elided table
        without a total line (the share would be of a partial frame) and on estimates.

    Why it costs time:
        Concat is a data-transfer operator (User Guide Table 8-5): the NPU reads every input and
        writes the output through DDR, with no arithmetic (NPU cycles 0). RW(KB) counts what it
        moves: reads and writes in the 1.5 runtime's tables (2x the output, a public FP16 eval_perf
        CSV), the inputs' bytes in the 2.x tables (1x, public yolov8n, yolov5n and yolo26n profiles;
        see Source). A running concatenation (a Concat of an earlier Concat's output and one new
        layer's) copies the earlier features again at every step. Channels that are not a multiple
        of the alignment for ops other than conv (RK3588: 16 INT8, 8 FP16) are less DDR-friendly
        (User Guide §8.5.1).

    Example:
        9 Concat layer(s) take 37,404 us (22.8% of the frame): ... Each copies its inputs into
        its output, no arithmetic: 230,400 KB moved (RW(KB)) at 4.5-11.9 GB/s in this log;
        #7, #16, #26, #38 take the output of the Concat just before, copying those channels
        again (a running concatenation) ... (the public FP16 image-fusion network's CSV)

    How to fix:
        INT8 halves the bytes every Concat moves (RKN002 prices it for FP16 models); under a
        multi-core mask Concat splits across the cores (RKN030 prices it at the measured
        1.56x). No build or runtime option the guide documents removes a Concat: that takes a
        model change, fewer or narrower dense connections (concatenate fewer earlier features,
        or add them, a residual Add, where the accuracy allows), with channel counts at a
        multiple of the alignment; re-profile to measure it.

    Estimate:
        None (severity info): a log holds no evidence of what removing or shrinking a Concat saves.
        No public log read for rknnprof shows a Concat the compiler folded into its producers (a
        same-shape Concat at ~0 us) or one run under another layout to pair with; the DDR cycles
        only restate the copy the time already shows, and the model change that would remove it
        (fewer dense connections) changes the network, so its time is not the Concat's. The changes
        with evidence are other rules' findings (INT8: half the FP16 time, RKN002; multi-core:
        Concat 1.56x, RKN030).
    """
    total = total_us(profile)
    if (
        not total
        or not profile.measured
        or (profile.elided_rows and not profile.reported_total_time_us)
    ):
        return
    concats = [
        la
        for la in profile.layers
        if la.op_type == "Concat" and la.target is Target.NPU and la.time_us
    ]
    flagged = outliers(profile)
    priced = supported(concats, flagged)
    spent, held = sum(la.time_us or 0.0 for la in concats), sum(la.time_us or 0.0 for la in priced)
    if not concats or held / total < opt(context, CODE, "min_share", MIN_SHARE):
        return
    message = (
        f"{len(concats)} Concat layer(s) take {us(spent)} ({of_frame(spent / total, profile)}"
        f"): {labels(concats)}. Each copies its inputs into its output, no "
        f"arithmetic{_rates(concats)}"
    )
    running = _running(profile.layers, concats)
    if running:
        ids = ", ".join(f"#{la.id}" for la in running)
        message += (
            f"; {ids} {'takes' if len(running) == 1 else 'take'} the output of the "
            "Concat just before, copying those channels again (a running "
            "concatenation)"
        )
    misaligned = _misaligned(concats, context)
    align = alignment(concats[0], context)
    if misaligned:
        layer, channels, multiple = misaligned[0]
        message += (
            f"; {len(misaligned)} input(s) have channels off the alignment (#{layer.id}: "
            f"{channels}, not a multiple of {multiple})"
        )
    elif align is not None and context.platform is not None:
        message += (
            f"; every input's channels are a multiple of {align.other} (the alignment "
            f"of ops other than conv, {concats[0].data_type} on {context.platform.name})"
            ", so alignment is not the cause"
        )
    slow = [flagged[la.id] for la in concats if la.id in flagged]
    if slow:
        message += (
            "; counting "
            + " and ".join(f"#{o.layer.id} at {us(o.supported_us)} ({o.because})" for o in slow)
            + " instead of their one-frame times (re-measure, RKN050), they take "
            f"{us(held)} ({of_frame(held / total, profile)})"
        )
    yield Finding(
        code=CODE,
        name=NAME,
        severity=Severity.INFO,
        message=message,
        fix=_fix(concats, profile, context, bool(misaligned)),
        layer_ids=tuple(la.id for la in concats),
        estimate="none: the log holds no evidence of what removing a Concat saves",
        source=SOURCE,
        **NO_SAVING.fields(),
    )


def _fix(concats: Sequence[Layer], profile: Profile, context: RuleContext, misaligned: bool) -> str:
    shrink = []
    if any((la.data_type or "").upper() in WIDE for la in concats):
        shrink.append("INT8 halves the bytes each Concat moves (RKN002 prices it)")
    platform = context.platform
    if platform is not None and (platform.npu_cores or 1) > 1 and not multi_core_run(profile):
        shrink.append(
            "a multi-core mask splits Concat across the cores "
            f"({MULTI_CORE_SPEEDUP['Concat']:g}x measured on RK3588; RKN030 prices it "
            "where it pays)"
        )
    text = "; ".join(shrink) + ". Beyond that, " if shrink else ""
    text += (
        "no build or runtime option the guide documents removes a Concat: change the "
        "model, with fewer or narrower dense connections (concatenate fewer earlier "
        "features, or add them, a residual Add, where the accuracy allows)"
    )
    if misaligned:
        text += ", and give each concatenated tensor a channel count at a multiple of the alignment"
    return text + "; re-profile to measure what it saves"


RULES = (
    Rule(
        CODE,
        NAME,
        Severity.INFO,
        "Concat copies taking a large share of the frame (dense blocks): what they cost and "
        "what would change them, no saving claimed",
        check_concat_copies,
        source=sources(
            SOURCE,
            cite("yolov8n-pair", "(Concat shares, RW(KB))"),
            cite("yolov5n-640"),
            cite("yolo26n-640"),
            cite("fusionnet-fp16", "(RW(KB) of the 1.5 runtime, running concatenations)"),
        ),
        basis=(
            "none: the log holds no evidence of what removing or shrinking a Concat saves "
            "(INT8 and multi-core, which have evidence, are RKN002's and RKN030's)"
        ),
        confidence="low: no figure is claimed",
    ),
)
