"""The frame time, computed once: what every share and "% of the frame" is a fraction of.

Analysis stores :func:`compute_frame_total_us` on the profile (``Profile.frame_total_us``);
rules, compare and reporters read it through :func:`frame_total_us`, which computes it the same
way only for a profile that did not go through analysis (one built by hand). The table's own
total, ``Profile.total_time_us`` (the layers' sum, else the log's total, else the ranking's
rows), is the model's.
"""

from __future__ import annotations

from rknnprof.analysis.optypes import ranking_cut_short, ratio_total_us
from rknnprof.model import Profile


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
