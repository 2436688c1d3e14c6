"""RKN051 measurement: what the log's verdict (``Profile.validity``) says about its times.

The verdict is computed in analysis; this rule only words it. Its findings lead the list
(``rules.LEADING``): whether the numbers are a measurement comes before what they advise.
"""

from __future__ import annotations

from collections.abc import Iterator

from rknnprof.model import ConditionKind, Finding, Profile, Severity
from rknnprof.rules.base import Rule, RuleContext
from rknnprof.rules.sources import cite, sources

CODE = "RKN051"
NAME = "measurement"
FIX_CLOCKS = (
    "fix the clocks at their maximum (rknn_model_zoo's scaling_frequency.sh: NPU, CPU and DDR)"
)
REMEASURE = (
    "re-measure without the debugger and the tensor dumps, "
    + FIX_CLOCKS
    + ", and time the whole model with rknn_benchmark (RKNN_LOG_LEVEL unset, several runs "
    "averaged); then take RKNN_LOG_LEVEL=4 once more for the per-layer shares"
)
SOURCE = sources(cite("guide", "§8.1.1, §8.1.2"), cite("zoo-frequency"), cite("benchmark"))


def _finding(
    severity: Severity, message: str, fix: str, layer_ids: tuple[int, ...] = ()
) -> Finding:
    return Finding(
        code=CODE,
        name=NAME,
        severity=severity,
        message=message,
        fix=fix,
        layer_ids=layer_ids,
        est_saving_us=0.0,
        estimate="0: what the log can support",
        basis="the verdict on the measurement: no saving",
        source=SOURCE,
    )


def check_measurement(profile: Profile, context: RuleContext) -> Iterator[Finding]:
    """
    What it finds:
        A run that is not a measurement of the model (debugger, trace or tensor-dump lines
        inside it), layers that were stalled rather than slow (their time tens of times what
        their cycles at the clock explain), and clocks the log printed below the SoC's maximum
        (``Get DDR frequency: 528MHz`` on an RK3588).

    Why it costs time:
        A breakpoint on every ioctl, a mem-sync trace or a dump of every tensor holds the NPU
        up between layers: the times measure the debugging, not the model, and a saving priced
        from them is fiction. A stalled layer's time is a wait. A DDR or NPU clock below its
        maximum stretches every memory- or compute-bound layer.

    Example:
        the run is not a measurement: 412 debugger / trace / tensor-dump line(s) inside the run
        (first: line 18); nothing below is priced

    How to fix:
        Re-measure without the debugger and the dumps, clocks fixed (rknn_model_zoo's
        scaling_frequency.sh), with rknn_benchmark for the whole-model time.

    Estimate:
        None (0 us): nothing is priced from a run that is not a measurement, or from a stalled
        layer.
    """
    validity = profile.validity
    if validity is None:
        return
    spoiled = [c for c in validity.conditions if c.spoils_timing]
    if spoiled:
        yield _finding(
            Severity.ERROR,
            "the run is not a measurement: "
            + "; ".join(c.message for c in spoiled)
            + "; nothing is priced from it",
            REMEASURE,
        )
    stalled = [c for c in validity.conditions if c.kind is ConditionKind.STALLED]
    if stalled and not spoiled:
        yield _finding(
            Severity.WARNING,
            stalled[0].message,
            "re-measure the same model (" + FIX_CLOCKS + ", several inferences): a layer that "
            "is fast again was stalled by something else on the board",
            layer_ids=validity.stalled_layer_ids,
        )
    for clock in validity.conditions:
        # an NPU clock from the eval_perf frequency list is RKN050's (it prices the shortfall)
        from_list = clock.line is None and clock.message.startswith("NPU")
        if clock.kind is ConditionKind.CLOCK and clock.below_maximum and not from_list:
            yield _finding(
                Severity.WARNING,
                clock.message + (f" (line {clock.line})" if clock.line else ""),
                FIX_CLOCKS + ", then re-measure",
            )


RULES = (
    Rule(
        CODE,
        NAME,
        Severity.ERROR,
        "A run that is not a measurement, stalled layers, clocks below the maximum",
        check_measurement,
        source=SOURCE,
        basis="none: the verdict on the measurement (0 us)",
        confidence="low (0 us claimed)",
    ),
)
