"""RKN021 Pad before Conv: an explicit Pad layer feeding a Conv that could pad itself.

The tables print no edges: "the Pad feeds the Conv" is judged from neighbours whose shapes
match (``_util.feeds``), said so in the message. The Pad's mode is read from its FullName where
the export kept the module's name (``ZeroPad2d``, ``ReflectionPad2d``); a Pad whose input shape
an Add takes back within a few layers sits in a residual block (reflect or replicate padding).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from rknnprof.analysis.mac import is_conv
from rknnprof.analysis.savings import achieved_rate_gbs, from_removal
from rknnprof.model import Confidence, Finding, Layer, Profile, Severity, Target
from rknnprof.rules._util import (
    claim,
    feeds,
    following,
    grade,
    in_shape,
    label,
    out_shape,
    time_of,
    total_us,
    us,
)
from rknnprof.rules.base import Rule, RuleContext
from rknnprof.rules.graph import WINDOW
from rknnprof.rules.outliers import priced
from rknnprof.rules.sources import cite, sources

ZERO_NAMES = ("zeropad", "zero_pad", "constantpad", "constant_pad")
"""FullName parts that show zero (constant) padding: ``nn.ZeroPad2d`` / ``ConstantPad2d``
modules keep their names in the ONNX node names the FullName carries."""
REFLECT_NAMES = ("reflect", "replicat", "mirror", "edge")
"""FullName parts that show reflect / replicate padding (``nn.ReflectionPad2d``…)."""
BLOCK_WINDOW = 8
"""A residual Add this many layers after a Pad, taking the Pad's input shape, puts the Pad in
a residual block (ResnetBlock: Pad, Conv, norm, act, Pad, Conv, norm, Add)."""


def _pad_pairs(layers: Sequence[Layer]) -> list[tuple[Layer, Layer, int]]:
    """(Pad, Conv, the Pad's index) triples: a Pad whose output (padding at most 15 per side) a
    Conv within :data:`WINDOW` layers takes."""
    pairs: list[tuple[Layer, Layer, int]] = []
    for index, pad in enumerate(layers):
        if pad.op_type != "Pad":
            continue
        src, dst = in_shape(pad), out_shape(pad)
        if src and dst and len(src) == 4 and len(dst) == 4:
            if any(d - s > 30 or d < s for s, d in zip(src[2:], dst[2:])):
                continue
        conv = next(
            (la for la in following(layers, index, WINDOW) if is_conv(la) and feeds(pad, la)), None
        )
        if conv is not None:
            pairs.append((pad, conv, index))
    return pairs


def covered_layers(profile: Profile) -> list[Layer]:
    """The Pads RKN021 reports: RKN001 leaves them to it, so a CPU Pad gets one finding."""
    return [pad for pad, _, _ in _pad_pairs(profile.layers)]


def _mode(pad: Layer) -> str:
    """``zero`` or ``reflect`` when the FullName shows it, else ``unknown``."""
    name = (pad.full_name or "").lower()
    if any(part in name for part in ZERO_NAMES):
        return "zero"
    if any(part in name for part in REFLECT_NAMES):
        return "reflect"
    return "unknown"


def _in_residual_block(layers: Sequence[Layer], index: int) -> bool:
    """An Add within :data:`BLOCK_WINDOW` layers after the Pad at ``index`` whose output has the
    Pad's input shape: the Pad pads a residual block's input (the block adds it back)."""
    src = in_shape(layers[index])
    return src is not None and any(
        la.op_type in ("Add", "AddRelu") and out_shape(la) == src
        for la in following(layers, index, BLOCK_WINDOW)
    )


def check_pad_before_conv(profile: Profile, context: RuleContext) -> Iterator[Finding]:
    """
    What it finds:
        Pad layers whose output (same shape) is the input of a Conv within the next 3 layers,
        where the padding per side is at most 15 (the NPU Conv pad limit), on the NPU or the
        CPU (a CPU Pad is reported here, not also by RKN001). The mode decides the fix: zero
        padding where the FullName shows it (``ZeroPad2d``, ``ConstantPad``), reflect or
        replicate where it shows that (``ReflectionPad2d``) or where the Pad pads the input
        of a residual block (an Add within 8 layers takes its input's shape back: a
        ResnetBlock pads with reflection, the reason a separate Pad exists), else not printed.
        One finding per mode: one cause, one change.

    Why it costs time:
        An explicit Pad copies the whole tensor through DDR (a size-transformation op, User Guide
        Table 8-5); a Conv pads the borders with zeros itself at no cost. NPU Pad takes constant
        and reflect modes only, so a replicate Pad runs on the CPU.

    Example:
        2 Pad layer(s) on the CPU pad a residual block's input before a Conv (reflect or
        replicate padding, the log does not print the mode) and take 5,200 us: #12 Pad
        (Pad:/model/res0/Pad) 2,600 us -> #13, ...

    How to fix:
        Zero padding shown: set the Conv's pads attribute (Conv2d(padding=...)) and drop the
        Pad. Reflect/replicate: train with zero padding in the Conv (a model change: retrain),
        or build the reflection from Slice + Concat, which the NPU runs (one Slice per border
        row/column, concatenated around the tensor).

    Estimate:
        The Pad layers' measured time: removed by the Conv's own zero pads (confidence medium
        where the log shows zero padding), or by zero padding after retraining (low: a model
        change). For a CPU Pad the Slice + Concat alternative is priced in the message at the
        NPU Concat rate (the log's Concats, else the public yolov8n profile's 5.16 GB/s).
    """
    layers = profile.layers
    pairs = _pad_pairs(layers)
    if not pairs:
        return
    groups: dict[str, list[tuple[Layer, Layer]]] = {}
    for pad, conv, index in pairs:
        mode = _mode(pad)
        if mode == "unknown" and _in_residual_block(layers, index):
            mode = "block"
        groups.setdefault(mode, []).append((pad, conv))
    total = total_us(profile)
    for mode, group in groups.items():
        yield _pad_finding(profile, mode, group, total)


def _slice_concat_us(profile: Profile, pads: Sequence[Layer]) -> float | None:
    """What the CPU Pads' bytes would take as Slice + Concat on the NPU, at the log's NPU
    Concat rate (else the public yolov8n profile's); None without CPU Pads or bytes."""
    cpu = [p for p in pads if p.target is Target.CPU and p.rw_kb]
    if not cpu:
        return None
    rate = (
        achieved_rate_gbs(
            la for la in profile.layers if la.op_type == "Concat" and la.target is Target.NPU
        )
        or CONCAT_PEER_GBS
    )
    return sum((p.rw_kb or 0.0) * 1024.0 for p in cpu) / (rate * 1e3)


CONCAT_PEER_GBS = 5.16
"""NPU Concat in the public RK3588 yolov8n profile (RW(KB) / time), corpus 01."""


def _pad_finding(
    profile: Profile, mode: str, pairs: Sequence[tuple[Layer, Layer]], total: float
) -> Finding:
    pads = [pad for pad, _ in pairs]
    at, caveat = priced(profile, pads)
    shown = ", ".join(f"{label(p)} -> #{c.id}" for p, c in pairs[:3])
    more = f" +{len(pairs) - 3} more" if len(pairs) > 3 else ""
    on = "/".join(sorted({str(p.target) for p in pads}))
    # (a build-time table has no times: its Pads take what no one measured)
    spent = us(time_of(pads)) if profile.measured else "a time not in the log (a build-time table)"
    if mode == "zero":
        saving = from_removal(
            at,
            f"the {len(pads)} zero-padding Pad layers' measured time; the Convs pad with "
            "zeros at no cost",
            Confidence.MEDIUM,
        )
        what = f"pad with zeros (the FullName says so) before a Conv and take {spent}"
        tail = "; the Conv's own pads do the same for free"
        fix = "set each Conv's pads attribute (Conv2d(padding=...)) and drop the Pad"
    else:
        saving = from_removal(
            at,
            f"the {len(pads)} Pad layers' measured time, removed by zero padding in the Conv "
            "after retraining (a model change)",
            Confidence.LOW,
        )
        if mode == "reflect":
            what = f"pad with reflection (the FullName says so) before a Conv and take {spent}"
        elif mode == "block":
            what = (
                "pad a residual block's input before a Conv (a separate Pad there is reflect "
                f"or replicate padding; the log does not print the mode) and take {spent}"
            )
        else:
            what = (
                "feed a Conv (matched by shape; the log does not print the Pad mode) and take "
                f"{spent}"
            )
        npu = _slice_concat_us(profile, pads) if profile.measured else None
        tail = claim(
            profile,
            f"; as Slice + Concat on the NPU the CPU Pads' bytes would take about {us(npu)}"
            if npu is not None
            else "",
        )
        fix = (
            "train with zero padding in the Conv (Conv2d(padding=..., padding_mode='zeros'); "
            "retrain) and drop the Pad, or build the reflection from Slice + Concat, which the "
            "NPU runs"
            + (
                "; if the Pad is zero padding after all, set the Conv's pads instead"
                if mode == "unknown"
                else ""
            )
        )
    return Finding(
        code="RKN021",
        name="pad-before-conv",
        severity=grade(saving.total_us, total, Severity.WARNING),
        message=f"{len(pads)} Pad layer(s) on the {on} {what}: {shown}{more}{tail}{caveat}",
        fix=fix,
        layer_ids=tuple(i for pair in pairs for i in (pair[0].id, pair[1].id)),
        estimate="the Pad layers' time",
        source=sources(
            cite("guide", "§8.5.2 Table 8-5"),
            cite("ops", "Convolution pad limits; Pad (constant, reflect)"),
        ),
        **saving.fields(),
    )


RULES = (
    Rule(
        "RKN021",
        "pad-before-conv",
        Severity.WARNING,
        "Explicit Pad feeding a Conv that could pad itself",
        check_pad_before_conv,
        source=sources(cite("guide", "§8.5.2 Table 8-5"), cite("ops", "Convolution (pad 0..15)")),
        basis=(
            "the Pads' measured time: removed by the Conv's own zero pads where the log shows "
            "zero padding, else by zero padding after retraining"
        ),
        confidence=(
            "medium where the FullName shows zero padding; low otherwise (reflect/replicate or "
            "unknown mode: a model change)"
        ),
    ),
)
