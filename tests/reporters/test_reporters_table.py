"""Terminal table: content, width adaptation, colour switch, profiles without layers."""

from __future__ import annotations

from rich.cells import cell_len

from rknnprof.reporters import REPORTERS, SUFFIXES, for_suffix, get_reporter
from rknnprof.reporters.registry import format_names

from .report_samples import HAND_REPORT, NO_LAYERS_REPORT, render


def test_registry_names_and_suffixes() -> None:
    for name in format_names("analyze"):
        assert name in REPORTERS
        assert get_reporter(name).name == name
    assert for_suffix("out/report.md") == "markdown"
    assert for_suffix("r.CSV") == "csv"
    assert for_suffix("r.htm") == "html" and for_suffix("r.html") == "html"
    assert for_suffix("r.txt") == "table"
    assert for_suffix("run.trace") == "trace"
    assert for_suffix("run.perfetto.json") == "trace"
    assert for_suffix("report.json") == "json"  # json wins for a plain .json
    assert for_suffix("report.unknown") is None
    for suffix, name in SUFFIXES.items():
        assert name in REPORTERS, suffix


def test_summary_top_layers_and_advice_at_80_columns() -> None:
    text = render("table", HAND_REPORT, width=80)
    lines = text.splitlines()
    assert all(cell_len(line) <= 80 for line in lines)
    assert lines[0] == "yolov8n_demo.rknn (logs/yolo_rk3588.txt:3-40)"
    # 11640 us by hand: 12+1888+534+1195+113+2002+922+3150+1338+0+429+57; CPU 12+3150+57
    assert "total 11.64 ms (its total line 11.65 ms)" in lines[1]
    assert "NPU 72.3% / CPU 27.7%" in lines[1]
    # the InputOperator row's shape and the NPU's data types, wrapped at 80
    assert lines[2] == "input 1x3x640x640 · INT8/UINT8 on the NPU"
    # bandwidth = Split 1195 + Concat 2002 = 3197 / 11640 = 27.5%
    assert "bandwidth 27.5%" in lines[3] and "unknown 12.5%" in lines[3]
    assert "runtime 2.3.2 · driver 0.9.8" in text
    top = [line for line in lines if line.lstrip().startswith(("8 ", "6 ", "2 "))]
    assert top[0].split()[:2] == ["8", "Transpose"]  # slowest first
    assert "3,150" in top[0] and "27.1%" in top[0] and top[0].rstrip().endswith("cpu")
    assert "1x80x80x64" not in text  # no output-shape column at 80
    assert " 1. RKN001 · error · cpu-fallback · saves ~2,835 us (24.3%)" in lines  # of 11,650
    assert "1 skipped row · 1 warning" in lines


def test_wide_terminal_shows_shapes_and_full_names() -> None:
    text = render("table", HAND_REPORT, width=160)
    assert all(cell_len(line) <= 160 for line in text.splitlines())
    assert "Output" in text and "1x80x80x64" in text
    assert "Conv:/model.22/cv3.1/cv3.1.2/Conv" in text  # not shortened at 160


def test_top_n_limits_rows() -> None:
    text = render("table", HAND_REPORT, top=3)
    assert "Top 3 of 12 layers by time" in text


def test_colour_only_when_asked() -> None:
    assert "\x1b[" not in render("table", HAND_REPORT, color=False)
    assert "\x1b[" in render("table", HAND_REPORT, color=True)


def test_profiles_without_layers_render_sensibly() -> None:
    text = render("table", NO_LAYERS_REPORT)
    assert "op-type ranking only" in text and "Pow" in text and "9,000" in text
    assert "totals only" in text and "total 7.02 ms" in text
    assert "35.93 FPS" in text and "3 runs 27.55-28.02 ms" in text
    assert "ESTIMATE: build-time table" in text
    # estimates have cycles, no time: ranked by max(DDR, NPU): #2 921,600, #4 623,388, #3 230,400
    estimate = text.split("[4/4]")[1]
    assert "Top 3 of 3 layers by ESTIMATED cycles" in estimate and "DDR cyc" in estimate
    rows = [line.split() for line in estimate.splitlines()]
    assert [r[0] for r in rows if r and r[0] in ("2", "3", "4")] == ["2", "4", "3"]
    assert "est. 1,775,388 cycles" in estimate  # 921600 + 230400 + 623388
    assert "Time by op type" not in text.split("[4/4]")[1]  # no op table of zeros


def test_bars_are_rich_bars() -> None:
    """The layer table's share bars are the blocks rich's ``Bar`` draws, written as text."""
    from rich.bar import Bar
    from rich.console import Console

    from rknnprof.reporters.table import bar_text

    console = Console(width=40, color_system=None)
    for share in (0.0, 0.0001, 0.013, 0.2, 0.33, 0.5, 0.999, 1.0):
        for width in (8, 12, 20):
            with console.capture() as capture:
                console.print(Bar(size=1.0, begin=0, end=share, width=width))
            assert capture.get().rstrip() == bar_text(share, 1.0, width), (share, width)


def test_the_summary_names_the_input_shapes_it_has() -> None:
    """``input 1x3x640x640``; two inputs ``inputs a, b``; an InputOperator with an empty shape
    ``()`` adds nothing (it printed a bare ``input``)."""
    from rknnprof.model import Layer, Profile, SourceSpan, Target
    from rknnprof.reporters._facts import input_text

    def at(*shapes):
        layers = [
            Layer(id=i, op_type="InputOperator", target=Target.CPU, output_shapes=(s,))
            for i, s in enumerate(shapes)
        ]
        return Profile(source=SourceSpan("x"), format="t", layers=tuple(layers))

    assert input_text(at((1, 3, 640, 640))) == "input 1x3x640x640"
    assert input_text(at((1, 3, 64, 64), (1, 10))) == "inputs 1x3x64x64, 1x10"
    assert input_text(at(())) == ""


def test_names_cut_to_the_same_text_are_cut_at_their_start() -> None:
    """Cut in the middle, layers 6 and 7 of corpus 01 both read ``/model.2/m.0/c…/conv/Conv``;
    cut at the start they read ``…odel.2/m.0/cv1/conv/Conv`` and ``…cv2/conv/Conv``."""
    from rknnprof.reporters._text import shorten_all

    names = [
        "Conv:/model.2/m.0/cv1/conv/Conv",
        "Conv:/model.2/m.0/cv2/conv/Conv",
        "Conv:/model.0/conv/Conv",
    ]
    assert shorten_all(names, 25) == [
        "…odel.2/m.0/cv1/conv/Conv",
        "…odel.2/m.0/cv2/conv/Conv",
        "/model.0/conv/Conv",
    ]
    assert shorten_all(["Conv:/a/b", "Add:/a/c"], 25) == ["Conv:/a/b", "Add:/a/c"]


def test_names_lose_their_op_prefix_all_or_none() -> None:
    """A public FP16 table's column: one name too long kept the others' ``Reshape:`` while it
    lost its own; one form for the column now."""
    from rknnprof.reporters._text import shorten_all

    names = ["Reshape:prop_out_channels_rs", "Reshape:prop_q_groups", "Conv:audit_original_2conv"]
    assert shorten_all(names, 24) == [
        "prop_out_channels_rs",
        "prop_q_groups",
        "audit_original_2conv",
    ]
    assert shorten_all(names[1:2], 24) == ["Reshape:prop_q_groups"]


def test_header_paths_fit_by_cells_and_never_print_alike() -> None:
    """Two paths that differ in a middle folder printed alike once cut (``…/run.txt →
    …/run.txt``), and CJK paths were cut by characters: the header took 169 columns of 100."""
    from rich.cells import cell_len

    from rknnprof.reporters._text import fit_paths

    twins = [f"/logs/{'p' * 30}/{side}/{'x' * 30}/run.txt" for side in "ab"]
    assert fit_paths(twins, 80) == twins
    # alike cut in the middle, told apart by their ends: the file names
    runs = [f"/logs/{'p' * 30}/{side}-run-of-the-model-123456.txt" for side in ("bas", "cur")]
    assert fit_paths(runs, 80) == ["…" + runs[0][-39:], "…" + runs[1][-39:]]
    cjk = fit_paths(["/数据/" + "模型日志" * 20 + ".txt", "/b.txt"], 80)
    assert sum(map(cell_len, cjk)) <= 80 and cjk[0].endswith("模型日志.txt")
