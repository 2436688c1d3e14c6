"""Failures explained: the catalogue (``rknnprof/parsers/failure_catalogue.py``), one test per
entry with a line written from its grammar; an input holding only failures exits 3 with the
diagnosis and the fix (stderr, and JSON ``failures``) through every transport; a failure beside
a table is an RKN080 finding.

Fixtures: ``failure_rv1106_unsupported_op.txt`` (runtime info, then ``unsupport cpu GridSample
op`` on line 3 and ``rknn fallback cpu failed`` on line 4), ``failure_core_mask_with_table.txt``
(``Not support core mask: 3`` on line 3, then a 3-row table, total 153 us).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from grammar_transports import VARIANTS, fixture, profiles, run

from rknnprof.inputs.lines import Line
from rknnprof.parsers.failure_catalogue import CATALOGUE
from rknnprof.parsers.known_failures import KnownFailureParser

DOCS = Path(__file__).resolve().parent.parent.parent / "docs" / "errors.md"

# entry id -> (a line of its grammar, words its diagnosis must hold)
LINES = {
    "unsupported-cpu-op": (
        "E RKNN: unsupport cpu ArgMax op, op name: ArgMax:/ArgMax in current",
        "ArgMax op",
    ),
    "cpu-fallback-failed": ("E RKNN: rknn fallback cpu failed", "could not run a CPU-placed op"),
    "invalid-core-mask": (
        "E RKNN: [17:26:07.646] rknn_set_core_mask: failed to set core mask: 7",
        "core mask 7",
    ),
    "runtime-too-old-for-model": (
        "E RKNN: [01:19:04.510] Invalid RKNN model version 7",
        "model format version 7",
    ),
    "model-platform-mismatch": (
        "E RKNN: The rknn model does not match the RKNPU hardware version!",
        "another NPU",
    ),
    "driver-too-old": (
        "W rkllm: Warning: Your rknpu driver version is too low, please upgrade to 0.9.7",
        "upgrade to 0.9.7",
    ),
    "npu-memory-allocation": (
        "E RKNN: [10:48:59.683] failed to allocate handle, ret: -1, "
        "errno: 12, errstr: Cannot allocate memory",
        "allocate memory",
    ),
    "perf-debug-not-enabled": (
        "AttributeError: /usr/lib64/librknnrt.so: undefined symbol: rknn_get_run_time",
        "rknn_get_run_time",
    ),
    "perf-detail-empty": (
        "E eval_perf: Get model perf detail success, but detail is empty!",
        "empty per-layer perf detail",
    ),
    "perf-run-failed": (
        "W RKNNAPI: IOCTL_CMD_PERF_RUN fail, ack=0, run_duration=-1!",
        "perf run failed",
    ),
    "npu-frequency-unreadable": (
        "W eval_perf: Failed to get NPU freq, use default value",
        "NPU frequency could not be read",
    ),
    "eval-perf-on-simulator": (
        "W eval_perf: The performance evaluation on the simulator is not "
        "accurate, please connect a board",
        "PC simulator",
    ),
}


def test_every_entry_has_a_test_line_and_a_row_in_the_docs():
    assert sorted(LINES) == sorted(e.id for e in CATALOGUE)
    errors = DOCS.read_text(encoding="utf-8")
    assert all(f"| `{e.id}` |" in errors for e in CATALOGUE)
    assert all(e.source.startswith("https://") and e.cause and e.fix for e in CATALOGUE)


@pytest.mark.parametrize("entry", sorted(LINES))
def test_entry_recognises_its_line(entry):
    text, words = LINES[entry]
    block = KnownFailureParser().opens(Line(5, text, None))
    assert block is not None
    [event] = block.close()
    assert event.failure.id == entry and event.failure.line == 5
    assert words in event.failure.diagnosis
    assert "{" not in event.failure.diagnosis + event.failure.fix


@pytest.mark.parametrize(
    "text",
    [
        "I RKNN: [10:00:00.000] RKNN Driver Information, version: 0.9.8",
        "E RKNN: rknn_init, load model failed!",
        "W RKNN: [13:52:53.504] Transpose will fallback to CPU, because input shape has exceeded",
        "D RKNN: set core mask: 3",
        "simulator mode: inference on the PC",
    ],
)
def test_other_lines_are_no_known_failure(text):
    assert KnownFailureParser().opens(Line(1, text, None)) is None


def _failure_only_json(result) -> dict:
    assert result.exit_code == 3, result.output
    [line] = result.stderr.strip().splitlines()
    assert (
        line.startswith("Error: ")
        and (
            ": line 3: the runtime has no CPU kernel for the GridSample op the model put on the CPU; "
            "fix: change the model so that the op runs on the NPU"
        )
        in line
    )
    assert "(and 1 more known failure(s), in the JSON `failures`)" in line
    return json.loads(result.stdout)


@pytest.mark.parametrize("via_stdin", [False, True], ids=["file", "stdin"])
@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_failure_only_input_exits_3_with_the_diagnosis(tmp_path, variant, via_stdin):
    data = VARIANTS[variant](fixture("failure_rv1106_unsupported_op.txt"))
    report = _failure_only_json(run(["analyze", "-f", "json"], data, tmp_path, via_stdin))
    assert report["profiles"] == []
    assert [(f["id"], f["line"]) for f in report["failures"]] == [
        ("unsupported-cpu-op", 3),
        ("cpu-fallback-failed", 4),
    ]
    assert (
        report["failures"][0]["source"] == "https://github.com/airockchip/rknn-toolkit2/issues/482"
    )


def test_failure_only_input_in_the_terminal_prints_no_report(tmp_path):
    result = run(
        ["analyze"], fixture("failure_rv1106_unsupported_op.txt").encode(), tmp_path, False
    )
    assert result.exit_code == 3 and result.stdout == ""
    assert "GridSample" in result.stderr


@pytest.mark.parametrize("via_stdin", [False, True], ids=["file", "stdin"])
@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_failure_beside_a_table_is_a_finding(tmp_path, variant, via_stdin):
    (profile,) = profiles(
        VARIANTS[variant](fixture("failure_core_mask_with_table.txt")), tmp_path, via_stdin
    )
    assert profile["total_time_us"] == 153 and len(profile["layers"]) == 3
    [failure] = profile["failures"]
    assert (failure["id"], failure["line"]) == ("invalid-core-mask", 3)
    [finding] = [f for f in profile["findings"] if f["code"] == "RKN080"]
    assert finding["severity"] == "warning" and finding["est_saving_us"] == 0
    assert finding["message"].startswith("line 3: core mask 3 is not valid for this NPU")
