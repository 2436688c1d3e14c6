"""Two runs side by side: layer alignment, per-layer and per-op-type deltas, like-for-like check.

Layers are aligned in three passes, each over the layers the previous passes left unmatched:

1. by ``FullName`` (repeated names pair up in table order);
2. by signature: (op type, input shapes, output shapes), in table order;
3. by order: the longest common subsequence of op types (``difflib``) over what is left.

What is still unmatched is *removed* (only in BASE) or *added* (only in CURRENT). Deltas are
CURRENT − BASE in microseconds; percentages are relative to BASE. Every list is sorted by the
absolute time change, largest first.

Before comparing, the two profiles are checked for being like for like (platform, runtime and
driver versions, NPU frequency, cores used, frames merged, measured vs estimated); each difference
is reported as a warning, the comparison still runs.
"""

from __future__ import annotations

import difflib
from collections import defaultdict, deque
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from pathlib import Path

from rknnprof.errors import InputError
from rknnprof.model import Layer, Profile, Report, Target


SAME_MODEL_SHARE = 0.5
"""Below this share of layers aligned by FullName or shapes, the runs are called possibly
different models (a like-for-like warning)."""


@dataclass(frozen=True, slots=True)
class LayerDelta:
    """One aligned layer (or one only on one side)."""

    name: str
    """FullName, or ``<OpType>#<id>`` when the log gives none."""
    op_type: str
    status: str
    """``matched``, ``added`` (only in CURRENT) or ``removed`` (only in BASE)."""
    matched_by: str | None
    """``full_name``, ``signature`` or ``order``; ``None`` for added/removed."""
    base_id: int | None
    current_id: int | None
    base_time_us: float | None
    """Layer time in BASE, microseconds."""
    current_time_us: float | None
    """Layer time in CURRENT, microseconds."""
    delta_us: float
    """CURRENT − BASE, microseconds (a missing side counts as 0)."""
    delta_pct: float | None
    """delta_us / BASE time × 100; ``None`` when BASE is missing or 0."""
    base_target: str | None
    current_target: str | None
    base_data_type: str | None
    current_data_type: str | None

    @property
    def target_changed(self) -> bool:
        return self.status == "matched" and self.base_target != self.current_target

    @property
    def moved_to_cpu(self) -> bool:
        """A matched layer that ran off the CPU in BASE and on the CPU in CURRENT."""
        return self.target_changed and self.current_target == Target.CPU.value

    @property
    def data_type_changed(self) -> bool:
        return self.status == "matched" and self.base_data_type != self.current_data_type


@dataclass(frozen=True, slots=True)
class OpTypeDelta:
    """One op type's time in both runs."""

    op_type: str
    base_calls: int
    current_calls: int
    base_time_us: float
    """Microseconds."""
    current_time_us: float
    """Microseconds."""
    delta_us: float
    delta_pct: float | None


@dataclass(frozen=True, slots=True)
class ProfileComparison:
    """One model compared between BASE and CURRENT."""

    base_source: str
    current_source: str
    model: str | None
    base_total_us: float | None
    """Per-frame total of BASE, microseconds."""
    current_total_us: float | None
    delta_us: float | None
    """CURRENT − BASE total, microseconds."""
    delta_pct: float | None
    """delta_us / BASE total × 100."""
    differences: tuple[str, ...]
    """Why the two runs may not be like for like, e.g. ``NPU frequency: 1000 MHz vs 800 MHz``."""
    layers: tuple[LayerDelta, ...]
    """Sorted by |delta_us|, largest first."""
    op_types: tuple[OpTypeDelta, ...]
    """Sorted by |delta_us|, largest first."""

    @property
    def added(self) -> tuple[LayerDelta, ...]:
        return tuple(d for d in self.layers if d.status == "added")

    @property
    def removed(self) -> tuple[LayerDelta, ...]:
        return tuple(d for d in self.layers if d.status == "removed")

    @property
    def target_changes(self) -> tuple[LayerDelta, ...]:
        return tuple(d for d in self.layers if d.target_changed)

    @property
    def data_type_changes(self) -> tuple[LayerDelta, ...]:
        return tuple(d for d in self.layers if d.data_type_changed)


@dataclass(frozen=True, slots=True)
class CompareResult:
    """Everything ``rknnprof compare`` found."""

    base_path: str
    current_path: str
    comparisons: tuple[ProfileComparison, ...]
    warnings: tuple[str, ...] = ()
    """Like-for-like differences and unpaired models, one line each."""

    def slowed_by_more_than(self, pct: float) -> list[ProfileComparison]:
        """Comparisons whose total grew by more than ``pct`` percent."""
        return [c for c in self.comparisons if c.delta_pct is not None and c.delta_pct > pct]


# ---- loading ---------------------------------------------------------------------------------


def load_any(path: str | Path) -> Report:
    """A log (parsed and analysed) or a saved JSON report (read back), decided by content."""
    from rknnprof.parsers.saved import is_saved_report, load_saved_report

    if is_saved_report(path):
        return load_saved_report(path)
    try:
        from rknnprof.api import analyze
    except ImportError:  # pragma: no cover - only before the parsers land
        raise InputError("reading logs is not available in this build", str(path)) from None
    return analyze([str(path)])


# ---- comparing -------------------------------------------------------------------------------


def compare_reports(base: Report, current: Report, base_path: str = "BASE",
                    current_path: str = "CURRENT") -> CompareResult:
    """Pair the models of the two reports and compare each pair."""
    pairs, notes = pair_profiles(base.profiles, current.profiles)
    comparisons = tuple(compare_profiles(b, c) for b, c in pairs)
    warnings = [*notes]
    for comp in comparisons:
        label = f"{comp.model}: " if comp.model and len(comparisons) > 1 else ""
        warnings += [f"{label}not like for like: {d}" for d in comp.differences]
    if not comparisons:
        raise InputError("nothing to compare: no model appears in both inputs", current_path)
    return CompareResult(base_path, current_path, comparisons, tuple(warnings))


def pair_profiles(base: Sequence[Profile], current: Sequence[Profile]
                  ) -> tuple[list[tuple[Profile, Profile]], list[str]]:
    """Pair models by name when every one has a distinct name, else by order."""
    names_b = [p.model_name for p in base]
    names_c = [p.model_name for p in current]
    named = all(names_b) and all(names_c) and len(set(names_b)) == len(names_b) \
        and len(set(names_c)) == len(names_c)
    if len(base) == 1 and len(current) == 1:
        return [(base[0], current[0])], []
    notes: list[str] = []
    if named:
        by_name = {p.model_name: p for p in current}
        pairs = [(b, by_name[b.model_name]) for b in base if b.model_name in by_name]
        notes += [f"model {n} only in BASE" for n in names_b if n not in by_name]
        notes += [f"model {n} only in CURRENT" for n in names_c if n not in set(names_b)]
        return pairs, notes
    pairs = list(zip(base, current))
    if len(base) != len(current):
        notes.append(f"BASE has {len(base)} models, CURRENT {len(current)}: paired the first "
                     f"{len(pairs)} by order")
    return pairs, notes


def compare_profiles(base: Profile, current: Profile) -> ProfileComparison:
    """Compare one model's two runs."""
    b_total, c_total = profile_total(base), profile_total(current)
    delta = c_total - b_total if b_total is not None and c_total is not None else None
    layers = layer_deltas(base.layers, current.layers)
    differences = comparability(base, current)
    most = max(len(base.layers), len(current.layers))
    strong = sum(1 for d in layers if d.matched_by in ("full_name", "signature"))
    if most and strong < most * SAME_MODEL_SHARE:
        differences.append(f"layers: only {strong} of {most} align by FullName or shapes "
                           "(different models?)")
    return ProfileComparison(
        base_source=base.source.path,
        current_source=current.source.path,
        model=current.model_name or base.model_name,
        base_total_us=b_total,
        current_total_us=c_total,
        delta_us=delta,
        delta_pct=_pct(delta, b_total),
        differences=tuple(differences),
        layers=tuple(_by_abs_delta(layers)),
        op_types=tuple(_by_abs_delta(op_type_deltas(base, current))),
    )


def profile_total(profile: Profile) -> float | None:
    """Per-frame total, microseconds: sum of layers, the log's total line, or the ranking."""
    total = profile.total_time_us
    if total is None and (stats := profile.op_stats or profile.ranking):
        total = float(sum(s.total_time_us for s in stats))
    return total


def align(base: Sequence[Layer], current: Sequence[Layer]
          ) -> list[tuple[int | None, int | None, str | None]]:
    """Index pairs (base, current, how); ``None`` on one side for removed/added layers."""
    pairs: list[tuple[int | None, int | None, str | None]] = []
    free_b = list(range(len(base)))
    free_c = list(range(len(current)))

    def by_key(key: Callable[[Layer], Hashable | None], how: str) -> None:
        nonlocal free_b, free_c
        queues: dict[Hashable, deque[int]] = defaultdict(deque)
        for j in free_c:
            if (k := key(current[j])) is not None:
                queues[k].append(j)
        used_b: set[int] = set()
        used_c: set[int] = set()
        for i in free_b:
            k = key(base[i])
            if k is not None and queues.get(k):
                j = queues[k].popleft()
                pairs.append((i, j, how))
                used_b.add(i)
                used_c.add(j)
        free_b = [i for i in free_b if i not in used_b]
        free_c = [j for j in free_c if j not in used_c]

    by_key(lambda la: la.full_name or None, "full_name")
    by_key(lambda la: (la.op_type, la.input_shapes, la.output_shapes)
           if la.input_shapes or la.output_shapes else None, "signature")
    matcher = difflib.SequenceMatcher(
        None, [base[i].op_type for i in free_b], [current[j].op_type for j in free_c],
        autojunk=False)
    used_b, used_c = set(), set()
    for block in matcher.get_matching_blocks():
        for k in range(block.size):
            i, j = free_b[block.a + k], free_c[block.b + k]
            pairs.append((i, j, "order"))
            used_b.add(i)
            used_c.add(j)
    pairs += [(i, None, None) for i in free_b if i not in used_b]
    pairs += [(None, j, None) for j in free_c if j not in used_c]
    return pairs


def layer_deltas(base: Sequence[Layer], current: Sequence[Layer]) -> list[LayerDelta]:
    out = []
    for i, j, how in align(base, current):
        b = base[i] if i is not None else None
        c = current[j] if j is not None else None
        ref = c or b
        assert ref is not None
        b_time = b.time_us if b else None
        c_time = c.time_us if c else None
        delta = (c_time or 0.0) - (b_time or 0.0)
        out.append(LayerDelta(
            name=ref.full_name or f"{ref.op_type}#{ref.id}",
            op_type=ref.op_type,
            status="matched" if b and c else ("added" if c else "removed"),
            matched_by=how,
            base_id=b.id if b else None,
            current_id=c.id if c else None,
            base_time_us=b_time,
            current_time_us=c_time,
            delta_us=delta,
            delta_pct=_pct(delta, b_time) if b and c else None,
            base_target=b.target.value if b else None,
            current_target=c.target.value if c else None,
            base_data_type=b.data_type if b else None,
            current_data_type=c.data_type if c else None,
        ))
    return out


def op_type_times(profile: Profile) -> dict[str, tuple[int, float]]:
    """op type -> (calls, total microseconds), from the layers, else the op stats / ranking."""
    out: dict[str, tuple[int, float]] = {}
    if profile.layers:
        for la in profile.layers:
            calls, time = out.get(la.op_type, (0, 0.0))
            out[la.op_type] = (calls + 1, time + (la.time_us or 0.0))
        return out
    for s in profile.op_stats or profile.ranking:
        out[s.op_type] = (s.calls, s.total_time_us)
    return out


def op_type_deltas(base: Profile, current: Profile) -> list[OpTypeDelta]:
    b, c = op_type_times(base), op_type_times(current)
    out = []
    for op in [*b, *(k for k in c if k not in b)]:
        b_calls, b_time = b.get(op, (0, 0.0))
        c_calls, c_time = c.get(op, (0, 0.0))
        out.append(OpTypeDelta(op, b_calls, c_calls, b_time, c_time, c_time - b_time,
                               _pct(c_time - b_time, b_time) if op in b else None))
    return out


def cores_used(profile: Profile) -> str | None:
    """``core0``, ``core0+1+2``…: the NPU cores with a non-zero workload in any layer."""
    cores: set[int] = set()
    seen = False
    for la in profile.layers:
        if la.workload_pct is not None:
            seen = True
            cores.update(k for k, share in enumerate(la.workload_pct) if share > 0)
    if not seen or not cores:
        return None
    return "core" + "+".join(str(k) for k in sorted(cores))


def _npu_mhz(profile: Profile) -> str | None:
    freqs = profile.frequencies.npu_hz if profile.frequencies else ()
    known = [f for f in freqs if f]
    return "/".join(f"{f / 1e6:g} MHz" for f in known) if known else None


def comparability(base: Profile, current: Profile) -> list[str]:
    """What differs between the runs' conditions, one ``what: base vs current`` line each.
    A value unknown on either side is not called a difference."""
    checks: list[tuple[str, object, object]] = [
        ("measured", "measured" if base.measured else "estimated",
         "measured" if current.measured else "estimated"),
        ("platform", base.platform, current.platform),
        ("runtime version", base.versions.runtime, current.versions.runtime),
        ("driver version", base.versions.driver, current.versions.driver),
        ("NPU frequency", _npu_mhz(base), _npu_mhz(current)),
        ("NPU cores used", cores_used(base), cores_used(current)),
        ("frames merged", base.frames, current.frames),
    ]
    return [f"{what}: {b} vs {c}" for what, b, c in checks
            if b is not None and c is not None and b != c]


def _pct(delta: float | None, base: float | None) -> float | None:
    if delta is None or not base:
        return None
    return delta / base * 100.0


def _by_abs_delta(items: list) -> list:
    return sorted(items, key=lambda d: -abs(d.delta_us))
