"""RKN060 post-processing inside the model, RKN061 attention that runs on one core."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import replace

from rknnprof.analysis.savings import NONE
from rknnprof.model import Finding, Layer, Profile, Severity, Target, ThroughputGain
from rknnprof.rules._util import grade, labels, npu_cores, opt, pct, time_of, total_us, us
from rknnprof.rules.base import Rule, RuleContext
from rknnprof.rules.sources import TOOLKIT2, cite, issue, sources

POSTPROCESS_OPS = frozenset({"exSoftmax13", "Softmax", "exSoftmaxMask", "LogSoftmax", "Hardmax",
                             "ArgMax", "ArgMin", "TopK"})
"""Op types that decode detections/classes rather than extract features."""
TAIL_WINDOW = 6
"""A softmax-like layer counts as post-processing when an OutputOperator follows within this
many layers, or when it sits in the last 15% of the table."""
ATTENTION_OPS = frozenset({"exSDPAttention", "exMatMul"})


def _is_dfl(layer: Layer) -> bool:
    return "dfl" in (layer.full_name or "").lower()


def _in_tail(layers: Sequence[Layer], index: int) -> bool:
    if index >= len(layers) * 0.85:
        return True
    return any(la.op_type == "OutputOperator" for la in layers[index + 1 : index + 1 + TAIL_WINDOW])


def _postprocess_layers(profile: Profile) -> list[Layer]:
    layers = profile.layers
    return [la for i, la in enumerate(layers) if la.target is Target.NPU and (
        _is_dfl(la) or (la.op_type in POSTPROCESS_OPS and _in_tail(layers, i)))]


def check_post_processing(profile: Profile, context: RuleContext) -> Iterator[Finding]:
    """
    What it finds:
        Post-processing compiled into the model and run on the NPU: softmax-family and
        arg/top-k layers (exSoftmax13, Softmax, exSoftmaxMask, ArgMax, TopK) near the outputs
        (an OutputOperator within 6 layers, or the last 15% of the table) and any layer whose
        FullName names a DFL (the YOLOv8-style box decoder), when together they take at least
        2% of the frame (option RKN060.min_share). CPU ones are RKN001's.

    Why it costs time:
        These ops have no MACs for the NPU to use: they run on its slow non-conv units, have no
        multi-core split, and Softmax is limited to axis 1 or 3 and by the Transpose limits
        (Operator List). One YOLOv10 DFL exSoftmax13 on a (4,80,80,17) tensor took 14254 us on
        RK3588 (THU-MIG/yolov10#115). On the CPU, the same decoding runs only on the few boxes kept.

    Example:
        post-processing runs on the NPU inside the model: #121 exSoftmax13
        (exSoftmax13:/model.23/dfl/Softmax) 14254 us; 14254 us in all (41.2% of the frame)

    How to fix:
        Cut the exported model before the DFL / softmax decoding (outputs after the last
        convolutions, as the rknn_model_zoo YOLO exports do) and decode boxes on the CPU after
        the score threshold.

    Estimate:
        Upper bound: the layers' time (the CPU decoding that replaces them is not in the log;
        after thresholding it is usually small).
    """
    layers = _postprocess_layers(profile)
    total = total_us(profile)
    spent = time_of(layers)
    if not layers or not total or spent / total < opt(context, "RKN060", "min_share", 0.02):
        return
    yield Finding(
        code="RKN060", name="post-processing", severity=grade(spent, total),
        message=(f"post-processing runs on the NPU inside the model: {labels(layers)}; "
                 f"{us(spent)} in all ({pct(spent / total)} of the frame)"),
        fix=("cut the exported model before the DFL/softmax decoding (outputs after the last "
             "convs, as the rknn_model_zoo YOLO exports do) and decode on the CPU after the "
             "score threshold"),
        layer_ids=tuple(la.id for la in layers),
        est_saving_us=spent,
        estimate="upper bound: the post-processing layers' time",
        source=sources(cite("ops", "Softmax"), issue("THU-MIG/yolov10", 115),
                       cite("zoo-yolov8")),
    )


def check_attention(profile: Profile, context: RuleContext) -> Iterator[Finding]:
    """
    What it finds:
        Attention layers (exSDPAttention, exMatMul) on the NPU that take at least 2% of the
        frame (option RKN061.min_share). Neither op splits across NPU cores (Operator List
        multi-core table), so on RK3588 and RK3576 the other cores idle while they run.

    Why it costs time:
        Attention cost grows with the square of the sequence length, and these fused ops run
        on one core. RK3562 and RK3576 have a Flash Attention kernel
        (rknn.config(enable_flash_attention=True), toolkit 2.1.0+) that RK3588 lacks.

    Example:
        2 exSDPAttention layer(s) take 2674 us (13.1% of the frame) on one core: #63
        exSDPAttention (exSDPAttention:node_matmul_1#1_2sdpa) 1338 us, ...

    How to fix:
        Where the platform has it (RK3562, RK3576), build with
        rknn.config(enable_flash_attention=True). On RK3588 the op has no faster path: run one
        context per core for throughput, or attend over fewer positions (a smaller feature
        map) for latency.

    Estimate:
        0 latency: Flash Attention's speed-up is not published, and RK3588 has no faster
        kernel. On a multi-core SoC without Flash Attention, the idle cores are a
        ``throughput_gain`` (one context per core, up to the core count), never a saving.
    """
    layers = [
        la for la in profile.layers if la.target is Target.NPU and la.op_type in ATTENTION_OPS
    ]
    total = total_us(profile)
    spent = time_of(layers)
    if not layers or not total or spent / total < opt(context, "RKN061", "min_share", 0.02):
        return
    platform = context.platform
    cores = npu_cores(context, profile) or 1
    flash = bool(platform is not None and platform.feature("flash_attention"))
    name = platform.name if platform is not None else "this SoC"
    if flash:
        fix = (f"build with rknn.config(target_platform='{name}', enable_flash_attention=True) "
               "(toolkit 2.1.0 or later)")
    elif cores > 1:
        fix = (f"{name} has no Flash Attention and cannot split these ops: for throughput run one "
               "context per core (rknn_dup_context + rknn_set_core_mask); for latency attend "
               "over fewer positions")
    else:
        fix = "attend over fewer positions (a smaller feature map) or fewer heads"
    if platform is None:
        fix += "; pass --platform to learn whether Flash Attention is available"
    shapes = sorted({str(la.input_shapes[0]).replace(" ", "") for la in layers if la.input_shapes})
    gain = (ThroughputGain(float(cores), f"{cores} NPU cores with one context each; an upper "
                           "bound, these ops run on one core under any mask")
            if cores > 1 and not flash else None)
    basis = ("Flash Attention's speed-up is not published: no latency figure" if flash else
             "no faster attention kernel on this SoC: no latency figure")
    yield Finding(
        code="RKN061", name="attention",
        severity=grade(spent, total, Severity.WARNING) if flash or cores > 1 else Severity.INFO,
        message=(f"{len(layers)} attention layer(s) take {us(spent)} ({pct(spent / total)} of the "
                 f"frame) on one NPU core{f' of {cores}' if cores > 1 else ''}: {labels(layers)}"
                 + (f"; query shape {', '.join(shapes[:2])}" if shapes else "")),
        fix=fix,
        layer_ids=tuple(la.id for la in layers),
        estimate="0 latency (no published speed-up); idle cores as throughput",
        source=sources(cite("ops", "exSDPAttention, multi-core table"),
                       cite("toolkit-api", "enable_flash_attention"), cite("changelog", "2.1.0")),
        throughput_gain=gain,
        **replace(NONE, basis=basis).fields(),
    )


RULES = (
    Rule("RKN060", "post-processing", Severity.ERROR,
         "Softmax/DFL decoding running on the NPU inside the model: move it out",
         check_post_processing,
         source=sources(cite("ops", "Softmax, exSoftmax13"), issue("THU-MIG/yolov10", 115),
                 issue(TOOLKIT2, 54), cite("zoo-yolov8"))),
    Rule("RKN061", "attention", Severity.WARNING,
         "Attention ops (exSDPAttention, exMatMul) on one core; Flash Attention where available",
         check_attention,
         source=sources(cite("ops", "exSDPAttention, exMatMul, multi-core table"),
                 cite("toolkit-api", "config enable_flash_attention"),
                 cite("changelog", "2.1.0")),
         basis=('none in latency (no published Flash Attention speed-up, no faster RK3588 kernel);'
                ' idle cores as throughput_gain'),
         confidence='low (0 us claimed)'),
)
