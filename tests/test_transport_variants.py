"""Issue #2, done-when: the same numbers come out of a corpus table however it reaches us —
a file, stdin, every line behind ``D RKNN: [..]``, wrapped in ``adb logcat -v threadtime``
lines with tag RKNN, CRLF line ends, UTF-16 with a BOM, indented as in a docs page, or quoted.

Expected values are read from the logs (row counts, the total line, a few rows checked by eye).
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from rknnprof.cli import cli


def runtime_prefixed(text: str) -> bytes:
    return "".join(f"D RKNN: [10:00:00.000] {line}\n" for line in text.splitlines()).encode()


def logcat_threadtime(text: str) -> bytes:
    return "".join(
        f"11-30 10:00:00.{i % 1000:03d}  2345  2399 D RKNN    : {line}\n"
        for i, line in enumerate(text.splitlines())
    ).encode()


VARIANTS = {
    "plain": lambda t: t.encode(),
    "runtime-prefix": runtime_prefixed,
    "logcat-threadtime": logcat_threadtime,
    "crlf": lambda t: t.replace("\n", "\r\n").encode(),
    "utf16-bom": lambda t: t.encode("utf-16"),  # Python writes the BOM for "utf-16"
    # pasted from a documentation page's code block: every line indented
    "indented": lambda t: "".join(f"    {line}\n" for line in t.splitlines()).encode(),
    # quoted in an issue or a README: every line behind a Markdown blockquote marker
    "blockquote": lambda t: "".join(f"> {line}\n" for line in t.splitlines()).encode(),
}

# corpus prefix, layers, total line (us), {id: (op_type, target, time_us)} read from the log
EXPECTED = {
    "01_": (
        108,
        128441,
        {
            2: ("ConvExSwish", "NPU", 16130),
            5: ("Split", "NPU", 1195),
            108: ("OutputOperator", "CPU", 23),
        },
    ),
    "07_": (
        93,
        14478,
        {2: ("Conv", "NPU", 810), 38: ("ConvExSwish", "NPU", 56), 93: ("OutputOperator", "CPU", 9)},
    ),
    "36_": (168, 20344, {63: ("exSDPAttention", "NPU", 1338), 168: ("OutputOperator", "CPU", 2)}),
    "04_": (2, 14147, {1: ("InputOperator", "CPU", 7), 2: ("ConvRelu", "NPU", 428)}),
}


def analyze_bytes(data: bytes, tmp_path, via_stdin: bool) -> dict:
    if via_stdin:
        result = CliRunner().invoke(cli, ["analyze", "-f", "json", "-"], input=data)
    else:
        path = tmp_path / "log.txt"
        path.write_bytes(data)
        result = CliRunner().invoke(cli, ["analyze", "-f", "json", str(path)])
    assert result.exit_code == 0, result.output
    (profile,) = json.loads(result.stdout)["profiles"]
    return profile


@pytest.mark.parametrize("via_stdin", [False, True], ids=["file", "stdin"])
@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("prefix", sorted(EXPECTED))
def test_same_numbers_whatever_the_transport(corpus, tmp_path, prefix, variant, via_stdin):
    layers, total, rows = EXPECTED[prefix]
    text = corpus(prefix).read_text(encoding="utf-8")
    profile = analyze_bytes(VARIANTS[variant](text), tmp_path, via_stdin)
    assert len(profile["layers"]) == layers
    assert profile["reported_total_time_us"] == total
    if prefix != "04_":  # 04 elides its rows, so the rows cannot add up to the total line
        assert profile["total_time_us"] == total
    by_id = {layer["id"]: layer for layer in profile["layers"]}
    for layer_id, (op_type, target, time_us) in rows.items():
        layer = by_id[layer_id]
        assert (layer["op_type"], layer["target"], layer["time_us"]) == (op_type, target, time_us)
