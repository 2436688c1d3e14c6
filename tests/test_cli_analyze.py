"""``rknnprof analyze``: exit codes, messages, formats, output files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from rknnprof.cli import cli

SAMPLE = "sample_logs/yolov5s_rk3588_perf.txt"


@pytest.fixture
def run(monkeypatch):
    monkeypatch.chdir(__import__("pathlib").Path(__file__).resolve().parent.parent)

    def invoke(*args: str, input: bytes | None = None):
        return CliRunner().invoke(cli, ["analyze", *args], input=input)

    return invoke


def test_json_to_stdout(run):
    result = run("-f", "json", SAMPLE)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    (profile,) = data["profiles"]
    assert profile["platform"] == "rk3588" and len(profile["layers"]) == 89


def test_missing_path_is_usage_error(run):
    result = run("no/such/log.txt")
    assert result.exit_code == 2
    assert "does not exist" in result.stderr


@pytest.mark.parametrize(
    ("prefix", "words"),
    [
        (
            "24_",
            "runtime information only (runtime 2.0.0b0, driver 0.9.2, toolkit-lite2 2.1.0), no per-layer table",
        ),
        ("34_", "runtime information only (runtime 2.3.0, driver 0.9.8"),
        ("25_", "line 8: an error the failures catalogue does not know: `ValueError: substring"),
        ("16_", "a perf table header without complete rows only (line 2, 1 cut row(s))"),
        ("13_", "a perf table title without its header"),
    ],
)
def test_no_profile_data_exit_3_one_line(run, corpus, prefix, words):
    path = corpus(prefix)
    result = run("-f", "json", str(path))
    assert result.exit_code == 3
    assert words in json.loads(result.stdout)["no_profile"]  # the document all the same
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith(f"Error: {path}: ") and words in lines[0]


def test_reduced_runtime_is_not_named_librknnrt(run):
    """RV1106/RV1103 print librknnmrt (rknn-toolkit2 issue 557): the message says "runtime",
    as the reports do, not the name of the other library."""
    log = (
        "I RKNN: [10:01:02.003] RKNN Runtime Information, librknnmrt version: 2.3.2 "
        "(429f97ae6b@2025-04-09T09:11:49)\n"
    )
    result = run("-", input=log.encode())
    assert result.exit_code == 3
    assert "runtime information only (runtime 2.3.2)" in result.stderr
    assert "librknnrt" not in result.stderr


def test_rknn_servers_logcat_says_it_holds_runtime_information(run):
    """airockchip/rknn-toolkit2 issue 403: an Android board's logcat of rknn_server (tag
    SERVER), its version and the runtime it loaded among SELinux denials, said "no RKNN profile
    data in 4 line(s)": it holds runtime information, as a librknnrt line does."""
    log = (
        "07-21 18:23:13.178 2322 2322 D SERVER : librknnrt path = /vendor/lib64/librknnrt.so \n"
        "07-21 18:23:13.173 2498 2498 I rknn_server: type=1400 audit(0.0:133): avc: denied { "
        'execute_no_trans } for path="/vendor/bin/sh" dev="overlay" ino=191 '
        "scontext=u:r:rknn_server:s0 tcontext=u:object_r:vendor_shell_exec:s0 tclass=file "
        "permissive=1 \n"
        "07-21 18:23:13.495 2322 2322 D SERVER : rknn_server version: 2.3.2 (1842325 "
        "build@2025-03-30T09:54:16) \n"
        "07-21 18:23:13.495 2322 2322 D SERVER : rknnrt: 2.3.2 (429f97ae6b@2025-04-09T09:08:16) \n"
    )
    result = run("-", input=log.encode())
    assert result.exit_code == 3
    assert "runtime information only (runtime 2.3.2, rknn_server 2.3.2), no per-layer table" in (
        result.stderr
    )


def test_a_c_demos_failure_names_the_driver_its_user_quoted(run):
    """airockchip/rknn-toolkit2 issue 405: librknnrt's version line, the driver as `rknpu 0.9.8
    20240828`, then the model file refused; the exit-3 line named the runtime alone."""
    log = (
        "librknnrt version: 2.3.2 (429f97ae6b@2025-04-09T09:09:27)\n"
        "rknpu 0.9.8 20240828\n"
        "parseRKNN: invalid RKNN_MAGIC!\n"
        "parseRKNN from buffer: Invalid RKNN fromat!\n"
    )
    result = run("-", input=log.encode())
    assert result.exit_code == 3
    assert result.stderr.rstrip().endswith(
        "; the log also holds runtime information (runtime 2.3.2, driver 0.9.8)"
    )


def test_the_applications_own_error_is_not_the_runtimes(run):
    """A board log whose app crashed in its own json.dump after its runs: exit 3 with what the
    log holds, the runtime's versions and the app's error named as its own (it was an
    'unknown' runtime failure that hid the versions)."""
    log = (
        "I RKNN: [10:01:02.003] RKNN Runtime Information, librknnrt version: 2.3.2 "
        "(429f97ae6b@2025-04-09T09:11:49)\n"
        "Traceback (most recent call last):\n"
        '  File "/root/app/board_eval_v2.py", line 266, in main\n'
        "    json.dump(summary, f, indent=2)\n"
        "TypeError: Object of type bool is not JSON serializable\n"
    )
    result = run("-f", "json", "-", input=log.encode())
    assert result.exit_code == 3
    assert json.loads(result.stdout)["failures"] == []
    assert (
        "runtime information (runtime 2.3.2) and the application's own error (line 5: "
        "TypeError: Object of type bool is not JSON serializable) only, no per-layer table"
    ) in result.stderr


def test_a_syntax_error_is_the_applications_own(run):
    """Python reports a script that does not compile with the frame alone (no ``Traceback``
    line): the script's own error, not a runtime failure 'the catalogue does not know' to be
    searched in the RKNN trackers."""
    log = (
        '  File "/home/user/demo/app.py", line 3\n'
        '    print "running"\n'
        "    ^^^^^^^^^^^^^^^\n"
        "SyntaxError: Missing parentheses in call to 'print'. Did you mean print(...)?\n"
    )
    result = run("-f", "json", "-", input=log.encode())
    assert result.exit_code == 3
    assert json.loads(result.stdout)["failures"] == []
    assert "the application's own error only (line 4: SyntaxError: Missing parentheses" in (
        result.stderr
    )
    assert "catalogue" not in result.stderr


def test_empty_stdin_exit_3(run):
    result = run("-f", "json", "-", input=b"")
    assert result.exit_code == 3 and "Error: <stdin>: empty input" in result.stderr


def test_stdin_dash(run, corpus):
    data = corpus("07_").read_bytes()
    result = run("-f", "json", "-", input=data)
    assert result.exit_code == 0
    assert json.loads(result.stdout)["profiles"][0]["source"]["path"] == "<stdin>"


def test_warnings_go_to_stderr_with_path_and_line(run, corpus):
    path = corpus("10_")
    result = run("-f", "json", str(path))
    assert result.exit_code == 0
    assert f"Warning: {path}:6: skipped row: row cut short: no Time(us)" in result.stderr
    assert "Warning" not in result.stdout


def test_output_file_suffix_picks_format(run, tmp_path):
    out = tmp_path / "report.json"
    result = run("-o", str(out), SAMPLE)
    assert result.exit_code == 0 and result.stdout == ""
    assert json.loads(out.read_text())["schema_version"] == 1
    assert [p.name for p in tmp_path.iterdir()] == ["report.json"]


def test_output_file_has_ordinary_permissions(run, tmp_path):
    import os

    out = tmp_path / "report.html"
    old = os.umask(0o022)
    try:
        assert run("-o", str(out), SAMPLE).exit_code == 0
    finally:
        os.umask(old)
    assert out.stat().st_mode & 0o777 == 0o644


def test_unknown_suffix_without_format_is_usage_error(run, tmp_path):
    result = run("-o", str(tmp_path / "report.xyz"), SAMPLE)
    assert result.exit_code == 2 and not (tmp_path / "report.xyz").exists()


def test_exit_3_writes_the_whole_document_to_the_file(run, corpus, tmp_path):
    out = tmp_path / "r.json"
    result = run("-o", str(out), str(corpus("24_")))
    assert result.exit_code == 3 and list(tmp_path.iterdir()) == [out]
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["profiles"] == [] and "runtime information only" in report["no_profile"]


def test_fail_on(run, monkeypatch):
    from rknnprof import api
    from rknnprof.model import Finding, Severity

    def fake_rules(profile, context=None, rules=None):
        return (Finding("RKN999", "test", Severity.WARNING, "m", "f"),)

    monkeypatch.setattr("rknnprof.rules.run_rules", fake_rules)
    assert api  # rules are looked up at call time
    assert run("-f", "json", "--fail-on", "warning", SAMPLE).exit_code == 1
    assert run("-f", "json", "--fail-on", "error", SAMPLE).exit_code == 0


def test_bound_ratio_option(run):
    low = json.loads(run("-f", "json", "--bound-ratio", "1.01", SAMPLE).stdout)
    high = json.loads(run("-f", "json", "--bound-ratio", "100", SAMPLE).stdout)
    count = lambda d, b: sum(la["bound"] == b for la in d["profiles"][0]["layers"])  # noqa: E731
    assert count(high, "balanced") > count(low, "balanced")
    assert run("-f", "json", "--bound-ratio", "1", SAMPLE).exit_code == 2


def test_platform_option_overrides(run):
    data = json.loads(run("-f", "json", "--platform", "RK3576", SAMPLE).stdout)
    assert data["profiles"][0]["platform"] == "rk3576"
    assert data["profiles"][0]["platform_basis"] == "--platform"


def test_default_format_is_the_terminal_table(run):
    result = run(SAMPLE)
    assert result.exit_code == 0
    assert "Top 15 of 89 layers by time" in result.stdout


def test_select_and_ignore_rules_by_code_prefix(run, corpus):
    log = str(corpus("36_"))
    codes = lambda r: {f["code"] for f in json.loads(r.stdout)["profiles"][0]["findings"]}  # noqa: E731
    every = codes(run("-f", "json", log))
    assert {"RKN020", "RKN061"} <= every
    assert codes(run("-f", "json", "--select", "RKN02", log)) == {"RKN020"}
    assert "RKN020" not in codes(run("-f", "json", "--ignore", "RKN020", log))
    assert codes(run("-f", "json", "--select", "RKN0", "--ignore", "RKN06", log)) == every - {
        "RKN061"
    }
    bad = run("--select", "RKN9", log)
    assert bad.exit_code == 2 and "RKN9" in bad.output


def test_color_choice(monkeypatch):
    from rknnprof.cli.output import use_color

    monkeypatch.delenv("NO_COLOR", raising=False)
    assert use_color("auto", True) and not use_color("auto", False)
    assert use_color("always", False) and not use_color("never", True)
    monkeypatch.setenv("NO_COLOR", "1")
    assert not use_color("auto", True)


def test_runtime_lines_alone_say_when_the_driver_is_too_old(run):
    """FastDeploy's RKNPU2 backend prints ``rknpu2 runtime version: 1.5.1b19`` and ``rknpu2
    driver version: 0.4.2`` (FastDeploy issue 2211): the runtime was not read, and a driver
    far below 0.8.8 went unsaid, since no rule runs on a log without a profile."""
    log = (
        "[INFO] fastdeploy/runtime/backends/rknpu2/rknpu2_backend.cc(81)::GetSDKAndDeviceVersion"
        "\trknpu2 runtime version: 1.5.1b19 (32afb0e92@2023-07-14T12:46:17)\n"
        "[INFO] fastdeploy/runtime/backends/rknpu2/rknpu2_backend.cc(82)::GetSDKAndDeviceVersion"
        "\trknpu2 driver version: 0.4.2\n"
    )
    result = run("-", input=log.encode())
    assert result.exit_code == 3
    assert (
        "runtime information only (runtime 1.5.1b19, driver 0.4.2; its RKNPU driver 0.4.2 is "
        "older than 0.8.8 beside runtime 1.5.1b19: update the board's kernel and driver)"
    ) in " ".join(result.stderr.split())


def test_two_versions_of_one_library_are_said(run, tmp_path):
    """A stray ``rknnrt: 1.4.0`` line before the runtime's own 2.3.2: the first was reported
    without a word (and compare then saw another runtime)."""
    sample = Path(__file__).resolve().parents[1] / "sample_logs" / "yolov5s_rk3588_perf.txt"
    path = tmp_path / "two.txt"
    path.write_text("rknnrt: 1.4.0 (a10f100eb@2022-09-09T09:07:14)\n" + sample.read_text())
    result = run(str(path))
    assert result.exit_code == 0
    assert (
        f"Warning: {path}:2: the log names two runtime versions, 1.4.0 (line 1) and 2.3.2 "
        "(here): the first is the one reported"
    ) in result.stderr


def test_a_terminal_shows_each_warning_once(tmp_path, capsys, monkeypatch):
    """stdout and stderr on one terminal: the report's own warnings, not stderr's copy above
    it (every warning was printed twice); piped, stderr still carries them."""
    from rknnprof.cli import output
    from tests.hostile.helpers import run

    sample = Path(__file__).resolve().parent.parent / "sample_logs"
    text = (sample / "yolov5s_rk3588_loglevel4_3frames.txt").read_text(encoding="utf-8")
    log = tmp_path / "twice.txt"
    log.write_text(text + text, encoding="utf-8")  # (a warning: the frames repeat)
    said = "this frame repeats the frame at line 5"
    code, out, err = run(capsys, monkeypatch, "analyze", str(log))
    assert code == 0 and said in err
    monkeypatch.setattr(output, "one_terminal", lambda: True)
    code, out, err = run(capsys, monkeypatch, "analyze", str(log))
    assert code == 0 and said in " ".join(out.split()) and said not in err


def test_a_one_column_terminal_gets_forty_columns():
    """``COLUMNS=1`` printed the report one character a line: it is drawn at 40 columns."""
    from click.testing import CliRunner

    from rknnprof.cli import cli

    sample = Path(__file__).resolve().parent.parent / "sample_logs" / "yolov5s_rk3588_perf.txt"
    result = CliRunner().invoke(cli, ["analyze", str(sample)], env={"COLUMNS": "1"})
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert max(map(len, lines)) <= 40 and lines[1].startswith("verdict: complete: 89 rows")
