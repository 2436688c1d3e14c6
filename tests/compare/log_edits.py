"""CURRENT logs for ``compare``'s advice tests: a real per-layer table with rows rewritten in
place, as a fixed model would print them."""

from __future__ import annotations

import re

_ROW = re.compile(r"^(\d+)(\s+)(\S+)(\s+)")


def rewrite(text: str, changes: dict[int, tuple[str | None, float]]) -> str:
    """The log with rows ``id -> (new op type or None, new time in us)`` rewritten in place,
    the total line set to the rows' new sum, and the ranking table dropped."""
    out: list[str] = []
    total = 0.0
    in_table = in_ranking = False
    for line in text.splitlines():
        if "Network Layer Information Table" in line:
            in_table = True
        if "Operator Time Consuming Ranking Table" in line:
            in_ranking = True
            out.pop()  # its opening rule
            continue
        if in_ranking:
            continue
        m = _ROW.match(line) if in_table else None
        if m:
            cells = re.split(r"(\s+)", line)  # tokens and the spaces between them
            layer = int(cells[0])
            time = float(cells[14])  # ID OpType DataType Target In Out Cycles Time
            op, new_time = changes.get(layer, (None, time))
            if op is not None:
                cells[2] = op + " " * max(1, len(cells[2]) + len(cells[3]) - len(op))
                cells[3] = ""
            printed = f"{new_time:.0f}"
            cells[14] = printed + " " * max(1, len(cells[14]) + len(cells[15]) - len(printed))
            cells[15] = ""
            total += float(printed)
            line = "".join(cells)
        if line.startswith("Total Operator Elapsed Per Frame Time(us):"):
            line = f"Total Operator Elapsed Per Frame Time(us): {total:.0f}"
            in_table = False
        out.append(line)
    return "\n".join(out) + "\n"
