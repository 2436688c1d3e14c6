"""RKN071 input resolution and orientation: an input with many times the pixels of the usual
640x640, and tall inputs where the guide prefers wide ones.

The input's size is read from the InputOperator rows' output shapes (NCHW, or NHWC when the
last axis holds 1, 3 or 4 channels).
"""

from __future__ import annotations

from collections.abc import Iterator

from rknnprof.analysis.savings import NONE, from_fraction
from rknnprof.model import Confidence, Finding, Layer, Profile, Severity, Shape, Target
from rknnprof.rules._util import claim, grade, of_frame, opt, time_of, total_us, us
from rknnprof.rules.base import Rule, RuleContext
from rknnprof.rules.outliers import priced
from rknnprof.rules.sources import cite, sources

CODE, NAME = "RKN071", "input-resolution"
REFERENCE = (640, 640)
"""The input size of the rknn_model_zoo detection benchmarks (YOLO, 640x640)."""
MIN_RATIO = 2.0
"""Pixels at least this many times the reference raise the finding (RKN071.min_ratio)."""
TALL_RATIO = 1.5
"""Height at least this many times the width counts as tall (RKN071.tall_ratio)."""
SOURCE = sources(
    cite("zoo", "inputs of [1, 3, 640, 640] for the YOLO benchmarks"),
    cite("guide", "§8.5.1 Figure 8-11 (larger Width, smaller Height is more DDR-friendly)"),
    cite("guide", "§8.2.2 (reduce the size of a costly, well-used operator)"),
    cite("yolov8n-pair", "(BEFORE, 1920x1920)"),
    cite("yolov8n-640", "(AFTER, 640x640)"),
)


def _hw(shape: Shape | None) -> tuple[int, int] | None:
    """(height, width) of a 4-D image tensor, NCHW or NHWC; None otherwise."""
    if not shape or len(shape) != 4:
        return None
    if shape[1] in (1, 3, 4) and shape[2] > 4 and shape[3] > 4:
        return shape[2], shape[3]
    if shape[3] in (1, 3, 4) and shape[1] > 4 and shape[2] > 4:
        return shape[1], shape[2]
    return None


_TENSOR_WORDS = frozenset({"query", "key", "value", "q", "k", "v", "attn", "mask", "input_ids"})
_TENSOR_STARTS = ("hidden", "attention", "token", "embed", "position", "past", "state")
"""An input named as an attention or token tensor (``InputOperator:query``, ``key``,
``value``, ``hidden_states``): a (1, 3, 1024, 64) query is 3 heads of 1024 tokens, not an
image (a public attention probe was told to feed its image rotated)."""
_SEPARATORS = str.maketrans(":/._-", "     ")


def _not_an_image(layer: Layer) -> bool:
    """The input's name (after ``InputOperator:``) has a word of an attention or token tensor
    (words split at ``:/._-`` and digits stripped)."""
    name = (layer.full_name or "").removeprefix("InputOperator:").lower()
    words = [w.rstrip("0123456789") for w in name.translate(_SEPARATORS).split()]
    return any(w in _TENSOR_WORDS or w.startswith(_TENSOR_STARTS) for w in words)


def _inputs(profile: Profile) -> list[tuple[Layer, int, int]]:
    found = []
    for layer in profile.layers:
        if _not_an_image(layer):
            continue
        if layer.op_type == "InputOperator" and layer.output_shapes:
            hw = _hw(layer.output_shapes[0])
            if hw is not None:
                found.append((layer, *hw))
    return found


def _feature_map(layer: Layer) -> bool:
    """An NPU layer whose output is a feature map (NCHW, more than one pixel): its work and
    bytes grow with the input's pixels. Layers after a global pool (1x1) and 2-D or 3-D
    outputs (fully connected, tokens) are left out."""
    if layer.target is not Target.NPU or not layer.time_us or not layer.output_shapes:
        return False
    shape = layer.output_shapes[0]
    return shape is not None and len(shape) == 4 and shape[2] * shape[3] > 1


def _resolution(
    profile: Profile, context: RuleContext, total: float, height: int, width: int
) -> Iterator[Finding]:
    pixels, ref = height * width, REFERENCE[0] * REFERENCE[1]
    ratio = pixels / ref
    if ratio < opt(context, CODE, "min_ratio", MIN_RATIO):
        return
    scaled = [la for la in profile.layers if _feature_map(la)]
    scaled_time = time_of(scaled)
    if not scaled_time:
        return
    fraction = 1.0 - ref / pixels
    at, caveat = priced(profile, scaled)
    saving = from_fraction(
        at,
        fraction,
        f"feature-map work scales with the pixels: {len(scaled)} NPU layers' time x (1 - "
        f"{REFERENCE[0]}x{REFERENCE[1]} / {height}x{width}) (convs and the copies between "
        "them; on a public yolov8n pair at 1920x1920 and 640x640 they shrank 88.1% against "
        "88.9% predicted)",
        Confidence.MEDIUM,
    )
    yield Finding(
        code=CODE,
        name=NAME,
        severity=grade(saving.total_us, total, cap=Severity.WARNING),
        message=(
            f"the input is {height}x{width}, {ratio:.1f}x the pixels of the usual "
            f"{REFERENCE[0]}x{REFERENCE[1]}: the {len(scaled)} NPU layers that work on feature "
            f"maps take {us(scaled_time)} ({of_frame(scaled_time / total, profile)})"
            + claim(
                profile,
                ", and their work grows with the pixels, so at 640x640 they would take about "
                f"{us(time_of(at) - saving.total_us)}{caveat}",
            )
        ),
        fix=(
            f"export the model at {REFERENCE[0]}x{REFERENCE[1]} (or the smallest size at which "
            "your smallest objects are still found) and downscale frames before inference "
            "(RGA); for large scenes, run tiles of that size"
        ),
        layer_ids=tuple(la.id for la in scaled),
        estimate="feature-map NPU layers' time x (1 - 640x640 / input pixels)",
        source=SOURCE,
        **saving.fields(),
    )


def _orientation(context: RuleContext, height: int, width: int, layer: Layer) -> Iterator[Finding]:
    if height < width * opt(context, CODE, "tall_ratio", TALL_RATIO):
        return
    yield Finding(
        code=CODE,
        name=NAME,
        severity=Severity.INFO,
        message=(
            f"the input is tall ({height}x{width}, height {height / width:.1f}x the width); "
            'the guide: for operators of the same scale, "a size with a larger Width and a '
            'smaller Height is more friendly to DDR reading and writing"; it publishes no '
            "figure for the gain"
        ),
        fix=(
            f"if the content allows, feed the image rotated ({width}x{height}) and rotate the "
            "results back, or export the model for the wide orientation"
        ),
        layer_ids=(layer.id,),
        estimate="0: the guide gives the direction, not a figure",
        source=SOURCE,
        **NONE.fields(),
    )


def check_input_resolution(profile: Profile, context: RuleContext) -> Iterator[Finding]:
    """
    What it finds:
        (a) An image input (an InputOperator with a 4-D NCHW or NHWC output, not named as an
        attention or token tensor: query, key, value, hidden_states, mask…) with at least 2x
        the pixels of 640x640, the input size of rknn_model_zoo's detection benchmarks (option
        RKN071.min_ratio); (b) a tall input, height at least 1.5x the width
        (RKN071.tall_ratio).

    Why it costs time:
        A convolution's MACs and bytes grow with its output height x width, and so do the bytes
        the copies between convs (Concat, Split, Add, Resize, MaxPool) move, so the layers on
        feature maps cost in proportion to the input's pixels: a public RK3588 profile (see
        Source) runs yolov8n at 1920x1920, 9x the pixels of 640x640, and its NPU layers take
        127,303 us of the 128,441 us frame. The same network at 640x640 on one RK3588 core (a
        public profile, see Source) takes 15,116 us on the NPU: 88.1% less, against 88.9% from
        the pixels, and every op type shrank 75-92%. The guide, for operators of the same size:
        "a size with a larger Width and a smaller Height is more friendly to DDR reading and
        writing" (Figure 8-11).

    Example:
        the input is 1920x1920, 9.0x the pixels of the usual 640x640: the 98 NPU layers that
        work on feature maps take 127,303 us (99.1% of the frame) ... at 640x640 they would
        take about 14,145 us

    How to fix:
        Export at 640x640, or the smallest size at which the smallest objects are still
        detected, and downscale frames with RGA before inference; run tiles for large scenes.
        A tall input: feed it rotated, or export for the wide orientation.

    Estimate:
        (a) The time of the NPU layers that work on feature maps (a 4-D output of more than
        one pixel: the convs and the copies between them) x (1 - 640x640 / input pixels),
        confidence medium: their work is proportional to the pixels. Layers after a global
        pool, fully connected layers and the CPU's input/output copies are not counted. A
        layer RKN050 flags as a single-frame outlier counts at the time the log supports for
        it (its same-shape sibling's, or its cycles at the table's median pace), named in the
        message. Counted on the convs only (as before), the promise was 93,481 us on that 1920 log
        and the real yolov8n pair delivered 121% of it (rknnprof's docs/track-record.md).
        (b) 0: the guide gives the direction, not a figure (severity info).
    """
    total = total_us(profile)
    if not total:
        return
    for layer, height, width in _inputs(profile)[:1]:  # the first image input drives the net
        yield from _resolution(profile, context, total, height, width)
        yield from _orientation(context, height, width, layer)


RULES = (
    Rule(
        CODE,
        NAME,
        Severity.WARNING,
        "An input with many times the pixels of 640x640, or taller than wide",
        check_input_resolution,
        source=SOURCE,
        basis=(
            "the feature-map NPU layers' time x (1 - 640x640 / input pixels): their work is "
            "proportional to the pixels; a single-frame outlier at the time the log supports"
        ),
        confidence="medium (per-layer overheads do not shrink with the pixels)",
        fix_changes="input shape",
    ),
)
