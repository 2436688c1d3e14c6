"""``--format json``: the JSON contract (``docs/json.md``), written by :mod:`rknnprof.schema`."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, ClassVar, TextIO

from rknnprof.reporters.base import RenderOptions, Reporter
from rknnprof.schema import report_to_dict

if TYPE_CHECKING:
    from rknnprof.model import Report


class JsonReporter(Reporter):
    name: ClassVar[str] = "json"

    def render(self, report: Report, out: TextIO, options: RenderOptions) -> None:
        # one write of the whole text: json.dump with an indent writes each of its tens of
        # thousands of pieces on its own (the same bytes)
        out.write(json.dumps(report_to_dict(report), indent=2, ensure_ascii=False,
                             allow_nan=False))
        out.write("\n")
