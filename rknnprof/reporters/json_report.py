"""``--format json``: the DESIGN.md contract, ``schema_version`` 1.

Every model field is written under its dataclass field name (enums as their string values,
tuples as lists, nested dataclasses as objects), so a loader can rebuild the objects with
``Cls(**fields)``. The contract's fields come first in each profile, in contract order; the
rest follow in declaration order. ``total_time_us`` (a property) is written too.
"""

from __future__ import annotations

import dataclasses
import json
from enum import Enum
from typing import TYPE_CHECKING, Any, ClassVar, TextIO

from rknnprof import __version__
from rknnprof.reporters.base import RenderOptions, Reporter

if TYPE_CHECKING:
    from rknnprof.model import Profile, Report

SCHEMA_VERSION = 1
PROFILE_ORDER = ("source", "format", "measured", "platform", "versions", "frames",
                 "total_time_us", "reported_total_time_us", "layers", "findings")


def to_jsonable(value: Any) -> Any:
    """Dataclasses -> dicts by field name, enums -> values, tuples -> lists."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, tuple | list):
        return [to_jsonable(v) for v in value]
    if isinstance(value, dict):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    return value


def _whole(x: float | None) -> float | None:
    return int(x) if isinstance(x, float) and x.is_integer() else x


def profile_dict(profile: Profile) -> dict[str, Any]:
    body = to_jsonable(profile)
    body["total_time_us"] = _whole(profile.total_time_us)
    ordered = {key: body.pop(key) for key in PROFILE_ORDER}
    ordered.update(body)
    return ordered


def report_dict(report: Report) -> dict[str, Any]:
    return {
        "schema_version": SCHEMA_VERSION,
        "rknnprof_version": __version__,
        "profiles": [profile_dict(p) for p in report.profiles],
        "warnings": [to_jsonable(w) for w in report.warnings],
    }


class JsonReporter(Reporter):
    name: ClassVar[str] = "json"
    suffixes: ClassVar[tuple[str, ...]] = (".json",)
    description: ClassVar[str] = "machine-readable report (schema_version 1), for CI and tools"

    def render(self, report: Report, out: TextIO, options: RenderOptions) -> None:
        json.dump(report_dict(report), out, indent=2, ensure_ascii=False, allow_nan=False)
        out.write("\n")
