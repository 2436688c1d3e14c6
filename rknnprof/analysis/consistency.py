"""Checks of a profile against itself; each returns warning messages as (line, text).

* the sum of the layers' times against the log's own total line;
* ``Total`` cycles against max(DDR, NPU) (true on every row of every known runtime);
* layer IDs that skip or repeat (toolkit2 tables number rows 1, 2, 3 …);
* the op-type aggregation against the log's ranking table.

Tables with elided rows (``...``) skip the sum and ranking checks and the check for skipped IDs:
a gap is expected there (an ID that repeats or goes back is still reported).
"""

from __future__ import annotations

from rknnprof.analysis.optypes import ranking_cut_short
from rknnprof.model import ROW_SUM_TOLERANCE_US, OpTypeStat, Profile

MERGED_TOLERANCE = 0.01
"""Merged frames: the sum of per-layer medians is not the median of the sums; allow 1 %."""

MAX_ID_NOTES = 5
"""ID problems named one by one; the rest are counted in one more note."""

Note = tuple[int | None, str]


def _fmt(x: float) -> str:
    """Microseconds with a thousands separator, keeping a fraction the log printed: these notes
    set a sum against the log's total, and a difference of a few us must show (the unit rule's
    exception, see README "Units")."""
    return f"{x:,.0f}" if x == int(x) or abs(x) >= 1e6 else f"{x:,.1f}"


def total_disagreement(profile: Profile) -> tuple[float, float] | None:
    """(sum of the rows, the log's total line) when they disagree beyond rounding (1 % for
    merged frames); for an elided table (whose rows are not all there), only when the rows
    shown sum to more than the total; None when they agree or either is missing."""
    times = [la.time_us for la in profile.layers if la.time_us is not None]
    reported = profile.reported_total_time_us
    if not times or reported is None:
        return None
    total = sum(times)
    tolerance = ROW_SUM_TOLERANCE_US if profile.frames == 1 else max(MERGED_TOLERANCE * reported, 1)
    if profile.elided_rows:  # (rows left out can only make the sum smaller than the total)
        return (total, reported) if total > reported + tolerance else None
    return None if abs(total - reported) <= tolerance else (total, reported)


GRID_SLACK_US = 5.0
"""Per layer, how far the sums of merged layers' fastest and slowest times may be from a frame
time beyond the 1 % (their counters' grid, at most 10 us, rounds each by half of it)."""


def merged_disagreement(profile: Profile) -> str | None:
    """How a profile of merged frames contradicts itself beyond rounding (1 %), or None: its
    frame-time percentiles against the frame times it lists (when it lists every frame), or a
    layer's median outside the range of its own times. A profile this package builds never
    does; a saved report edited by hand does (the gate judged an edited p50 of 0.10 ms over
    18 frames of 7.69 ms)."""
    from rknnprof.analysis.stats import percentile

    times = profile.frame_times_us
    if profile.frames < 1:
        return f"frames {profile.frames}"
    if times and len(times) == profile.frames:
        for q, said in ((50, profile.frame_time_p50_us), (90, profile.frame_time_p90_us)):
            listed = percentile(times, q)
            if said is not None and listed is not None and _apart(said, listed):
                return (
                    f"its frame_time_p{q}_us {said:,.0f} us against {listed:,.0f} us from "
                    f"its {len(times):,} frame times"
                )
    timed = [la for la in profile.layers if la.time_us is not None]
    for la in timed:
        lo, hi, t = la.time_min_us, la.time_max_us, la.time_us
        if t is None or lo is None or hi is None:
            continue
        if (t < lo and _apart(t, lo)) or (t > hi and _apart(t, hi)):
            return f"layer #{la.id}'s time {t:,.0f} us outside its frames' {lo:,.0f}-{hi:,.0f} us"
    ranges = [(la.time_min_us, la.time_max_us) for la in timed]
    if times and timed and all(lo is not None and hi is not None for lo, hi in ranges):
        # (a frame's time is its rows' sum: between the sums of their fastest and slowest)
        fastest = sum(lo for lo, _ in ranges)  # type: ignore[misc]  # checked: not None
        slowest = sum(hi for _, hi in ranges)  # type: ignore[misc]  # checked: not None
        # (5 us a layer beside the 1 %: a capture of very many distinct times counts them on a
        # grid, ``ModelFrames.time_step``, while its frame times stay as printed)
        slack = GRID_SLACK_US * len(timed)
        if max(times) > slowest + slack and _apart(max(times), slowest + slack):
            return (
                f"a frame of {max(times):,.0f} us beside layers whose slowest times sum to "
                f"{slowest:,.0f} us"
            )
        if min(times) < fastest - slack and _apart(min(times), fastest - slack):
            return (
                f"a frame of {min(times):,.0f} us beside layers whose fastest times sum to "
                f"{fastest:,.0f} us"
            )
    return None


def _apart(a: float, b: float) -> bool:
    return abs(a - b) > max(MERGED_TOLERANCE * max(abs(a), abs(b)), 1.0)


def check_total(profile: Profile) -> list[Note]:
    times = [la.time_us for la in profile.layers if la.time_us is not None]
    reported = profile.reported_total_time_us
    if not times or reported is None:
        return []
    line = profile.reported_total_line
    if profile.elided_rows:
        return [
            (
                line,
                f"the table has elided rows: the {len(times)} printed layers sum to "
                f"{_fmt(sum(times))} us of the reported {_fmt(reported)} us",
            )
        ]
    disagreement = total_disagreement(profile)
    if disagreement is None:
        return []
    total, reported = disagreement
    if profile.frames > 1:  # (each frame was held to its own total line when it was read)
        return [
            (
                line,
                f"the per-layer medians over {profile.frames} frames sum to {_fmt(total)} us, "
                f"the frames' total lines to {_fmt(reported)} us (median): frames differ in "
                "which layers are slow; the frame's time is the total lines'",
            )
        ]
    return [
        (line, f"sum of layer times is {_fmt(total)} us but the log's total line says "
         f"{_fmt(reported)} us")
    ]  # fmt: skip


def check_cycles(profile: Profile) -> list[Note]:
    bad = [
        la
        for la in profile.layers
        if None not in (la.ddr_cycles, la.npu_cycles, la.total_cycles)
        # None is excluded on the line above
        and la.total_cycles != max(la.ddr_cycles, la.npu_cycles)  # type: ignore[type-var]
    ]
    if not bad:
        return []
    first = bad[0]
    return [
        (
            first.line,
            f"{len(bad)} row(s) where Total cycles != max(DDR, NPU), first: ID "
            f"{first.id} ({first.ddr_cycles}/{first.npu_cycles}/{first.total_cycles})",
        )
    ]


IdProblem = tuple[str, int | None, str]
"""(kind, line, message): kind ``repeat``, ``back`` or ``skip``."""


def id_problems(profile: Profile) -> list[IdProblem]:
    """Layer IDs that repeat (always wrong), go back, or skip (wrong unless rows were elided
    with ``...``); toolkit2 tables and eval_perf's CSV side file only (they number rows 1, 2,
    3 ...)."""
    if not profile.format.startswith(("toolkit2-perf-table", "toolkit2-eval_perf-csv")):
        return []
    problems: list[IdProblem] = []
    seen: set[int] = set()
    previous = None
    for layer in profile.layers:
        if layer.id in seen:
            problems.append(("repeat", layer.line, f"layer ID {layer.id} repeats"))
        elif previous is not None and layer.id < previous:
            problems.append(
                ("back", layer.line, f"layer IDs go back from {previous} to {layer.id}")
            )
        elif previous is not None and layer.id != previous + 1 and not profile.elided_rows:
            problems.append(("skip", layer.line, f"layer IDs skip from {previous} to {layer.id}"))
        seen.add(layer.id)
        previous = layer.id
    return problems


def check_ids(profile: Profile) -> list[Note]:
    """IDs that repeat (always wrong) or skip (wrong unless rows were elided with ``...``)."""
    notes: list[Note] = [(line, message) for _, line, message in id_problems(profile)]
    if len(notes) > MAX_ID_NOTES:
        return [
            *notes[:MAX_ID_NOTES],
            (
                notes[MAX_ID_NOTES][0],
                f"{len(notes) - MAX_ID_NOTES} more layer ID(s) that skip, repeat or go back",
            ),
        ]
    return notes


def ranking_cut(profile: Profile) -> bool:
    """The ranking below the table is cut: its TimeRatio adds up to well under 100 %, no
    Total row nor closing rule ends it (``Profile.ranking_cut``), or the log ends inside one of
    its rows, after the table's total line (the op types it lacks are then the cut's; the rows
    shown may add up to 99 %)."""
    if profile.ranking_cut or ranking_cut_short(profile.ranking):
        return True
    last, total_line = profile.source.last_line, profile.reported_total_line
    skipped = profile.skipped_rows
    return (
        bool(skipped and profile.layers)
        and last is not None
        and total_line is not None
        and skipped[-1].line >= last
        and skipped[-1].line > total_line
    )


def elided_ranking_gap(profile: Profile) -> str | None:
    """Where the ranking below an elided table cannot be that table's (it covers the whole
    frame, so every op type of the rows shown must be in it with at least their time), or None:
    ``Resize: the rows shown take 1,963 us, the ranking 1,200 us``. A cut ranking lacks op types
    (its smallest): only the time of the ones it ranks is held."""
    if not profile.elided_rows or not profile.ranking or not profile.layers:
        return None
    shown: dict[str, float] = {}
    for layer in profile.layers:
        shown[layer.op_type] = shown.get(layer.op_type, 0.0) + (layer.time_us or 0.0)
    ranked = {s.op_type: s.total_time_us for s in profile.ranking}
    cut = ranking_cut(profile)
    for op, time_us in shown.items():
        if op not in ranked and cut:
            continue
        if op not in ranked:
            return f"{op} has rows shown but is not ranked"
        # (one frame: its own ranking; merged frames' medians are held to the first frame's
        # ranking only by op type)
        if profile.frames == 1 and time_us > ranked[op] + 0.5:
            return (
                f"{op}: the rows shown take {_fmt(time_us)} us, the ranking "
                f"{_fmt(ranked.get(op, 0.0))} us"
            )
    return None


def check_ranking(profile: Profile, op_stats: tuple[OpTypeStat, ...]) -> list[Note]:
    """The aggregation from layers against the printed ranking (single complete frames only).
    A ranking cut (:func:`ranking_cut`) is held to the op types it ranks: the ones it lacks
    are the cut's, not damage."""
    if not profile.ranking or not profile.layers or profile.elided_rows or profile.frames != 1:
        return []
    if any(la.time_us is None for la in profile.layers):
        return []
    ours = {s.op_type: s for s in op_stats}
    diffs = []
    for printed in profile.ranking:
        mine = ours.pop(printed.op_type, None)
        if mine is None:
            diffs.append(f"{printed.op_type} is ranked but has no layers")
            continue
        for name in ("calls", "cpu_time_us", "npu_time_us", "total_time_us"):
            a, b = getattr(mine, name), getattr(printed, name)
            if abs(a - b) > 0.5:
                diffs.append(f"{printed.op_type} {name} {_fmt(a)} from layers vs {_fmt(b)} ranked")
    if not ranking_cut(profile):  # (a cut ranking lacks its smallest op types)
        diffs += [f"{op} has layers but is not ranked" for op in ours]
    if not diffs:
        return []
    more = f" (and {len(diffs) - 3} more)" if len(diffs) > 3 else ""
    message = "op-type totals disagree with the ranking table: " + "; ".join(diffs[:3]) + more
    return [(profile.ranking_line or profile.source.last_line, message)]
