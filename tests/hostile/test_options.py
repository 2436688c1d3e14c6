"""Option values that used to be accepted and quietly change the verdict, and the shape of
usage errors."""

from __future__ import annotations

import pytest

from tests.hostile.helpers import SAMPLE, run


@pytest.mark.parametrize("value", ["nan", "inf", "NaN"])
def test_bound_ratio_must_be_finite(value, capsys, monkeypatch):
    code, out, err = run(capsys, monkeypatch, "analyze", str(SAMPLE), "--bound-ratio", value)
    assert code == 2 and out == ""
    assert err == (
        f"Error: --bound-ratio: {value!r} is not a finite number (see 'rknnprof analyze --help')\n"
    )


@pytest.mark.parametrize("value", ["nan", "inf"])
def test_fail_over_must_be_finite(value, capsys, monkeypatch):
    code, _, err = run(
        capsys, monkeypatch, "compare", str(SAMPLE), str(SAMPLE), "--fail-over", value
    )
    assert code == 2
    assert "is not a finite number" in err and err.count("\n") == 1


@pytest.mark.parametrize("value", ["1_0", "5_%"])
def test_fail_over_refuses_digit_separators(value, capsys, monkeypatch):
    """``--fail-over 1_0`` was read as 10 (Python's float syntax)."""
    code, _, err = run(
        capsys, monkeypatch, "compare", str(SAMPLE), str(SAMPLE), "--fail-over", value
    )
    assert code == 2 and f"{value!r} is not a number" in err


def test_fail_over_takes_a_percent_sign(capsys, monkeypatch):
    code, _, err = run(
        capsys, monkeypatch, "compare", str(SAMPLE), str(SAMPLE), "--fail-over", "5%"
    )
    assert code == 0, err


@pytest.mark.parametrize(
    "args",
    [
        ["analyze", "--top", "x", str(SAMPLE)],
        ["analyze", "--no-such-option"],
        ["no-such-command"],
        ["analyze", "/no/such/file"],
        ["compare", str(SAMPLE)],
        ["check", str(SAMPLE), "--fail-on", "sometimes"],
    ],
)
def test_usage_errors_are_one_line(args, capsys, monkeypatch):
    code, out, err = run(capsys, monkeypatch, *args)
    assert code == 2 and out == ""
    assert err.startswith("Error: ") and err.count("\n") == 1, err
    assert "--help')" in err


def test_format_and_suffix_disagree_is_a_warning(tmp_path, capsys, monkeypatch):
    out = tmp_path / "x.html"
    code, _, err = run(capsys, monkeypatch, "analyze", str(SAMPLE), "-f", "json", "-o", str(out))
    assert code == 0
    assert err == (
        f"Warning: {out}: the suffix means html, but the report is json "
        "(--format json); written as json\n"
    )
    assert out.read_text().startswith("{")


def test_trace_may_go_to_json(tmp_path, capsys, monkeypatch):
    code, _, err = run(
        capsys, monkeypatch, "analyze", str(SAMPLE), "-f", "trace", "-o", str(tmp_path / "t.json")
    )
    assert code == 0 and err == ""


@pytest.mark.parametrize("value", ["５", "٥"])
def test_fail_over_refuses_digits_that_are_not_ascii(value, capsys, monkeypatch):
    code, _, err = run(
        capsys, monkeypatch, "compare", str(SAMPLE), str(SAMPLE), "--fail-over", value
    )
    assert code == 2 and "is not a number" in err


def test_expect_refuses_a_bare_share_above_one(capsys, monkeypatch):
    """``--expect RKN070:5`` was read as 500 % (budgets refuse a bare 5 as ambiguous)."""
    code, _, err = run(
        capsys, monkeypatch, "compare", str(SAMPLE), str(SAMPLE), "--expect", "RKN070:5"
    )
    assert code == 2 and "5 would mean 500%; write 5% or 0.05" in err
