"""CPU-fallback and multi-core-fallback warnings from the compiler / runtime.

* ``<Op> will fallback to CPU, because <reason>`` (31, usually behind ``W RKNN: [..]``; users
  paste it bare or with other prefixes, so it is searched *within* the line) ->
  ``FallbackWarningEvent(kind="cpu", subject=<Op>, reason=<reason>)``.
* The multi-core record (33)::

    Failed to config layer: 'Conv:/model.22/dfl/conv/Conv' using 3Core fallback to single core mode,
    core_num 3 ori_Ih 4 ori_Iw 8400 ori_Ic 16 ori_Ib 1
    ori_Kh 1 ori_Kw 1 ori_Kk 1 ori_Kc 16 ori_Ksx 1 ori_Ksy 1
    ori_Oh 4 oriOw 8400 oriOc 1 pad_t 0 pad_b 0 pad_l 0 pad_r 0,
    Please help report this bug!

  -> ``FallbackWarningEvent(kind="multicore", subject=<layer FullName>, reason="using 3Core
  fallback to single core mode", details=<the detail lines>)``. The runtime prints the record
  once per configuration attempt, so the same layer can come several times; one event per record.
* The compiler's word for an op type it has no NPU kernel for (toolkit2 2.x build), its node type
  on the same line or the next::

    No lowering found for: unsupported_acos_node,
    node type = Acos, use CustomOperatorLower instead.

  -> ``FallbackWarningEvent(kind="cpu", subject=<node type>, reason="no NPU lowering …")``.
* The toolkit's word for an ONNX op it has no RKNN op for (toolkit2 2.x build), the custom
  operator it becomes on the same line or the next::

    W RKNN: Meet RKNN unsupport Operator: name = 'chunkwise_scan', type = Scan,
            it will be treated as a custom operator.

  -> ``FallbackWarningEvent(kind="cpu", subject=<type>, reason="… a custom operator …")``.
* The compiler's word for an op it puts on the CPU itself (toolkit2 1.x build)::

    I RKNN: Compiler: LayerNorm: Shape not support Target:NPU, turn to Target:CPU implement.

  -> ``FallbackWarningEvent(kind="cpu", subject=<Op>, reason="<what it says>, so the compiler
  …")``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rknnprof.inputs.lazy_re import LazyPattern
from rknnprof.parsers.base import Block, BlockParser
from rknnprof.parsers.events import FallbackWarningEvent

if TYPE_CHECKING:
    from rknnprof.inputs.lines import Line
    from rknnprof.parsers.events import Event

FAMILY = "fallback-warning"

_CPU = LazyPattern(
    # the op: from the first ASCII letter of the word before "will" (a match starts only at a
    # word's start and reads it once, so a long word not followed by " will" costs one pass)
    r"(?<!\w)[^\WA-Za-z_]*+(?P<op>[A-Za-z_]\w*+) will fallback to CPU,?\s*+(?:because\s*+)?"
    r"(?P<reason>.*)$"
)
_MULTICORE = LazyPattern(
    r"Failed to config layer:\s*'(?P<name>[^']*)'\s*"
    r"(?P<reason>using \w+ fallback to single core mode)"
)
_NO_LOWERING = LazyPattern(r"No lowering found for:\s*(?P<name>[^,\s]*)")
_NODE_TYPE = LazyPattern(r"node type\s*=\s*(?P<op>[A-Za-z_]\w*)")
_UNSUPPORTED = LazyPattern(
    r"Meet RKNN unsupport(?:ed)? Operator:\s*name\s*=\s*'(?P<name>[^']*)',\s*type\s*=\s*"
    r"(?P<op>[A-Za-z_]\w*)"
)
_CUSTOM = "treated as a custom operator"
_TURN_TO_CPU = LazyPattern(
    r"Compiler:\s*(?P<op>[A-Za-z_]\w{0,63}):\s*(?P<said>[^,]{1,200}?),?\s*turn to Target:CPU"
)
_DETAIL = LazyPattern(r"core_num\b|\bori_?[A-Z]|\bpad_[tblr]\b|Please help report this bug")
_MAX_DETAILS = 4


class _CpuWarning(Block):
    def __init__(self, line: Line, op: str, reason: str) -> None:
        self.event = FallbackWarningEvent(
            line.number, "cpu", op, reason.strip(), stream=line.stream
        )

    def feed(self, line: Line) -> bool:
        return False

    def close(self) -> list[Event]:
        return [self.event]


class _MulticoreWarning(Block):
    def __init__(self, line: Line, name: str, reason: str) -> None:
        self.line = self.last_line = line.number
        self.stream = line.stream
        self.name = name
        self.reason = reason
        self.details: list[str] = []

    def feed(self, line: Line) -> bool:
        if len(self.details) >= _MAX_DETAILS or "Failed to config layer" in line.text:
            return False
        if not _DETAIL.search(line.text):
            return False
        self.details.append(line.text.strip())
        self.last_line = line.number
        return True

    def close(self) -> list[Event]:
        return [
            FallbackWarningEvent(
                self.line,
                "multicore",
                self.name,
                self.reason,
                stream=self.stream,
                details=tuple(self.details),
                last_line=self.last_line,
            )
        ]


class _NoLowering(Block):
    """``No lowering found for: <node>,`` with ``node type = <Op>`` on it or the next line."""

    def __init__(self, line: Line, node: str) -> None:
        self.line = self.last_line = line.number
        self.stream = line.stream
        self.node = node
        self.op: str | None = None
        self._node_type(line.text)

    def _node_type(self, text: str) -> None:
        if (m := _NODE_TYPE.search(text)) is not None:
            self.op = m.group("op")

    def feed(self, line: Line) -> bool:
        if self.op is not None or self.last_line != self.line:
            return False
        if "No lowering found for:" in line.text:
            return False  # the next node's record: this one named no node type
        self._node_type(line.text)
        if self.op is None:
            return False
        self.last_line = line.number
        return True

    def close(self) -> list[Event]:
        if self.op is None:
            return []
        # (not the node's name: one reason per op type, however many nodes the log names)
        reason = (
            f"the compiler has no NPU lowering for {self.op} (`No lowering found for: …, node "
            f"type = {self.op}`): an op the NPU does not run"
        )
        return [
            FallbackWarningEvent(
                self.line, "cpu", self.op, reason, stream=self.stream, last_line=self.last_line
            )
        ]


class _Unsupported(Block):
    """``Meet RKNN unsupport Operator: name = '<node>', type = <Op>,`` and ``it will be
    treated as a custom operator.`` on it or the next line."""

    def __init__(self, line: Line, op: str) -> None:
        self.line = self.last_line = line.number
        self.stream = line.stream
        self.op = op
        self.custom = _CUSTOM in line.text

    def feed(self, line: Line) -> bool:
        if self.custom or self.last_line != self.line or _CUSTOM not in line.text:
            return False
        self.custom = True
        self.last_line = line.number
        return True

    def close(self) -> list[Event]:
        reason = (
            f"the toolkit has no NPU op for {self.op} (`Meet RKNN unsupport Operator: …, type = "
            f"{self.op}`)"
            + (
                ": it becomes a custom operator, which runs only with a CPU implementation "
                "registered for it"
                if self.custom
                else ""
            )
        )
        return [
            FallbackWarningEvent(
                self.line, "cpu", self.op, reason, stream=self.stream, last_line=self.last_line
            )
        ]


class FallbackWarningParser(BlockParser):
    family = FAMILY
    detection = (
        "`<Op> will fallback to CPU, because …` or `Failed to config layer: '<name>' using 3Core "
        "fallback to single core mode,` anywhere in a line; `No lowering found for: <node>,` "
        "with its `node type = <Op>`; `Meet RKNN unsupport Operator: name = '<node>', type = "
        "<Op>,`; `Compiler: <Op>: …, turn to Target:CPU implement`"
    )
    fields = "kind (cpu / multicore), op type or layer name, reason, detail lines"

    def opens(self, line: Line) -> Block | None:
        text = line.text
        if "No lowering found for:" in text and (lowering := _NO_LOWERING.search(text)):
            return _NoLowering(line, lowering.group("name"))
        if "unsupport" in text and (unsupported := _UNSUPPORTED.search(text)):
            return _Unsupported(line, unsupported.group("op"))
        if "turn to Target:CPU" in text and (turned := _TURN_TO_CPU.search(text)):
            said = turned.group("said").strip()
            reason = f"{said}, so the compiler turns it to its CPU implementation"
            return _CpuWarning(line, turned.group("op"), reason)
        if "fallback" not in text:
            return None
        if "will fallback to CPU" in text and (cpu := _CPU.search(text)):
            return _CpuWarning(line, cpu.group("op"), cpu.group("reason"))
        if "Failed to config layer" in text and (multi := _MULTICORE.search(text)):
            return _MulticoreWarning(line, multi.group("name"), multi.group("reason"))
        return None
