"""The hostile-input fuzzer: mutants of real logs and an adversarial-name corpus, run through
every output format of ``analyze``, ``compare`` and ``check`` (in process, through ``main()``),
and the checks each run must pass.

A run fails when it:

* raises anything but ``SystemExit`` (a traceback), or exits outside 0-3;
* puts a control character on the terminal: stdout or stderr holds ESC, C1, DEL or a C0 other
  than tab/newline (after colour SGR sequences are removed, with ``--color always``);
* lets a bidi control through to what a person reads (stderr, and the terminal, HTML,
  Markdown and JUnit reports: a CI server shows JUnit on a page), where it would reorder the
  text around it;
* writes a CSV cell a spreadsheet would run as a formula (``=``, ``+``, ``-``, ``@``, tab, CR
  at the start, and not a plain number);
* writes JSON a strict parser refuses (``NaN``, ``Infinity``), or JUnit XML that does not parse.

HTML reports are kept for the Chromium check of the long run (``run_long.py``), which loads
each and looks for the mark an injected script would leave.

Mutations (:func:`mutate`): byte flips, line deletion/duplication/swaps, column deletion, number
corruption (400 and 5,000 digits, 20-digit ids, ``1e400``, ``nan``, negatives), NUL bytes,
truncation at a line or byte boundary (mid-UTF-8 too), a stretch re-encoded as UTF-16 or
Latin-1, two logs interleaved line by line, and the log repeated as the frames of a capture
(maybe behind a logcat prefix) with one copy damaged: the path for repeated tables reads those.
"""

from __future__ import annotations

import csv
import io
import json
import os
import random
import re
import sys
import traceback
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path

from rknnprof.reporters.registry import format_names

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "sample_logs" / "yolov5s_rk3588_perf.txt"
FIRST_CONV = "Conv:/model.0/conv/Conv"
EXIT_CODES = {0, 1, 2, 3}
ANALYZE_FORMATS = tuple(format_names("analyze"))
COMPARE_FORMATS = tuple(format_names("compare"))
CHECK_FORMATS = tuple(format_names("check"))
"""Every format of each command, from the one registry: a new format is fuzzed too."""
JSON_FORMATS = ("json", "trace", "model-explorer")
SGR = re.compile(r"\x1b\[[0-9;]*m")
TERMINAL_UNSAFE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
BIDI = re.compile(r"[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
READ_BY_PEOPLE = ("table", "html", "markdown", "junit")
"""Formats a person reads as shown: no bidi control may reach them (machine formats keep the
name as the log wrote it)."""
BUDGETS = """budgets:
  - metric: total_time_us
    max: 10000
  - metric: layer_time_us
    match: "*"
    max_increase: 5%
  - metric: frame_time_p90_us
    max: 20000
  - metric: findings
    severity: error
    max: 0
    level: warn
"""
PWNED = "data-pwned"
"""The attribute an injected script sets on <html>; its presence in Chromium's DOM = executed."""

# -- the adversarial-name corpus -------------------------------------------------------------

_JS = f"document.documentElement.setAttribute('{PWNED}','1')"
NAMES: tuple[str, ...] = (
    # rich markup
    "[/]x",
    "a[/b]c",
    "[bold red]x",
    "[link=https://evil.example/]click[/link]",
    "/blocks[i]/attn/MatMul",
    "x\\",
    "[",
    "]",
    "[[/]]",
    ":warning:",
    # terminal escape sequences and controls
    "A\x1bcB",
    "A\x1b(0B",
    "A\x1b#8B",
    "A\x1b",
    "A\x9b2JB",
    "A\x9dB",
    "A\x01B",
    "A\x7fB",
    "A\x1b]8;;https://evil.example/\x1b\\L\x1b]8;;\x1b\\B",
    "A\x1b]0;pwned\x07B",
    "A\x1b[2J\x1b[HB",
    "A\x1bP+q\x1b\\B",
    "A\x08\x08\x08B",
    "\x1b[6n",
    # HTML / JS
    f"<script>{_JS}</script>",
    f'<img src=x onerror="{_JS}">',
    f'"><svg onload="{_JS}">',
    f"'><body onload='{_JS}'>",
    f"</script><script>{_JS}</script>",
    f"javascript:{_JS}",
    "<!--",
    "]]>",
    "<![CDATA[x]]>",
    "&amp;&lt;",
    f"</title><script>{_JS}</script>",
    f"<style>*{{background:url(javascript:{_JS})}}</style>",
    # Markdown breakers
    "a|b|c",
    "`x`",
    "```",
    "**bold**",
    "[x](javascript:alert(1))",
    "![x](https://evil/x.png)",
    "# heading",
    "> quote",
    "<details>",
    "|---|",
    "\\|",
    "_x_",
    "~~x~~",
    # spreadsheet formulas
    '=HYPERLINK("https://evil.example","x")',
    "+1+cmd|' /C calc'!A0",
    "-2+3",
    "@SUM(1,2)",
    "=1+1",
    "\t=1",
    # bidi and invisible characters
    "A\u202eB",
    "A\u2066B\u2069",
    "A\u200fB",
    "A\u061cB",
    "A\ufeffB",
    "\ufffd",
    # workflow commands and JSON/XML
    "::error::pwned",
    "%0A::error::x",
    '"}',
    "\\u0000",
    "\ud800".encode("utf-8", "surrogatepass").decode("utf-8", "replace"),
    # sizes
    "x" * 5000,
    "Conv:/" + "a/" * 2000 + "Conv",
)
HUGE_NAME = "N" * (10 * 1024 * 1024)
"""A 10 MB name (the reader keeps 64 K characters of a line)."""


def log_with_name(name: str, text: str | None = None) -> bytes:
    """The sample log with layer 2's FullName swapped for ``name``."""
    text = text if text is not None else SAMPLE.read_text(encoding="utf-8")
    return text.replace(FIRST_CONV, name, 1).encode("utf-8", "surrogatepass")


def saved_report_with_name(name: str) -> str:
    """A saved JSON report whose layer, op type and path carry ``name`` (saved reports do not
    pass through the log reader)."""
    from rknnprof.model import Layer, Profile, Report, SourceSpan, Target
    from rknnprof.saved import report_to_dict

    layers = (
        Layer(id=1, op_type=name[:40] or "x", time_us=100.0, full_name=name, target=Target.NPU),
        Layer(id=2, op_type="Conv", time_us=50.0, full_name="Conv:/b", target=Target.CPU),
    )
    profile = Profile(
        source=SourceSpan(f"run-{name[:30]}.txt", 1, 3),
        format="toolkit2-perf-table",
        layers=layers,
        platform="rk3588",
    )
    return json.dumps(report_to_dict(Report((profile,))))


# -- mutations -------------------------------------------------------------------------------

_NUMBER = re.compile(rb"\d+(?:\.\d+)?")
_CORRUPT = (
    b"9" * 400,
    b"7" * 5000,
    b"18446744073709551616",
    b"99999999999999999999",
    b"1e400",
    b"nan",
    b"inf",
    b"-1",
    b"-0",
    b"0",
    b"00000000000000000000001",
    b"1.7976931348623157e309",
)


def mutate(seeds: list[bytes], rng: random.Random) -> bytes:
    """One mutant: 1-3 mutations of a seed log (or of two, interleaved)."""
    data = rng.choice(seeds)
    for _ in range(rng.randint(1, 3)):
        data = rng.choice(_MUTATIONS)(data, seeds, rng)
    return data


def _lines(data: bytes) -> list[bytes]:
    return data.split(b"\n")


def _flip(data: bytes, seeds: list[bytes], rng: random.Random) -> bytes:
    if not data:
        return data
    buf = bytearray(data)
    for _ in range(rng.randint(1, 8)):
        i = rng.randrange(len(buf))
        buf[i] ^= 1 << rng.randrange(8)
    return bytes(buf)


def _delete_lines(data: bytes, seeds: list[bytes], rng: random.Random) -> bytes:
    ls = _lines(data)
    i = rng.randrange(len(ls))
    del ls[i : i + rng.randint(1, 5)]
    return b"\n".join(ls)


def _duplicate_lines(data: bytes, seeds: list[bytes], rng: random.Random) -> bytes:
    ls = _lines(data)
    i = rng.randrange(len(ls))
    n = rng.randint(1, 5)
    ls[i:i] = ls[i : i + n] * rng.randint(1, 3)
    return b"\n".join(ls)


def _swap_lines(data: bytes, seeds: list[bytes], rng: random.Random) -> bytes:
    ls = _lines(data)
    i, j = rng.randrange(len(ls)), rng.randrange(len(ls))
    ls[i], ls[j] = ls[j], ls[i]
    return b"\n".join(ls)


def _delete_column(data: bytes, seeds: list[bytes], rng: random.Random) -> bytes:
    ls = _lines(data)
    start = rng.randrange(len(ls))
    column = rng.randrange(12)
    for k in range(start, min(len(ls), start + rng.randint(1, 200))):
        cells = ls[k].split()
        if len(cells) > column:
            del cells[column]
            ls[k] = b"   ".join(cells)
    return b"\n".join(ls)


def _corrupt_number(data: bytes, seeds: list[bytes], rng: random.Random) -> bytes:
    numbers = list(_NUMBER.finditer(data))
    if not numbers:
        return data
    for m in rng.sample(numbers, min(len(numbers), rng.randint(1, 4))):
        data = data[: m.start()] + rng.choice(_CORRUPT) + data[m.end() :]
        break  # offsets of the others moved; one per call, the loop of mutate() adds more
    return data


def _nul(data: bytes, seeds: list[bytes], rng: random.Random) -> bytes:
    i = rng.randrange(len(data) + 1)
    return data[:i] + b"\x00" * rng.randint(1, 4) + data[i:]


def _truncate(data: bytes, seeds: list[bytes], rng: random.Random) -> bytes:
    if rng.random() < 0.5:
        ends = [m.start() for m in re.finditer(rb"\n", data)] or [len(data)]
        return data[: rng.choice(ends)]
    return data[: rng.randrange(len(data) + 1)]  # mid-line, maybe mid-UTF-8


def _reencode(data: bytes, seeds: list[bytes], rng: random.Random) -> bytes:
    ls = _lines(data)
    i = rng.randrange(len(ls))
    n = rng.randint(1, 20)
    text = b"\n".join(ls[i : i + n]).decode("utf-8", "replace")
    codec = rng.choice(["utf-16-le", "utf-16", "latin-1", "utf-16-be"])
    piece = text.encode(codec, "replace")
    ls[i : i + n] = [piece]
    return b"\n".join(ls)


def _interleave(data: bytes, seeds: list[bytes], rng: random.Random) -> bytes:
    other = _lines(rng.choice(seeds))
    mine = _lines(data)
    out: list[bytes] = []
    step = rng.randint(1, 4)
    for k in range(max(len(mine), len(other))):
        if k < len(mine):
            out.append(mine[k])
        if k % step == 0 and k < len(other):
            out.append(other[k])
    return b"\n".join(out)


_DAMAGE = (
    _flip,
    _delete_lines,
    _duplicate_lines,
    _swap_lines,
    _delete_column,
    _corrupt_number,
    _nul,
    _truncate,
    _reencode,
    _interleave,
)
MAX_REPEATED = 2_000_000
"""Bytes past which :func:`_repeat_frames` leaves a mutant as it is (it may run three times)."""


def _repeat_frames(data: bytes, seeds: list[bytes], rng: random.Random) -> bytes:
    """The log 2-6 times over, as a capture of several inferences prints its table again and
    again, half the time behind an ``adb logcat -v threadtime`` prefix; one copy damaged by
    another mutation, so a frame unlike the others meets the path for repeated tables."""
    if len(data) > MAX_REPEATED:
        return data
    copies = [data.rstrip(b"\n")] * rng.randint(2, 6)
    victim = rng.randrange(len(copies))
    copies[victim] = rng.choice(_DAMAGE)(copies[victim], seeds, rng).rstrip(b"\n")
    lines = _lines(b"\n".join(copies))
    if rng.random() < 0.5:
        pid, tid = rng.choice(((2345, 2399), (7, 7), (123456, 1)))
        lines = [
            b"11-30 10:00:%02d.%03d %5d %5d D RKNN    : " % (n // 1000 % 60, n % 1000, pid, tid)
            + line
            for n, line in enumerate(lines)
        ]
    return b"\n".join(lines) + b"\n"


_MUTATIONS = (*_DAMAGE, _repeat_frames)


# -- running and checking --------------------------------------------------------------------


@dataclass
class Outcome:
    """One command line and what it did."""

    argv: list[str]
    code: int | None = None
    stdout: str = ""
    stderr: str = ""
    crash: str | None = None
    problems: list[str] = field(default_factory=list)


def run_main(argv: list[str]) -> Outcome:
    """``rknnprof ARGV`` through ``main()`` in this process, stdout and stderr captured."""
    from rknnprof.cli import main

    outcome = Outcome(argv)
    out, err = io.StringIO(), io.StringIO()
    saved = sys.argv, sys.stdout, sys.stderr
    sys.argv, sys.stdout, sys.stderr = ["rknnprof", *argv], out, err
    try:
        main()
        outcome.code = 0
    except SystemExit as e:
        outcome.code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    except BaseException as e:  # noqa: BLE001 - a crash is what we look for
        if isinstance(e, KeyboardInterrupt):
            raise
        frames = traceback.extract_tb(e.__traceback__)
        where = f"{frames[-1].filename}:{frames[-1].lineno}" if frames else "?"
        outcome.crash = f"{type(e).__name__}: {str(e)[:200]} at {where}"
    finally:
        sys.argv, sys.stdout, sys.stderr = saved
    outcome.stdout, outcome.stderr = out.getvalue(), err.getvalue()
    return outcome


def check(outcome: Outcome, fmt: str, color: bool = False) -> list[str]:
    """The problems of one run (empty: it passed every check)."""
    problems = []
    if outcome.crash:
        problems.append(f"traceback: {outcome.crash}")
    elif outcome.code not in EXIT_CODES:
        problems.append(f"exit code {outcome.code}")
    if "Traceback (most recent call last)" in outcome.stderr:
        problems.append("traceback on stderr")
    for name, text in (("stdout", outcome.stdout), ("stderr", outcome.stderr)):
        shown = SGR.sub("", text) if color and name == "stdout" else text
        if m := TERMINAL_UNSAFE.search(shown):
            problems.append(f"control character {m.group()!r} on {name}")
        if (name == "stderr" or fmt in READ_BY_PEOPLE) and (m := BIDI.search(shown)):
            problems.append(f"bidi control {m.group()!r} on {name}")
    out = outcome.stdout
    if outcome.code in (0, 1) and out:
        if fmt in JSON_FORMATS:
            try:
                json.loads(out, parse_constant=_refuse)
            except ValueError as e:
                problems.append(f"non-standard JSON: {str(e)[:100]}")
        elif fmt == "csv":
            problems += [f"live CSV formula: {cell[:40]!r}" for cell in live_formulas(out)][:1]
        elif fmt == "junit":
            try:
                ET.fromstring(out.encode())
            except ET.ParseError as e:
                problems.append(f"invalid XML: {e}")
    outcome.problems = problems
    return problems


def _refuse(constant: str) -> None:
    raise ValueError(f"{constant} is not JSON")


_PLAIN_NUMBER = re.compile(r"^-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?$")


def live_formulas(text: str) -> list[str]:
    """CSV cells a spreadsheet would evaluate: starting ``=``, ``+``, ``-``, ``@``, tab or CR,
    except plain numbers (``-5``, ``-0.25``)."""
    csv.field_size_limit(sys.maxsize)  # a 64 K name is one cell
    cells = [c for row in csv.reader(io.StringIO(text)) for c in row]
    return [
        c for c in cells if c[:1] in ("=", "+", "-", "@", "\t", "\r") and not _PLAIN_NUMBER.match(c)
    ]


def commands(log: str, base: str, budgets: str, index: int) -> list[tuple[list[str], str, bool]]:
    """The command lines one input goes through: ``analyze`` in every format (the table with and
    without colour), ``compare`` against ``base`` and ``check`` against ``budgets`` in one of
    their formats each (turn by turn with ``index``)."""
    runs: list[tuple[list[str], str, bool]] = [
        (["analyze", log, "-f", fmt, "--color", "never"], fmt, False) for fmt in ANALYZE_FORMATS
    ]
    runs.append((["analyze", log, "--color", "always"], "table", True))
    cfmt = COMPARE_FORMATS[index % len(COMPARE_FORMATS)]
    runs.append(
        (["compare", base, log, "-f", cfmt, "--no-summary", "--color", "never"], cfmt, False)
    )
    kfmt = CHECK_FORMATS[index % len(CHECK_FORMATS)]
    runs.append(
        (
            [
                "check",
                log,
                "--budgets",
                budgets,
                "--baseline",
                base,
                "-f",
                kfmt,
                "--no-summary",
                "--color",
                "never",
            ],
            kfmt,
            False,
        )
    )
    return runs


FASTPATH_OFF = "RKNNPROF_NO_FASTPATH"
"""The switch of the bulk path for repeated frames: ``analyze -f json`` is run both ways."""


def run_input(log: str, base: str, budgets: str, index: int) -> list[Outcome]:
    """Every command line of :func:`commands`, checked; the outcomes that had problems. The
    JSON report is also made with the fast path off: it must be the same, byte for byte."""
    bad = []
    for argv, fmt, color in commands(log, base, budgets, index):
        outcome = run_main(argv)
        if check(outcome, fmt, color):
            bad.append(outcome)
        if argv[0] == "analyze" and fmt == "json":
            slow = _without_fastpath(argv)
            if (slow.code, slow.stdout, slow.crash) != (outcome.code, outcome.stdout, None):
                slow.problems.append("the fast path changed the JSON report (or its exit code)")
                bad.append(slow)
    return bad


def _without_fastpath(argv: list[str]) -> Outcome:
    saved = os.environ.get(FASTPATH_OFF)
    os.environ[FASTPATH_OFF] = "1"
    try:
        return run_main(argv)
    finally:
        if saved is None:
            del os.environ[FASTPATH_OFF]
        else:
            os.environ[FASTPATH_OFF] = saved


def seed_logs(corpus: Path | None) -> list[bytes]:
    """The corpus logs (when present) and the sample logs: what :func:`mutate` starts from."""
    paths = sorted(corpus.glob("[0-9][0-9]_*")) if corpus and corpus.is_dir() else []
    paths += sorted((ROOT / "sample_logs").glob("*.txt"))
    return [p.read_bytes() for p in paths]
