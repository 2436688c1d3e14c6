"""The transports a log reaches rknnprof through, for the grammar fixtures of
``tests/data/grammars``: a file or stdin, every line behind ``D RKNN: [..]`` or a bare ``D RKNN: ``,
``adb logcat -v threadtime``, CRLF line ends, UTF-16 with a BOM. Same wrappers as
``tests/test_transport_variants.py`` (corpus tables), plus the bare prefix."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner, Result

from rknnprof.cli import cli

DATA = Path(__file__).resolve().parent.parent / "data" / "grammars"


def fixture(name: str) -> str:
    return (DATA / name).read_text(encoding="utf-8")


def runtime_prefixed(text: str, tag: str = "RKNN") -> bytes:
    return "".join(f"D {tag}: [10:00:00.000] {line}\n" for line in text.splitlines()).encode()


def bare_prefixed(text: str, tag: str = "RKNN") -> bytes:
    return "".join(f"D {tag}: {line}\n" for line in text.splitlines()).encode()


def logcat_threadtime(text: str, tag: str = "RKNN") -> bytes:
    return "".join(
        f"11-30 10:00:00.{i % 1000:03d}  2345  2399 D {tag:<8}: {line}\n"
        for i, line in enumerate(text.splitlines())
    ).encode()


VARIANTS = {
    "plain": lambda t: t.encode(),
    "runtime-prefix": runtime_prefixed,
    "bare-prefix": bare_prefixed,
    "logcat-threadtime": logcat_threadtime,
    "crlf": lambda t: t.replace("\n", "\r\n").encode(),
    "utf16-bom": lambda t: t.encode("utf-16"),
    # a log pasted from a documentation page's code block (e.g. the Radxa docs' RKLLM runs)
    "indented": lambda t: "".join(f"    {line}\n" for line in t.splitlines()).encode(),
    # a log quoted in an issue or a README (a MiniCPM-V RKLLM run quoted ``>I rkllm: …``)
    "blockquote": lambda t: "".join(f">{line}\n" for line in t.splitlines()).encode(),
}
"""Every transport; each takes the fixture's text and gives the bytes read."""

TEXT_VARIANTS = ("plain", "crlf", "utf16-bom", "indented", "blockquote")
"""The transports that keep each line's own prefix (for logs whose lines carry their own tag,
such as ``I rkllm: …``)."""


def run(args: list[str], data: bytes, tmp_path: Path, via_stdin: bool) -> Result:
    """``rknnprof <args> <input>`` on ``data``, from a file or from stdin."""
    if via_stdin:
        return CliRunner().invoke(cli, [*args, "-"], input=data)
    path = tmp_path / "log.txt"
    path.write_bytes(data)
    return CliRunner().invoke(cli, [*args, str(path)])


def profiles(data: bytes, tmp_path: Path, via_stdin: bool = False) -> list[dict]:
    """The JSON profiles of ``analyze -f json`` on ``data`` (which must exit 0)."""
    result = run(["analyze", "-f", "json"], data, tmp_path, via_stdin)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)["profiles"]
