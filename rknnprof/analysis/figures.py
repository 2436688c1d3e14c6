"""Figures derived from a profile, computed once, here; analysis stores them on the profile.

* the frame time every share and "% of the frame" is a fraction of (``Profile.frame_total_us``,
  :func:`compute_frame_total_us`). Rules, compare and reporters read it through
  :func:`frame_total_us`, which computes it the same way only for a profile that did not go
  through analysis (one built by hand). The table's own total, ``Profile.total_time_us`` (the
  layers' sum, else the log's total, else the ranking's rows), is the model's;
* a layer's share of that frame (``Layer.time_share``, stored by classification; a hand-built
  profile's computed by :func:`time_share`);
* the median and 90th percentile of the per-frame times (``Profile.frame_time_p50_us`` /
  ``frame_time_p90_us``, :func:`compute_frame_percentiles_us`; read through
  :func:`frame_percentiles_us`, which computes them for a profile that lacks them).

* what a share is of, in words (:func:`share_basis`): "of the frame" when the frame time is
  the log's own (a total line, a whole table, the TimeRatio column), "of the rows shown" when
  it is only the sum of the rows a fragment or cut table shows. Every message that states a
  share says it through :func:`share_basis` (rules: ``rules._util.of_frame``).

The potential saving depends on the findings, so the pipeline stores it after the rules ran
(``Profile.potential_saving_us``, ``rules.potential_saving_us``).
"""

from __future__ import annotations

from rknnprof.analysis.optypes import ranking_cut_short, ratio_total_us
from rknnprof.analysis.stats import percentile
from rknnprof.model import Layer, Profile


def compute_frame_total_us(profile: Profile) -> float | None:
    """The frame time shares are taken of, microseconds; None when the input gives no time.

    * a ranking without layers cut short (TimeRatio rows well under 100 %): the frame its
      TimeRatio column implies, so shares agree with the ratios printed beside them;
    * an elided table (``...`` rows) whose total line exceeds the printed rows: the total line,
      since the rows shown are not the whole frame;
    * otherwise ``Profile.total_time_us``: the layers' sum, else the log's total, else the
      ranking's rows.
    """
    if not profile.layers and ranking_cut_short(profile.ranking):
        return ratio_total_us(profile.ranking)
    total, reported = profile.total_time_us, profile.reported_total_time_us
    if reported and (total is None or reported > total) and _rows_missing(profile):
        return reported
    return total


def _rows_missing(profile: Profile) -> bool:
    """The log says rows are missing: elision lines, or rows summing to less than its own
    total line (``analysis.consistency.total_disagreement``)."""
    from rknnprof.analysis.consistency import total_disagreement

    return bool(profile.elided_rows) or total_disagreement(profile) is not None


FRAME = "of the frame"
ROWS_SHOWN = "of the rows shown"


def share_basis(profile: Profile) -> str:
    """What a share of :func:`frame_total_us` is of, in words: :data:`FRAME` when that time
    is the log's own (its total line, a table the verdict finds whole, a ranking's TimeRatio,
    a whole-run figure; a hand-built profile without a verdict), else :data:`ROWS_SHOWN` (a
    fragment, a cut or elided table without a total line: the sum of the rows it shows)."""
    if not profile.layers or profile.reported_total_time_us is not None:
        return FRAME
    validity = profile.validity
    return FRAME if validity is None or validity.complete else ROWS_SHOWN


def frame_total_us(profile: Profile) -> float | None:
    """``Profile.frame_total_us`` as analysis stored it (computed for a hand-built profile)."""
    if profile.frame_total_us is not None:
        return profile.frame_total_us
    return compute_frame_total_us(profile)


def time_share(layer: Layer, profile: Profile) -> float | None:
    """``Layer.time_share`` as analysis stored it, else ``time_us`` / :func:`frame_total_us`;
    None when the layer has no time or the frame time is unknown."""
    if layer.time_share is not None:
        return layer.time_share
    frame = frame_total_us(profile)
    if layer.time_us is None or not frame:
        return None
    return layer.time_us / frame


def compute_frame_percentiles_us(profile: Profile) -> tuple[float | None, float | None]:
    """p50 and p90 of ``Profile.frame_times_us`` (linear interpolation, microseconds); None
    when the profile has no per-frame times (a single frame)."""
    times = profile.frame_times_us
    return percentile(times, 50), percentile(times, 90)


def frame_percentiles_us(profile: Profile) -> tuple[float | None, float | None]:
    """``Profile.frame_time_p50_us`` and ``frame_time_p90_us`` as analysis stored them;
    computed for a profile without them: one built by hand, or read back from a saved report
    written before these keys existed (a budget's baseline)."""
    if profile.frame_time_p50_us is not None and profile.frame_time_p90_us is not None:
        return profile.frame_time_p50_us, profile.frame_time_p90_us
    return compute_frame_percentiles_us(profile)
