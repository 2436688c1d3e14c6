"""CSV report (``--format csv``): one row per layer of every profile, written with pandas.

Columns: ``profile_index, source_path, format, platform, frames, measured`` then every
:class:`~rknnprof.model.Layer` field under its own name (``id``, ``op_type`` … ``time_share``).
Text forms are those of :mod:`rknnprof.analysis.dataframe` (shapes ``1x3x640x640;16x3x3x3``).
Missing values are empty cells. A text cell that would start a spreadsheet formula (``=``, ``+``,
``-``, ``@``, tab, CR) gets a leading ``'`` (OWASP); numeric columns are written as numbers.
Profiles without layers contribute no rows (their totals are in ``--format json``). Called
``csv_report`` so it does not shadow the standard ``csv`` module.
"""

from __future__ import annotations

from typing import TextIO

from rknnprof.model import Report
from rknnprof.reporters._escape import csv_cell
from rknnprof.reporters.base import RenderOptions, Reporter


class CsvReporter(Reporter):
    name = "csv"

    def render(self, report: Report, out: TextIO, options: RenderOptions) -> None:
        from pandas.api.types import is_bool_dtype, is_numeric_dtype

        from rknnprof.analysis.dataframe import report_frame

        frame = report_frame(report)
        for column in frame.columns:
            dtype = frame[column].dtype
            if not (is_numeric_dtype(dtype) or is_bool_dtype(dtype)):  # text: names, shapes
                frame[column] = frame[column].map(csv_cell)
        frame.to_csv(out, index=False, lineterminator="\n")
