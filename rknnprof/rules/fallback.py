"""RKN001 cpu-fallback: layers the runtime ran on the CPU instead of the NPU."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from rknnprof.analysis.mac import is_conv
from rknnprof.analysis.savings import (
    Saving,
    achieved_rate_gbs,
    from_rate,
    from_removal,
    merged,
)
from rknnprof.model import (
    Confidence,
    Coverage,
    Finding,
    Layer,
    Profile,
    Severity,
    Target,
    is_multicore_fallback,
)
from rknnprof.platforms import Platform, all_platforms, dtype_bytes
from rknnprof.rules._util import claim, grade, labels, of_frame, time_of, total_us, us
from rknnprof.rules.base import Rule, RuleContext
from rknnprof.rules.decoding import covered_layers as decode_layers
from rknnprof.rules.fallback_fixes import (
    POOL_OPS,
    SOFTMAX_OPS,
    fix_for,
    is_custom,
    is_instance_norm,
    is_norm,
    limit_fix,
)
from rknnprof.rules.outliers import priced
from rknnprof.rules.padding import covered_layers as pad_layers
from rknnprof.rules.sources import TOOLKIT2, cite, issue, sources

SOURCE = sources(
    cite("guide", "§8.2.3, §8.4.1"),
    cite("ops", "chapters 3-4 (limits, per-platform op lists)"),
    issue(TOOLKIT2, 490, "Transpose"),
    issue(TOOLKIT2, 514, "Resize"),
    cite("yolov8n-pair", "NPU Resize/Concat rates"),
    cite("guide", "§5.5 custom operators (the cst prefix, CPU and GPU kernels)"),
    issue("airockchip/rknn_model_zoo", 366, "NPU exNorm rate (RF-DETR FP16 table)"),
)


def _is_convert(layer: Layer) -> bool:
    return "DataConvert" in layer.op_type


PEER_RATE_GBS = {"Resize": 1.54, "MaxPool": 1.36, "Concat": 5.16, "Split": 4.59, "Add": 6.13}
"""Rates NPU layers of these op types achieved in corpus 01 (RK3588, yolov8n, RW(KB) / time):
an NPU estimate for a CPU op of that type when the log itself holds none on the NPU."""


def _bytes(layer: Layer) -> float | None:
    """Bytes the layer moves: RW(KB), else its shapes times the dtype size."""
    if layer.rw_kb:
        return layer.rw_kb * 1024
    size = dtype_bytes(layer.data_type) or 1
    elements = 0
    for shape in (layer.input_shapes or ()) + (layer.output_shapes or ()):
        count = 1
        for dim in shape:
            count *= dim
        elements += count
    return elements * size or None


NORM_PATH_OPS = frozenset({"exNorm", "exLayerNorm"})
"""The NPU's normalisation kernels (Operator List: exNorm, float16, axes [1] or [1,2,3])."""


PEER_NORM_GBS = 152 * 2 * 1024 / 333e-6 / 1e9
"""NPU exNorm in a public RK3588 FP16 per-layer table (airockchip/rknn_model_zoo#366, RF-DETR:
rows #394 and #395, exNorm (1,256,1,300), 152 KB each in 168 and 165 us): 0.93 GB/s. A
normalisation over the channel axis: a norm over another axis also needs two Transposes,
which this rate leaves out (the NPU estimate is then a lower end)."""
PEER_NORM_SOURCE = "airockchip/rknn_model_zoo#366"


def _norm_rate(profile: Profile) -> tuple[float, str, Confidence] | None:
    """The rate this log's NPU normalisation path achieved: the bytes of its exNorm /
    exLayerNorm rows over their time plus the Transposes right around them (an axis exNorm
    does not take brings two); None when the log has no such row."""
    layers = profile.layers
    norms = [
        (i, la)
        for i, la in enumerate(layers)
        if la.op_type in NORM_PATH_OPS and la.target is Target.NPU and la.rw_kb and la.time_us
    ]
    if not norms:
        return None
    nbytes = seconds = 0.0
    wraps = 0
    for index, norm in norms:
        nbytes += (norm.rw_kb or 0.0) * 1024.0
        seconds += (norm.time_us or 0.0) * 1e-6
        for k in (index - 1, index + 1):
            if 0 <= k < len(layers) and layers[k].op_type == "Transpose":
                seconds += (layers[k].time_us or 0.0) * 1e-6
                wraps += 1
    rate = nbytes / seconds / 1e9
    with_t = f" with the {wraps} Transpose(s) around them" if wraps else ""
    return (
        rate,
        f"this log's NPU {'/'.join(sorted({la.op_type for _, la in norms}))} path{with_t} "
        f"moved {rate:.2f} GB/s",
        Confidence.HIGH,
    )


def _npu_rate(
    op: str, layers: Sequence[Layer], profile: Profile
) -> tuple[float, str, Confidence] | None:
    """The rate an NPU would move the op's bytes at, GB/s, with its evidence: the same op type
    on the NPU in this log (high), else a public peer log's rate (medium), else this log's NPU
    data-movement ops (medium); None when none is known. A normalisation (a custom one too)
    takes only this log's NPU norm path (exNorm and its Transposes), and another custom op no
    rate: a generic data-movement rate would price a kernel at a copy's speed."""
    if is_norm(op, layers):
        # (an InstanceNorm's axes are not exNorm's: its two Transposes are not in the peer's
        # rate, so the estimate is a lower end of the NPU path and the saving an upper end)
        instance = is_instance_norm(op, layers)
        return _norm_rate(profile) or (
            PEER_NORM_GBS,
            f"NPU exNorm moved {PEER_NORM_GBS:.2f} GB/s in a public RK3588 FP16 table "
            f"({PEER_NORM_SOURCE}, RF-DETR); the two Transposes a norm over another axis "
            "needs are not priced"
            + (": for this InstanceNorm the saving is an upper end" if instance else ""),
            Confidence.MEDIUM,
        )
    if is_custom(op):
        return None
    npu = [la for la in profile.layers if la.target is Target.NPU and not is_conv(la)]
    same = achieved_rate_gbs(la for la in npu if la.op_type == op)
    if same:
        return same, f"NPU {op} layers in this log moved {same:.2f} GB/s", Confidence.HIGH
    if op in PEER_RATE_GBS:
        rate = PEER_RATE_GBS[op]
        return (
            rate,
            f"NPU {op} achieved {rate:.2f} GB/s in a public RK3588 yolov8n profile",
            Confidence.MEDIUM,
        )
    other = achieved_rate_gbs(npu)
    if other:
        return other, (f"this log's NPU non-conv layers moved {other:.2f} GB/s"), Confidence.MEDIUM
    return None


def _islands(profile: Profile, skip: set[int]) -> list[list[int]]:
    """Runs of consecutive (table order) non-IO CPU layers, as index lists, leaving out the
    ``skip`` layer ids (CPU layers of a decode tail, RKN060's)."""
    runs: list[list[int]] = []
    for index, layer in enumerate(profile.layers):
        if layer.target is Target.CPU and not layer.is_io and layer.id not in skip:
            if runs and runs[-1][-1] == index - 1:
                runs[-1].append(index)
            else:
                runs.append([index])
    return runs


def _round_trip(profile: Profile, run: list[int]) -> tuple[int, list[Layer]]:
    """NPU<->CPU switches around one island, and the conversion layers that only exist for it."""
    layers = profile.layers
    switches = 0
    converts = [layers[i] for i in run if _is_convert(layers[i])]
    for neighbour in (run[0] - 1, run[-1] + 1):
        if 0 <= neighbour < len(layers) and layers[neighbour].target is Target.NPU:
            switches += 1
            if _is_convert(layers[neighbour]):
                converts.append(layers[neighbour])
    return switches, converts


def _transpose_reason(layer: Layer, platform: Platform | None) -> str | None:
    shape = layer.input_shapes[0] if layer.input_shapes else None
    limit = platform.limit("transpose_max_hw") if platform is not None else None
    if platform is None or not shape or len(shape) < 3 or not limit:
        return None
    hw = shape[-2] * shape[-1]
    if hw <= limit:
        return None
    others = sorted(
        {
            p.family
            for p in all_platforms().values()
            if p.family and (p.limit("transpose_max_hw") or 0) >= hw
        }
    )
    also = f" ({', '.join(others)} allow it)" if others else ""
    return (
        f"h*w = {shape[-2]}*{shape[-1]} = {hw} exceeds {platform.name}'s NPU Transpose "
        f"limit {limit}{also}"
    )


def _scale(layer: Layer) -> tuple[float, float] | None:
    """A Resize's (height, width) scale from its shapes; None when they do not say."""
    src = layer.input_shapes[0] if layer.input_shapes else None
    dst = layer.output_shapes[0] if layer.output_shapes else None
    if src and dst and len(src) == 4 and len(dst) == 4 and src[2] and src[3]:
        return dst[2] / src[2], dst[3] / src[3]
    return None


def _resize_reason(layer: Layer, platform: Platform | None, model: Sequence[Layer]) -> str:
    lo = platform.limit("resize_factor_min") if platform is not None else None
    hi = platform.limit("resize_factor_max") if platform is not None else None
    modes = (
        "NPU Resize takes only nearest/linear with half_pixel, pytorch_half_pixel or "
        "align_corners; linear+align_corners in FP16 fell back on RK3588 "
        "(rknn-toolkit2 issue 514)"
    )
    scale = _scale(layer)
    src = layer.input_shapes[0] if layer.input_shapes else ()
    if scale is None or not lo or not hi or (src[2] == 1 and src[3] == 1):  # (1x1: a broadcast)
        return modes
    fh, fw = scale
    if not all(f.is_integer() and lo <= f <= hi for f in (fh, fw)):
        return f"scale x{fh:g}/x{fw:g} is not an integer factor in {lo}..{hi} (NPU Resize limit)"
    # (the scale fits: what the log cannot show, its mode, is left)
    twin = next(
        (
            la
            for la in model
            if la.op_type == "Resize" and la.target is Target.NPU and _scale(la) == scale
        ),
        None,
    )
    beside = (
        f"; #{twin.id} Resize, x{fh:g} too, runs on the NPU: compare the two nodes' attributes"
        if twin is not None
        else ""
    )
    return (
        f"its scale x{fh:g}/x{fw:g} fits the NPU's integer {lo}..{hi}, so its mode (which the "
        f"log does not print) is the likely cause: {modes}{beside}"
    )


def _reasons(
    op: str, layers: list[Layer], profile: Profile, platform: Platform | None
) -> list[str]:
    reasons: list[str] = []
    names = {la.full_name for la in layers if la.full_name}
    for name, reason in profile.fallback_warnings:
        if is_multicore_fallback(reason):
            continue
        if name == op or name in names or name.split(":")[0] == op:
            text = f"log: {reason}"
            if text not in reasons:
                reasons.append(text)
    if is_custom(op):
        reasons.append(
            f"{op} is a custom op you registered (op type prefix 'cst'): it runs where its "
            "kernel was registered, here the CPU"
        )
    if platform is not None and op in platform.npu_ops_absent:
        reasons.append(f"{op} has no NPU implementation on {platform.name} (Operator List)")
    if op == "Transpose" and not any(r.startswith("log:") for r in reasons):
        # the runtime's own printed limit wins: it differs between runtime versions
        reasons.extend(r for la in layers[:1] if (r := _transpose_reason(la, platform)))
    elif op == "Resize" and layers:  # ranking-only profiles have no layers
        reasons.append(_resize_reason(layers[0], platform, profile.layers))
    elif op in SOFTMAX_OPS and not reasons:
        reasons.append("NPU Softmax needs axis 1 or 3 and is bound by the Transpose limits")
    elif op in POOL_OPS:
        reasons.append(
            "NPU pooling needs kernel <= 7, stride <= 8, pad <= 7, no ceil_mode, "
            "count_include_pad=1"
        )
    elif "DataConvert" in op:
        reasons.append("int8<->fp16 conversions around fp16-only ops (exNorm / exLayerNorm)")
    if not reasons:
        reasons.append(
            "reason not in the log: a size limit, an unsupported attribute or op "
            "(User Guide §8.2.3; check the OpList)"
        )
    return reasons


def _findings_from_layers(profile: Profile, context: RuleContext) -> Iterator[Finding]:
    total = total_us(profile)
    by_op: dict[str, list[Layer]] = {}
    convert_cost: dict[str, list[Layer]] = {}
    switches: dict[str, int] = {}
    decode = {la.id for la in decode_layers(profile, context)}
    decode |= {la.id for la in pad_layers(profile)}  # RKN021's: one finding per layer
    for run in _islands(profile, decode):
        ops = [profile.layers[i] for i in run if not _is_convert(profile.layers[i])]
        owner = (ops or [profile.layers[run[0]]])[0].op_type
        count, converts = _round_trip(profile, run)
        switches[owner] = switches.get(owner, 0) + count
        convert_cost.setdefault(owner, []).extend(converts)
        for layer in ops or [profile.layers[i] for i in run]:
            by_op.setdefault(layer.op_type, []).append(layer)
    for op, layers in by_op.items():
        cpu_time = time_of(layers)
        converts = [c for c in convert_cost.get(op, []) if c not in layers]
        convert_time = time_of(converts)
        at, caveat = priced(profile, layers + converts)
        saving = _cpu_saving(op, at[: len(layers)], at[len(layers) :], profile)
        npu_time = time_of(at) - saving.total_us
        share = cpu_time / total if total else 0.0
        trips = switches.get(op, 0)
        reasons = _reasons(op, layers, profile, context.platform)
        npu_text = claim(
            profile,
            f", NPU estimate {us(max(0.0, npu_time))}"
            if saving.confidence is not Confidence.LOW and cpu_time
            else "",
        )
        rate = _npu_rate(op, layers, profile)
        if npu_text and cpu_time and not saving.total_us and rate is not None:
            moved = sum(_bytes(la) or 0.0 for la in layers) / (rate[0] * 1e3)
            npu_text = (
                f", no faster on the NPU: its bytes at {rate[0]:.2f} GB/s take {us(moved)} "
                f"({rate[1]})"
            )
        timing = (
            f"{us(cpu_time)} on the CPU ({of_frame(share, profile)}){npu_text}"
            if cpu_time
            else "time not in the log"
        )
        runs = "run on the CPU" if profile.measured else "are placed on the CPU at build time"
        message = (
            f"{len(layers)} {op} layer(s) {runs}: {labels(layers)}; {timing}; "
            f"{trips} NPU<->CPU switch(es)"
            + (f" and {len(converts)} conversion layer(s) ({us(convert_time)})" if converts else "")
            + f". Why: {'; '.join(reasons)}{caveat}"
        )
        yield Finding(
            code="RKN001",
            name="cpu-fallback",
            severity=grade(saving.total_us, total) if cpu_time else Severity.WARNING,
            message=message,
            fix=fix_for(op, layers, profile.layers),
            layer_ids=tuple(la.id for la in layers) + tuple(c.id for c in converts),
            estimate="CPU time minus the same bytes at an NPU rate achieved in the log (or a "
            "public peer log), plus the conversion layers beside the CPU island",
            source=SOURCE,
            **saving.fields(),
        )


def _cpu_saving(op: str, layers: list[Layer], converts: list[Layer], profile: Profile) -> Saving:
    """Moving the op to the NPU: each CPU layer saves its time minus its bytes at an achieved NPU
    rate (:func:`_npu_rate`); without a rate, its whole time (an upper bound, low confidence).
    The conversion layers that exist only for the CPU island go with it."""
    gone = from_removal(converts, f"{len(converts)} conversion layer(s) removed")
    rate = _npu_rate(op, layers, profile)
    if rate is None:
        moved = from_removal(
            layers,
            (
                f"no measured NPU normalisation path (exNorm) in this log for {op}"
                if is_norm(op, layers)
                else f"no measured NPU rate for {op}"
            )
            + ": the whole CPU time, an upper bound",
            Confidence.LOW,
        )
    else:
        gbs, basis, confidence = rate
        changes = [(la, _bytes(la) or 0.0) for la in layers]
        moved = from_rate(
            changes,
            gbs,
            f"CPU time minus the time its bytes take at {gbs:.2f} GB/s ({basis})",
            confidence,
        )
    return merged([moved, gone] if converts else [moved], confidence=moved.confidence)


def _findings_from_ranking(
    profile: Profile, context: RuleContext, skip: frozenset[str] = frozenset()
) -> Iterator[Finding]:
    """One finding per op type with CPUTime in the ranking table, except the ``skip`` ones
    (op types the printed rows already show on the CPU)."""
    total = total_us(profile)
    rows = (
        "no per-layer rows, so no layer ids"
        if not profile.layers
        else "its rows are elided from the per-layer table, so no layer ids"
    )
    for stat in profile.ranking:
        if stat.cpu_time_us <= 0 or stat.op_type in ("InputOperator", "OutputOperator", "Total"):
            continue
        if stat.op_type in skip:
            continue
        share = stat.cpu_time_us / total if total else 0.0
        if stat.share is not None and stat.cpu_time_us >= stat.total_time_us:
            share = stat.share  # the log's TimeRatio: right even when the paste is cut short
        reasons = _reasons(stat.op_type, [], profile, context.platform)
        yield Finding(
            code="RKN001",
            name="cpu-fallback",
            severity=grade(share, 1.0),
            message=(
                f"{stat.op_type} runs on the CPU: {us(stat.cpu_time_us)} "
                f"({of_frame(share, profile)}) over {stat.calls} call(s) in the ranking table "
                f"({rows}). "
                f"Why: {'; '.join(reasons)}"
            ),
            fix=fix_for(stat.op_type),
            est_saving_us=stat.cpu_time_us,
            basis=(
                f"the ranking's {stat.op_type} CPUTime {us(stat.cpu_time_us)}: an upper bound "
                "(no sizes in the ranking for an NPU estimate)"
            ),
            confidence=Confidence.LOW,
            estimate="upper bound: the op type's CPU time (the ranking table has no sizes for an "
            "NPU estimate)",
            source=SOURCE,
        )


def _findings_from_warnings(profile: Profile, seen: set[str]) -> Iterator[Finding]:
    # (a table that shows every row says where each op ran: a warned op all of whose rows ran
    # on the NPU did not fall back, whatever the conversion warned)
    shown = _whole_table(profile)
    on_npu = {la.op_type for la in profile.layers if la.target is Target.NPU} if shown else set()
    on_npu -= {la.op_type for la in profile.layers if la.target is not Target.NPU}
    for name, reason in profile.fallback_warnings:
        op = name.split(":")[0]
        if is_multicore_fallback(reason) or op in seen or op in on_npu:
            continue
        seen.add(op)
        yield Finding(
            code="RKN001",
            name="cpu-fallback",
            severity=Severity.WARNING,
            message=f"the log warns that {name} falls back to the CPU: {reason}",
            fix=limit_fix(op, reason),
            est_saving_us=0.0,
            basis="no saving: the log holds no time for this op",
            estimate="no time in the log for this op; saving unknown",
            source=SOURCE,
        )


def _whole_table(profile: Profile) -> bool:
    """The profile's table shows every row (its verdict: complete, or an estimate)."""
    validity = profile.validity
    return bool(profile.layers) and (
        validity is None or validity.coverage in (Coverage.COMPLETE, Coverage.ESTIMATE)
    )


def check_cpu_fallback(profile: Profile, context: RuleContext) -> Iterator[Finding]:
    """
    What it finds:
        Layers with Target CPU other than InputOperator/OutputOperator (those are on the CPU by
        design). Without a per-layer table, or when the table elides rows (``...``), op types
        with CPUTime in the ranking table that no printed row shows on the CPU. Build-time
        "will fallback to CPU" warnings for ops with no row (a whole table that runs every row
        of the warned op on the NPU says where it ran: no finding). One finding per op type. CPU
        layers inside a decode tail that RKN060 reports (a CPU Gather of the box decode) are
        left to it: cutting the decode out of the model removes them too.

    Why it costs time:
        "Most of the performance optimization problems of users will be solved after converting
        the CPU operators to NPU" (User Guide §8.2.3). The CPU is slow at these ops, and every
        NPU->CPU->NPU switch costs a synchronisation and often int8<->fp16 conversions
        (exDataConvert). The finding names the reason where it can be known: the platform's limits
        (Transpose h*w > 8192 on RK3588 while RK3576 allows 2^28), Resize scales, ops absent from
        the platform's NPU list (Softmax on RK3566/RK3568), or the log's own warning.

    Example:
        3 Resize layer(s) run on the CPU: #40 Resize (Resize:/up1/Resize) 9,012 us, ...; 17,883 us
        on the CPU (9.8% of the frame); 6 NPU<->CPU switch(es). Why: scale x1.5/x1.5 is not an
        integer factor in 2..8 (NPU Resize limit)

    How to fix:
        One change per op type, by its class: Transpose -- reshape around it so h*w stays
        within the limit (the limit the log's warning prints, when it prints one: it differs
        between runtimes); Resize -- nearest (or linear with half_pixel) at an integer x2..x8
        scale; Pow -- Mul(x, x) / Sqrt; Softmax/exSoftmax13 -- decode on the CPU, outside the
        model; a final Reshape -- end the model before it; elementwise math (Acos, Exp…) --
        outside the model or an NPU approximation; Gather/Scatter -- post-processing; a
        normalisation -- export the standard op so the toolkit maps it to exNorm; a custom op
        (op type ``cst…``, registered by the user) -- register its GPU kernel instead of the
        CPU one (custom-operator chapter), or, for a normalisation, drop it for the native
        exNorm; others -- rewrite with NPU-supported ops (User Guide §8.4.1; the channel-shuffle
        example only for ops that shuffle channels). A Pad before a Conv is RKN021's. Forcing
        op_target to npu needs an accuracy check.

    Estimate:
        Per CPU layer: its time minus an NPU estimate, the bytes it moves (RW(KB), else the
        shapes times the dtype size) at a rate an NPU actually achieved: the same op type on the
        NPU in this log (high confidence), else that op type in a public RK3588 yolov8n profile
        (Resize 1.54 GB/s, see Source; medium), else this log's NPU non-conv layers (medium);
        never the DDR peak (33.8 GB/s on RK3588 is 15-30x what NPU Resize achieves). Without any
        rate: the whole CPU time, an upper bound (low). A normalisation, custom or not, takes
        this log's NPU normalisation path (exNorm's bytes over its time plus the Transposes
        around it; high), else exNorm's 0.93 GB/s in a public RK3588 FP16 table
        (rknn_model_zoo#366; medium; the Transposes a norm over another axis needs are then not
        priced), never a copy's rate; another custom op takes no rate: the whole CPU time, an
        upper bound (low). Plus the time of exDataConvert layers inside or beside the CPU
        island. The per-switch scheduling cost is not in the log and is not counted.
        Ranking-only profiles: the op type's CPU time (upper bound). A warning line without a
        row, or rows without times: 0, severity warning.
    """
    if profile.layers:
        seen = {la.op_type for la in profile.layers if la.target is Target.CPU and not la.is_io}
        yield from _findings_from_layers(profile, context)
        if profile.elided_rows:  # CPU ops that only the ranking shows (corpus 05: exSoftmax13)
            yield from _findings_from_ranking(profile, context, frozenset(seen))
            seen |= {s.op_type for s in profile.ranking if s.cpu_time_us > 0}
    else:
        seen = {s.op_type for s in profile.ranking if s.cpu_time_us > 0}
        yield from _findings_from_ranking(profile, context)
    yield from _findings_from_warnings(profile, seen)


RULES = (
    Rule(
        "RKN001",
        "cpu-fallback",
        Severity.ERROR,
        "Layers running on the CPU instead of the NPU, with the reason where it is known",
        check_cpu_fallback,
        source=SOURCE,
        basis=(
            "CPU time minus the same bytes at a rate an NPU achieved: the same op type on the "
            "NPU in this log, else in a public yolov8n log (Resize 1.54 GB/s), else this "
            "log's NPU data-movement ops; a normalisation (custom or not) at this log's NPU "
            "exNorm path with its Transposes, else a public exNorm rate (0.93 GB/s, "
            "rknn_model_zoo#366), another custom op at none; never the DDR peak; a warning "
            "without a row: no saving"
        ),
        confidence=(
            "high with an NPU row of the same op in the log; medium with a peer-log or "
            "other-op rate; low without any rate (the whole CPU time, an upper bound)"
        ),
    ),
)
