"""The README stays true: its commands name files that exist, its budgets example loads, and the
commands it shows run."""

from __future__ import annotations

import re
from pathlib import Path

from click.testing import CliRunner

from rknnprof.budgets import parse_budgets
from rknnprof.cli import cli

REPO = Path(__file__).resolve().parent.parent
README = (REPO / "README.md").read_text(encoding="utf-8")


def test_first_two_commands_set_up_run_and_test():
    block = re.search(r"```sh\n(.*?)```", README, re.S).group(1).strip().splitlines()
    first, second = block[0], block[1]
    assert first.startswith("python3 -m venv") and second.startswith("python3 -m venv")
    sample = first.rsplit(" ", 1)[1]
    assert (REPO / sample).is_file()
    result = CliRunner().invoke(cli, ["analyze", str(REPO / sample), "--color", "never"])
    assert result.exit_code == 0 and "Advice:" in result.stdout
    assert "'.[test]'" in second and "pytest" in second
    assert "pytest" in (REPO / ".ci" / "run").read_text()


def test_budgets_example_is_a_valid_budgets_file():
    yaml_text = re.search(r"```yaml\n(# rknnprof\.yaml.*?)```", README, re.S).group(1)
    config = parse_budgets(yaml_text, "README.md")
    metrics = {b.metric for b in config.budgets}
    assert {"total_time_us", "layer_time_us", "cpu_fallback_layers"} <= metrics


def test_usage_lines_name_real_commands():
    usage = re.search(r"## Usage\n\n```sh\n(.*?)```", README, re.S).group(1)
    commands = {line.split()[1] for line in usage.splitlines() if line.startswith("rknnprof")}
    assert commands <= set(cli.commands), commands - set(cli.commands)


def test_notebook_example_runs():
    code = re.search(r"### In a notebook\n\n```python\n(.*?)```", README, re.S).group(1)
    sample = str(REPO / "sample_logs" / "yolov5s_rk3588_perf.txt")
    for name in ('"perf.txt"', '"a.txt"', '"b.txt"'):
        code = code.replace(name, repr(sample))
    scope: dict[str, object] = {}
    exec(code, scope)  # noqa: S102 - the README's own example, with a bundled log
    assert len(scope["df"]) == 89 and len(scope["report"].profiles) == 2
