"""What one model's frames make the report say, in words: a table cut before its total line,
frames that disagree with their total lines, the limits the counters and the warnings reached
(:class:`~rknnprof.assemble.inferences.ModelFrames` counts; this module words)."""

from __future__ import annotations

from rknnprof.assemble.inferences import (
    MAX_DISTINCT_TIMES,
    MAX_FRAME_NOTES,
    MAX_FRAME_TIMES,
    MAX_SKIPPED,
    ModelFrames,
)
from rknnprof.model import tidy_number

MAX_WARNINGS_PER_MODEL = 20
"""Warnings about one model's table shown (the rest counted in one more)."""


def frame_notes(
    model: ModelFrames, max_warnings: int = MAX_WARNINGS_PER_MODEL
) -> list[tuple[int, str]]:
    """(line, message) warnings about these frames, once they are all in: a cut table,
    frames that disagree with their total lines, the limits reached (``max_warnings``: the
    model's warnings shown, the rest counted)."""
    model.settle()
    notes = []
    if model.untotalled_line is not None and model.total_lines:
        notes.append(
            (
                model.untotalled_line,
                "a frame has no total line after it: its rows are as many as the other "
                "frames', which print theirs (that line alone is lost)",
            )
        )
    elif model.untotalled_line is not None and model.ranking_totalled:
        notes.append(
            (
                model.untotalled_line,
                "the table has no total line after it: its rows are held to the ranking's "
                "Total row below it instead",
            )
        )
    elif model.untotalled_line is not None:
        notes.append(
            (
                model.untotalled_line,
                (
                    "the table has no total line after it: the log may be cut, so its times "
                    "may miss layers; the profile is marked incomplete"
                ),
            )
        )
    if model.ranking_short is not None:
        line, why = model.ranking_short
        notes.append(
            (
                line,
                f"the ranking table stops here with no Total row, {why}: the log may be "
                "cut, op types may be missing"
                + ("" if model.template else "; the profile is marked incomplete"),
            )
        )
    if model.untold_line is not None:
        notes.append(
            (
                model.untold_line,
                "an eval_perf CSV side file has no total line: whether rows are missing "
                "cannot be told, so the profile is marked incomplete (the table eval_perf "
                "prints beside it ends with its total line: use that)",
            )
        )
    outcome = (
        f": set aside, the profile merges the other {model.frames - model.set_aside:,} frames"
        if model.set_aside
        else "; the profile is marked incomplete"
    )
    if model.frames > 1:  # a single frame's sum is checked against its total in analysis
        notes += [
            (
                line,
                f"this frame's rows sum to {tidy_number(rows_sum):,} us but its "
                f"total line says {tidy_number(reported):,} us (a damaged or lost "
                f"row){outcome}",
            )
            for line, rows_sum, reported in model.mismatched[:MAX_FRAME_NOTES]
        ]
        if model.mismatched_total > MAX_FRAME_NOTES:
            notes.append(
                (
                    model.mismatched[MAX_FRAME_NOTES][0],
                    (
                        f"{model.mismatched_total - MAX_FRAME_NOTES} more frame(s) disagree "
                        "with "
                        "their total line"
                    ),
                )
            )
    if model.repeats.first_repeat is not None:
        line, original = model.repeats.first_repeat
        notes.append(
            (
                line,
                f"this frame repeats the frame at line {original:,} to the microsecond in every "
                f"row and its total line"
                + (f" ({model.repeated:,} frames do)" if model.repeated > 1 else "")
                + ": the same inference printed twice, or the capture holds its output twice "
                "(a file appended to itself, overlapping adb logcat -d dumps); each counted "
                "once",
            )
        )
    if model.time_step:
        notes.append(
            (
                model.first_line,
                (
                    f"more than {MAX_DISTINCT_TIMES:,} distinct times in this table's frames: "
                    "they "
                    f"are counted to the nearest {model.time_step:,} us, so its medians, "
                    "min/max "
                    "and p50/p90 are rounded to that"
                ),
            )
        )
    timed = model.frame_time_counts.total()
    if timed > MAX_FRAME_TIMES:
        notes.append(
            (
                model.first_line,
                (
                    f"{timed:,} frames: frame_times_us keeps the first {MAX_FRAME_TIMES:,} "
                    "frame "
                    "times (frames, p50 and p90 count them all)"
                ),
            )
        )
    if model.warnings > max_warnings:
        notes.append(
            (
                model.first_line,
                f"{model.warnings - max_warnings} more warning(s) about the table starting here "
                f"not shown (first {max_warnings} above)",
            )
        )
    dropped = model.skipped_total - len(model.skipped)
    if dropped > 0:
        notes.append(
            (
                model.first_line,
                f"{dropped} more skipped row(s) not kept in skipped_rows (first {MAX_SKIPPED} "
                "kept)",
            )
        )
    return notes
