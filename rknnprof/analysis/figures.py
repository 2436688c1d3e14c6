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
    if profile.elided_rows and reported and (total is None or reported > total):
        return reported
    return total


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
