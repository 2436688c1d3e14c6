"""One entry of the failures catalogue (:mod:`.failure_catalogue`): the record its data modules
write entries as, and the issue trackers their sources cite."""

from __future__ import annotations

from rknnprof.inputs.lazy_re import LazyPattern
from rknnprof.model.record import Record, record


@record
class Entry(Record):
    """One known failure: how its line is found, and what it means and how to fix it."""

    id: str
    """Stable kebab-case name, e.g. ``unsupported-cpu-op``; the JSON ``failures[].id``."""
    needles: tuple[str, ...]
    """Literals one of which a matching line contains (the cheap test before the pattern)."""
    pattern: LazyPattern[str]
    diagnosis: str
    """One line: what failed, with ``{group}`` fields from ``pattern``."""
    cause: str
    fix: str
    source: str
    """The public thread whose maintainer's answer (or reporter's confirmed fix) backs it."""
    confidence: str = "high"
    """``high``: a maintainer's answer or the reporter's confirmed fix; ``medium``: a
    commenter's answer or several threads agreeing; ``low``: no confirmed answer."""
    warning: bool = False
    """The runtime goes on after this line (a warning, not the reason it stopped)."""
    notice: bool = False
    """The line is harmless by itself (the driver goes on, a run beside it is not affected):
    its finding is information, never a warning that fails a gate."""


def regex(text: str) -> LazyPattern[str]:
    """An entry's pattern, compiled at its first use."""
    return LazyPattern(text)


TK2 = "https://github.com/airockchip/rknn-toolkit2/issues/"
OLD_TK2 = "https://github.com/rockchip-linux/rknn-toolkit2/issues/"
TK1 = "https://github.com/rockchip-linux/rknn-toolkit/issues/"
RKNPU2 = "https://github.com/rockchip-linux/rknpu2/issues/"
LLM = "https://github.com/airockchip/rknn-llm/issues/"
ZOO = "https://github.com/airockchip/rknn_model_zoo/issues/"
