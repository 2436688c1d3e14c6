"""Shared pieces of the fuzz suite: example counts, the pipeline under test, and mutations of
real logs.

Example counts: a short, derandomized run in the normal suite (the whole of tests/fuzz stays
well under 60 s on 2 cores); ``pytest --fuzz-long`` (3000 examples per test, random seeds) or
``RKNNPROF_FUZZ_EXAMPLES=N`` for a longer search.
"""

from __future__ import annotations

import io
import json
import math
import os
import tempfile
from collections.abc import Callable
from pathlib import Path

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from rknnprof.api import analyze
from rknnprof.errors import RknnprofError
from rknnprof.model import Report
from rknnprof.reporters import REPORTERS, RenderOptions, get_reporter
from rknnprof.schema import report_to_dict

_ENV = os.environ.get("RKNNPROF_FUZZ_EXAMPLES")
LONG = _ENV is not None
"""True when a longer search was asked for (random seeds, many examples)."""


def fuzz_settings(default: int) -> settings:
    """Hypothesis settings for one fuzz test: ``default`` examples in the normal run."""
    return settings(
        max_examples=int(_ENV) if _ENV else default,
        deadline=None,
        derandomize=not LONG,
        database=None if not LONG else settings.default.database,
        suppress_health_check=[
            HealthCheck.too_slow,
            HealthCheck.data_too_large,
            HealthCheck.filter_too_much,
            HealthCheck.large_base_example,
        ],
        print_blob=True,
    )


_TMP = Path(tempfile.mkdtemp(prefix="rknnprof-fuzz-"))


def write_temp(data: bytes, name: str = "fuzz.log") -> Path:
    path = _TMP / name
    path.write_bytes(data)
    return path


def _reporters() -> list[str]:
    """Registered reporters whose module is present on this branch."""
    import importlib.util

    names = []
    for name, target in REPORTERS.items():
        module = target.split(":")[0]
        if importlib.util.find_spec(module) is not None:
            names.append(name)
    return names


AVAILABLE_REPORTERS = _reporters()


def assert_finite_json(text: str) -> dict:
    """The JSON report parses, and holds no NaN / Infinity."""
    data = json.loads(text, parse_constant=lambda c: (_ for _ in ()).throw(AssertionError(c)))
    _walk_finite(data)
    return data


def _walk_finite(value: object) -> None:
    if isinstance(value, float):
        assert math.isfinite(value), value
    elif isinstance(value, dict):
        for v in value.values():
            _walk_finite(v)
    elif isinstance(value, list):
        for v in value:
            _walk_finite(v)


FASTPATH_OFF = "RKNNPROF_NO_FASTPATH"
"""The switch of the bulk path for repeated frames (``parsers/table/bulk.py``)."""


def _analyze(path: Path, fastpath: bool) -> Report | RknnprofError:
    saved = os.environ.pop(FASTPATH_OFF, None)
    if not fastpath:
        os.environ[FASTPATH_OFF] = "1"
    try:
        return analyze(path)
    except RknnprofError as e:
        return e
    finally:
        os.environ.pop(FASTPATH_OFF, None)
        if saved is not None:
            os.environ[FASTPATH_OFF] = saved


def _outcome(result: Report | RknnprofError) -> object:
    if isinstance(result, RknnprofError):
        report = getattr(result, "report", None)  # (no data: the failures it found)
        shown = None if report is None else report_to_dict(report)
        return type(result), str(result), result.exit_code, shown
    return report_to_dict(result)


def analyze_both_ways(path: Path) -> Report | RknnprofError:
    """``analyze`` with the fast path on, then off: the reports (or the errors) must be equal.
    Returns the first."""
    on = _analyze(path, True)
    off = _analyze(path, False)
    assert _outcome(on) == _outcome(off), "the fast path changed the report"
    return on


def run_pipeline(data: bytes, *, reporters: list[str] | None = None) -> Report | RknnprofError:
    """``rknnprof.api.analyze`` on ``data`` (as a file), with the fast path on and off (the
    reports must be equal), then render it. Only :class:`RknnprofError` may escape
    ``analyze``; it is returned, not raised. Any other exception fails the test with its
    traceback."""
    path = write_temp(data)
    report = analyze_both_ways(path)
    if isinstance(report, RknnprofError):
        e = report
        assert str(e).strip() and "\n" not in str(e), repr(str(e))
        return e
    for name in reporters if reporters is not None else ["json"]:
        out = io.StringIO()
        get_reporter(name).render(report, out, RenderOptions(top=5))
        if name == "json":
            assert_finite_json(out.getvalue())
    return report


# ---- seeds ------------------------------------------------------------------------------------

EXTRA_SEEDS: list[bytes] = [
    # families without a corpus sample (the driver's load line, logged in a loop next to a run)
    b"NPU load:  Core0: 52%, Core1:  0%, Core2:  0%,\nNPU load:  20%\n"
    b"11-30 10:00:00.123  2345  2399 I RKNN    : NPU load:  Core0: 100%, Core1: 7%, Core2: 0%,\n",
    # a Markdown pipe table (tests/data/grammars holds the others)
    b"| ID OpType DataType Target Time(us) |  |  |  |  |\n|---|---|---|---|---|\n"
    b"| 1 | InputOperator | UINT8 | CPU | 17 |\n\n| 2 | ConvRelu | UINT8 | NPU | 192 |\n",
    # RKLLM statistics
    b"I rkllm: rkllm-runtime version: 1.3.0, rknpu driver version: 0.9.8, platform: RK3588\n"
    b"I rkllm:  Stage         Total Time (ms)  Tokens    Time per Token (ms)      Tokens per Second\n"
    b"I rkllm:  Prefill       160.00           32        5.00                     200.00\n"
    b"I rkllm:  Generate      6400.00          129       49.61                    20.16\n",
    # the lines about how a run was taken (clocks, a debugger's stop, tensor dumps)
    b"Get DDR frequency: 528MHz\n"
    b'Thread 1 "rknn_demo" hit Breakpoint 1, 0x0000007fb7e4c9a8 in ioctl () from /lib/libc.so.6\n'
    b"(gdb) continue\n"
    b"D RKNN: [10:00:00.200] dump npy tensor to: /userdata/dumps/000.npy\n",
]
"""Hand-written logs for families the corpus and sample_logs do not hold; keep one per family."""


def seed_logs(corpus: Path) -> list[bytes]:
    """Every corpus file and sample log, plus :data:`EXTRA_SEEDS`: what the fuzzers mutate."""
    from tests.conftest import SAMPLES

    paths = sorted(corpus.glob("[0-9][0-9]_*")) if corpus.is_dir() else []
    paths += sorted(SAMPLES.glob("*.txt"))
    return [p.read_bytes() for p in paths] + EXTRA_SEEDS


# ---- mutations of real logs ----------------------------------------------------------------

Lines = list[bytes]


def _pick(lines: Lines, i: int) -> int:
    return i % len(lines) if lines else 0


def drop(i: int) -> Callable[[Lines], Lines]:
    return lambda ls: ls[: _pick(ls, i)] + ls[_pick(ls, i) + 1 :]


def duplicate(i: int) -> Callable[[Lines], Lines]:
    return lambda ls: ls[: _pick(ls, i) + 1] + ls[_pick(ls, i) :] if ls else ls


def truncate_line(i: int, at: int) -> Callable[[Lines], Lines]:
    def f(ls: Lines) -> Lines:
        if not ls:
            return ls
        j = _pick(ls, i)
        return [*ls[:j], ls[j][: at % (len(ls[j]) + 1)], *ls[j + 1 :]]

    return f


def swap_columns(i: int, a: int, b: int) -> Callable[[Lines], Lines]:
    def f(ls: Lines) -> Lines:
        if not ls:
            return ls
        j = _pick(ls, i)
        cells = ls[j].split()
        if len(cells) < 2:
            return ls
        x, y = a % len(cells), b % len(cells)
        cells[x], cells[y] = cells[y], cells[x]
        return [*ls[:j], b"   ".join(cells), *ls[j + 1 :]]

    return f


def letters_for_digits(i: int, every: int) -> Callable[[Lines], Lines]:
    def f(ls: Lines) -> Lines:
        if not ls:
            return ls
        j, out, n = _pick(ls, i), bytearray(), 0
        for c in ls[j]:
            if 48 <= c <= 57:
                n += 1
                if n % every == 0:
                    c = b"lOoISBZx"[c % 8]
            out.append(c)
        return [*ls[:j], bytes(out), *ls[j + 1 :]]

    return f


def tabs_for_spaces(i: int) -> Callable[[Lines], Lines]:
    def f(ls: Lines) -> Lines:
        if not ls:
            return ls
        j = _pick(ls, i)
        return [*ls[:j], ls[j].replace(b" ", b"\t"), *ls[j + 1 :]]

    return f


def inject(i: int, at: int, junk: bytes) -> Callable[[Lines], Lines]:
    def f(ls: Lines) -> Lines:
        if not ls:
            return [junk]
        j = _pick(ls, i)
        k = at % (len(ls[j]) + 1)
        return [*ls[:j], ls[j][:k] + junk + ls[j][k:], *ls[j + 1 :]]

    return f


def huge_line(i: int, size: int, fill: bytes) -> Callable[[Lines], Lines]:
    def f(ls: Lines) -> Lines:
        j = _pick(ls, i)
        body = (fill or b"x") * (size // max(len(fill), 1) + 1)
        return [*ls[:j], body[:size], *ls[j:]]

    return f


def splice(other: Lines, start: int, count: int) -> Callable[[Lines], Lines]:
    """Lines of another log pasted in (mixed formats in one file)."""

    def f(ls: Lines) -> Lines:
        piece = other[start % max(len(other), 1) :][:count]
        j = _pick(ls, start)
        return [*ls[:j], *piece, *ls[j:]]

    return f


def mutations(corpus_lines: list[Lines]) -> st.SearchStrategy[Callable[[Lines], Lines]]:
    idx = st.integers(min_value=0, max_value=10_000)
    small = st.integers(min_value=0, max_value=400)
    junk = st.binary(min_size=1, max_size=12) | st.sampled_from(
        [
            b"\x00",
            b"\xff\xfe",
            b"\x1b[31m",
            b"\r",
            b"\x0c",
            b"/",
            b"%",
            b"(",
            b",...",
            b"\\",
            b" NPU ",
            b" CPU ",
            b"...",
            b"99999999999999999999999",
            b"0/0/0",
            b"-",
            b":",
            "\u2026".encode(),
            b"\xe2\x80",
        ]
    )
    ops = [
        st.builds(drop, idx),
        st.builds(duplicate, idx),
        st.builds(truncate_line, idx, small),
        st.builds(swap_columns, idx, st.integers(0, 20), st.integers(0, 20)),
        st.builds(letters_for_digits, idx, st.integers(1, 4)),
        st.builds(tabs_for_spaces, idx),
        st.builds(inject, idx, small, junk),
    ]
    if corpus_lines:
        ops.append(st.builds(splice, st.sampled_from(corpus_lines), idx, st.integers(1, 40)))
    return st.one_of(ops)


def apply(lines: Lines, ops: list[Callable[[Lines], Lines]]) -> Lines:
    for op in ops:
        lines = op(lines)
    return lines
