"""MAC counts, MAC utilisation and alignment waste per convolution layer.

Definitions (per frame, per layer):

* ``macs`` -- true multiply-accumulates from the printed shapes:
  ``N * OC * OH * OW * (weight in-channels per group * KH * KW)``. For a depthwise conv that is
  ``N * C * OH * OW * KH * KW``.
* ``ideal_cycles = macs / R`` with ``R`` = MACs per cycle per core for the data type
  (``Platform.macs_per_cycle_per_core``; RK3588: 1024 INT8, 512 FP16, the TRM's figures, see
  rk3588.yaml).
* ``utilisation_pct = ideal_cycles / (time_us * f_MHz * cores used) * 100`` -- the usage of the
  cores the layer ran on; under a single-core mask what the runtime prints as MacUsage(%)
  under a wider mask the printed figure times the mask's cores (below).
  ``f`` is the NPU clock of :mod:`rknnprof.analysis.clock`: the log's frequency line, else the
  fixed-frequency script's clock, else the datasheet maximum.
* ``waste_factor = npu_cycles / ideal_cycles`` -- how many NPU cycles the layer spends per useful
  cycle (channel/width padding: an "alignment waste factor").
* ``aligned_cycles`` -- a model of NPU Cycles from the channel-alignment table (user guide
  V2.3.0 §8.5.1):
  ``OH*OW*N * max(KH*KW*pad(IC, conv_in), 128) * pad(OC, conv_out) / R`` for a conv and
  ``OH*OW*N * KH*KW * pad(C, depthwise)/depthwise`` for a depthwise conv. [DERIVED] from the
  corpus: it equals the printed NPU Cycles of RK3588 INT8 rows exactly (corpus 01 rows 2-4, 12,
  21; 07 row 2; 36 row 106, depthwise). The floor of 128 on the reduction depth (1x1 convs with
  few input channels) is observed on RK3588 INT8 only, and applied only there.

Worked example (corpus 01, row 2, RK3588, ``(1,3,1920,1920),(16,3,3,3) -> (1,16,960,960)``,
UINT8, 16130 us, NPU cycles 8,294,400, printed MacUsage 2.41 %):
``macs = 16*960*960*3*3*3 = 398,131,200``; ``ideal = 398,131,200/1024 = 388,800`` cycles;
``388,800 / (16130 us * 1000 MHz) = 2.41 %`` as printed; ``waste = 8,294,400/388,800 = 21.3``
(3 input channels padded to 32, 16 output channels to 32); ``aligned_cycles = 921,600 * 9 * 32 *
32 / 1024 = 8,294,400``, the printed NPU cycles.

Under a multi-core mask the runtime prints MacUsage divided by the mask's cores, in every slot
(:func:`core_mac_usage_pct`); the mask is read off the WorkLoad column (:func:`mask_cores`); the
1.5 layout's ``Up:`` figure is :func:`improve_theoretical_pct`.

Shapes cannot always tell the groups: an RKNN log prints a depthwise weight as ``(1, C, KH, KW)``
(corpus 36 row 106: its MacUsage 1.45 % only fits depthwise MACs) and an ONNX-style one as
``(C, 1, KH, KW)``. Any other weight whose first dim is not the output channel count is reported
as ``kind = "unknown"`` with a note, and no MACs are claimed.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from rknnprof.model import Target
from rknnprof.model.record import Record, record, replace
from rknnprof.platforms import dtype_key

if TYPE_CHECKING:
    from rknnprof.model import Layer, Profile
    from rknnprof.platforms import Platform

MIN_REDUCTION_DEPTH_INT8 = 128
"""[DERIVED, corpus 01/07/36] RK3588 INT8 1x1 convs never take fewer than 128*pad(OC)/1024
cycles per output pixel."""


@record
class ConvGeometry(Record):
    """What the shapes say about a convolution layer."""

    kind: str
    """``conv``, ``grouped``, ``depthwise`` or ``unknown``."""
    batch: int
    in_c: int
    out_c: int
    out_h: int
    out_w: int
    kh: int
    kw: int
    in_h: int | None = None
    in_w: int | None = None
    groups: int | None = None
    """Groups when known (1 for ``conv``, ``in_c`` for ``depthwise``)."""
    note: str = ""
    """Why ``kind`` is ``unknown``, or other caveats."""

    @property
    def macs(self) -> int | None:
        """True multiply-accumulates, or ``None`` when the groups cannot be told."""
        pixels = self.batch * self.out_h * self.out_w
        if self.kind == "depthwise":
            return pixels * self.out_c * self.kh * self.kw
        if self.kind in ("conv", "grouped") and self.groups:
            return pixels * self.out_c * (self.in_c // self.groups) * self.kh * self.kw
        return None

    @property
    def weight_elements_per_kernel(self) -> int | None:
        """KH*KW*KC (per output channel), in elements; multiply by the type's bytes for the user
        guide's 6 KB rule."""
        if self.kind == "depthwise":
            return self.kh * self.kw
        if self.groups:
            return self.kh * self.kw * (self.in_c // self.groups)
        return None

    @property
    def stride(self) -> float | None:
        """Input height / output height (an estimate of the stride; ``None`` without input size)."""
        if self.in_h and self.out_h:
            return self.in_h / self.out_h
        return None


def is_conv(layer: Layer) -> bool:
    """A convolution layer (``Conv``, ``ConvExSwish``, ``ConvAdd``… but not ``ConvTranspose``)."""
    op = layer.op_type
    return op.startswith("Conv") and not op.startswith("ConvTranspose")


def conv_geometry(layer: Layer) -> ConvGeometry | None:
    """The geometry of a conv layer from its shapes; ``None`` when it is not a conv or the shapes
    are missing / not 4-D."""
    if not is_conv(layer) or not layer.input_shapes or not layer.output_shapes:
        return None
    if len(layer.input_shapes) < 2:
        return None
    data, weight, out = layer.input_shapes[0], layer.input_shapes[1], layer.output_shapes[0]
    if len(weight) != 4 or len(out) != 4:
        return None
    batch, out_c, out_h, out_w = out
    in_c = data[1] if len(data) == 4 else None
    in_h = data[2] if len(data) == 4 else None
    in_w = data[3] if len(data) == 4 else None
    w0, w1, kh, kw = weight
    unknown = ConvGeometry(
        kind="unknown",
        batch=batch,
        in_c=w1,
        out_c=out_c,
        out_h=out_h,
        out_w=out_w,
        kh=kh,
        kw=kw,
        in_h=in_h,
        in_w=in_w,
    )
    if in_c is None:
        return replace(unknown, note="input shape is not 4-D")
    if w0 == out_c:
        if w1 == in_c:
            return replace(unknown, kind="conv", in_c=in_c, groups=1)
        if w1 == 1 and in_c == out_c and out_c > 1:
            return replace(unknown, kind="depthwise", in_c=in_c, groups=in_c)
        if w1 and in_c % w1 == 0:
            return replace(unknown, kind="grouped", in_c=in_c, groups=in_c // w1)
    if w0 == 1 and w1 == out_c == in_c and out_c > 1:
        return replace(
            unknown,
            kind="depthwise",
            in_c=in_c,
            groups=in_c,
            note="RKNN prints depthwise weights as (1, C, KH, KW)",
        )
    return replace(
        unknown,
        in_c=in_c,
        note=f"weight {tuple(weight)} does not match {out_c} output channels: groups unknown",
    )


def conv_macs(layer: Layer) -> int | None:
    """True MACs of a conv layer, or ``None`` when the shapes cannot tell."""
    geometry = conv_geometry(layer)
    return geometry.macs if geometry else None


def _pad(value: int, to: int) -> int:
    return math.ceil(value / to) * to


def aligned_cycles(geometry: ConvGeometry, layer: Layer, platform: Platform) -> int | None:
    """NPU cycles predicted from the channel-alignment table (module doc); ``None`` if unknown."""
    r = platform.macs_per_cycle(layer.data_type)
    align = platform.alignment(layer.data_type)
    if not r or align is None:
        return None
    pixels = geometry.batch * geometry.out_h * geometry.out_w
    if geometry.kind == "depthwise":
        channels = _pad(geometry.out_c, align.depthwise)
        return pixels * geometry.kh * geometry.kw * channels // align.depthwise
    if geometry.kind != "conv":
        return None
    depth = geometry.kh * geometry.kw * _pad(geometry.in_c, align.conv_in)
    if dtype_key(layer.data_type) == "int8" and platform.family == "rk3588":
        depth = max(depth, MIN_REDUCTION_DEPTH_INT8)
    return math.ceil(pixels * depth * _pad(geometry.out_c, align.conv_out) / r)


@record
class MacEstimate(Record):
    """MAC utilisation of one conv layer. Cycle counts are per core at the NPU clock."""

    layer_id: int
    geometry: ConvGeometry
    macs: int | None
    ideal_cycles: float | None
    """``macs / R``; ``None`` when MACs or R are unknown."""
    npu_cycles: int | None
    """As printed (``None`` / 0 when the log has none)."""
    waste_factor: float | None
    """``npu_cycles / ideal_cycles``; ``None`` when either is unknown or 0."""
    utilisation_pct: float | None
    """``ideal_cycles / (time_us * f_MHz) * 100``; ``None`` without time or clock."""
    reported_pct: float | None
    """The log's MacUsage(%) as printed (first core slot), for comparison."""
    aligned_cycles: int | None
    """NPU cycles predicted from the alignment table; ``None`` when unknown."""
    core_usage_pct: float | None = None
    """MAC utilisation of the core(s) the layer ran on, percent (0..100 of their combined peak):
    the printed MacUsage x mask cores / cores used (:func:`core_mac_usage_pct`); ``None`` when
    the log prints none. This, not ``reported_pct``, is the figure to judge a layer by."""
    note: str = ""


def npu_clock_mhz(profile: Profile | None, platform: Platform | None) -> float | None:
    """The NPU clock to convert cycles to time, MHz: the profile's ``npu_clock`` (set once by
    analysis, :mod:`rknnprof.analysis.clock`), else computed the same way; ``None`` when
    neither the log nor the platform gives one."""
    if profile is not None and profile.npu_clock is not None:
        return profile.npu_clock.mhz
    if profile is None:
        clock = None
        if platform is not None:
            clock = platform.fixed_freq_mhz or platform.npu_max_freq_mhz
        return float(clock) if clock else None
    from rknnprof.analysis.clock import npu_clock

    found = npu_clock(profile, platform)
    return found.mhz if found else None


def mask_cores(profile: Profile) -> int:
    """Cores in the run's core mask as the WorkLoad column shows them: the most slots above 0 of
    any NPU layer (corpus 03 row 8 ``33.3%/33.3%/33.3%`` -> 3; 01, all ``100.0%/0.0%/0.0%`` -> 1).
    1 without a WorkLoad column. A lower bound: a mask no layer splits over reads as 1."""
    spread = (used_cores(layer) for layer in profile.layers if layer.target is Target.NPU)
    return max(spread, default=1)


def used_cores(layer: Layer) -> int:
    """NPU cores the layer's work went to: WorkLoad slots above 0, at least 1 (05 prints
    ``0.0%/0.0%/0.0%`` on an NPU row)."""
    return max(1, sum(1 for share in layer.workload_pct or () if share > 0))


def core_mac_usage_pct(layer: Layer, mask: int) -> float | None:
    """MAC utilisation of the core(s) ``layer`` ran on, percent: the printed MacUsage (which the
    runtime divides by the ``mask`` cores, in every core slot, also for a layer on one core) x
    ``mask`` / the cores it used (a mask holds at least the cores the layer used). ``None`` when
    the log prints no MacUsage; ``Layer.mac_usage_pct`` stays as printed.

    Corpus 03 row 7 (three-core mask, ConvExSwish ``(1,16,480,480),(16,16,3,3)``, 3973 us,
    WorkLoad 100/0/0) prints ``4.35/4.35/4.35``; its MACs, ``16*480*480*16*9 = 530,841,600``,
    give ``530,841,600 / 1024 / (3973 us * 1000 MHz) = 13.05 %`` = 3 x 4.35, and the same conv
    of corpus 01 (single-core mask, 3921 us) prints 13.22. No corpus row shows a split layer
    with a MacUsage value (03's split Add/Concat print a backslash, 38 has no MacUsage column),
    so that case follows the rule without a check."""
    if layer.mac_usage_pct is None:
        return None
    used = used_cores(layer)
    return layer.mac_usage_pct * max(mask, used) / used


def improve_theoretical_pct(layer: Layer) -> float | None:
    """The 1.5 layout's ``Up:`` figure (``WorkLoad(0/1/2)-ImproveTherical``), percent: the share
    of the layer's one-core time its multi-core split saves in theory (UG230 §5.3.2: the
    "theoretical performance improvement"); a bound, not a measurement. In every row seen it is
    100 minus the largest WorkLoad slot (38 row 6: ``48.1%/51.9%/0.0% - Up:48.1%``; one core:
    ``Up:0.0%``). ``None`` where the log has no such column or prints no number."""
    for header, value in layer.extra:
        if header == "ImproveTherical":
            try:
                return float(value.strip().removeprefix("Up:").rstrip("%"))
            except ValueError:
                return None
    return None


def mac_estimate(
    layer: Layer, platform: Platform | None, freq_mhz: float | None = None, mask: int = 1
) -> MacEstimate | None:
    """The MAC figures of one layer, or ``None`` when it is not a conv with usable shapes.
    ``mask`` is the run's core-mask size (:func:`mask_cores`), for ``core_usage_pct``."""
    geometry = conv_geometry(layer)
    if geometry is None:
        return None
    macs = geometry.macs
    r = platform.macs_per_cycle(layer.data_type) if platform else None
    ideal = macs / r if macs is not None and r else None
    npu = layer.npu_cycles or None
    waste = npu / ideal if npu and ideal else None
    freq = freq_mhz if freq_mhz is not None else npu_clock_mhz(None, platform)
    util = None
    if ideal is not None and freq and layer.time_us:
        util = ideal / (layer.time_us * freq * used_cores(layer)) * 100.0
    note = geometry.note
    if macs is not None and not r:
        note = (note + "; " if note else "") + (
            f"MACs/cycle for {layer.data_type} on {platform.name} unknown"
            if platform
            else "platform unknown: MACs/cycle unknown"
        )
    aligned = aligned_cycles(geometry, layer, platform) if platform else None
    return MacEstimate(
        layer_id=layer.id,
        geometry=geometry,
        macs=macs,
        ideal_cycles=ideal,
        npu_cycles=npu,
        waste_factor=waste,
        utilisation_pct=util,
        reported_pct=layer.mac_usage_pct,
        core_usage_pct=core_mac_usage_pct(layer, mask),
        aligned_cycles=aligned,
        note=note,
    )


def mac_table(profile: Profile, platform: Platform | None) -> list[MacEstimate]:
    """:func:`mac_estimate` for every conv layer of ``profile``, in table order."""
    freq, mask = npu_clock_mhz(profile, platform), mask_cores(profile)
    rows = (mac_estimate(layer, platform, freq, mask) for layer in profile.layers)
    return [row for row in rows if row is not None]
