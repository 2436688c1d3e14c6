"""A shell prompt and the command typed at it, as users paste their runs into issues::

    rpdzkj@localhost:~/Desktop$ sudo python3 Yolov8m_detect.py
    root@ok3588:/userdata/rknn_yolov8_demo# ./rknn_yolov8_demo ./model/yolov8.rknn
    (venv) radxa@rock-5c:~$ python3 test.py
    $ ./run.sh

-> ``CommandEvent(as_root=…)``: whether the command ran as root (``sudo``, a ``root@`` prompt,
a ``#`` prompt after ``user@host:dir`` or Android's ``rk3588:/ #``). A failure that depends on
the user's rights (``failed to open rknpu module``) is told with the command typed before it.
A bare ``# …`` is a comment or a Markdown heading, never a prompt.

A command line that also names a version or the SoC (``--target rk3588``, a model in a per-SoC
folder) is read for that too, as :mod:`.runtime_info` reads it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rknnprof.inputs.lazy_re import LazyPattern
from rknnprof.parsers.base import Block, BlockParser
from rknnprof.parsers.events import CommandEvent
from rknnprof.parsers.runtime_info import RuntimeInfoParser

if TYPE_CHECKING:
    from collections.abc import Sequence

    from rknnprof.inputs.lines import Line
    from rknnprof.parsers.events import Event

FAMILY = "shell-command"

_PROMPT = LazyPattern(
    r"^(?:\([\w.-]{1,64}\)\s{1,4})?"  # a Python virtual environment's (venv)
    r"(?:(?P<user>[\w.-]{1,64})@[\w.-]{1,64}:[^\s$#]{0,256}"  # user@host:~/dir
    r"|\[(?P<bracketed>[\w.-]{1,64})@[\w.-]{1,64}[^\]\n]{0,256}\]"  # [user@host dir]
    r"|(?P<android>[\w.-]{1,64}:/[^\s$#]{0,256}\s?)"  # rk3588:/data
    r")?"
    r"\s?(?P<sign>[$#])\s{1,8}(?P<command>\S.*)$"
)
_INFO = RuntimeInfoParser()


class _Command(Block):
    """The prompt's line, and the runtime info it names (its block, when it opened one)."""

    def __init__(self, event: CommandEvent, info: Block | None) -> None:
        self.event = event
        self.info = info

    def feed(self, line: Line) -> bool:
        return self.info is not None and self.info.feed(line)

    def close(self) -> Sequence[Event]:
        return [self.event, *(self.info.close() if self.info is not None else ())]


def read_command(text: str) -> bool | None:
    """Whether the command at the prompt ``text`` starts runs as root; None: no prompt."""
    m = _PROMPT.match(text)
    if m is None:
        return None
    prompted = m.group("user") or m.group("bracketed") or m.group("android")
    if m.group("sign") == "#" and not prompted:
        return None  # (a comment, a Markdown heading)
    user = m.group("user") or m.group("bracketed")
    return (
        user == "root"
        or (m.group("sign") == "#" and bool(prompted))
        or m.group("command").split(maxsplit=1)[0] == "sudo"
    )


class ShellCommandParser(BlockParser):
    family: ClassVar[str] = FAMILY
    detection: ClassVar[str] = (
        "a shell prompt and its command (`user@host:~$ sudo python3 run.py`, `root@board:/# "
        "./demo`, `$ ./run.sh`)"
    )
    fields: ClassVar[str] = "whether the command ran as root (sudo, a root prompt)"

    def opens(self, line: Line) -> Block | None:
        text = line.text
        if "$ " not in text and "# " not in text and "$\t" not in text and "#\t" not in text:
            return None
        as_root = read_command(text)
        if as_root is None:
            return None
        event = CommandEvent(line.number, as_root, stream=line.stream)
        return _Command(event, _INFO.opens(line))
