"""Memory tables and error reports: recognised, never read as layer tables, never crash."""

from __future__ import annotations

from parser_helpers import corpus_lines, lines_of, of_type, run

from rknnprof.inputs.lines import Line
from rknnprof.parsers.build_table import BuildTableParser
from rknnprof.parsers.error_reports import ErrorReportParser
from rknnprof.parsers.events import FailureEvent, NoteEvent, TableEvent
from rknnprof.parsers.known_failures import KnownFailureParser
from rknnprof.parsers.memory_tables import MemoryTableParser
from rknnprof.parsers.toolkit1 import Toolkit1TableParser

ALL = [
    KnownFailureParser(),
    Toolkit1TableParser(),
    BuildTableParser(),
    MemoryTableParser(),
    ErrorReportParser(),
]


def test_corpus_06_sram_table_is_one_note(corpus) -> None:
    events = run(ALL, corpus_lines(corpus("06_")))
    assert of_type(events, TableEvent) == []
    [note] = of_type(events, NoteEvent)
    # 31 rows (IDs 1..31), from line 2 (SRAM size) to the closing rule on line 45.
    assert note.kind == "table" and "SRAM" in note.message and "31 rows" in note.message
    assert (note.line, note.last_line) == (2, 45)


def test_corpus_35_memory_table_is_one_note(corpus) -> None:
    events = run(ALL, corpus_lines(corpus("35_")))
    assert of_type(events, TableEvent) == []
    [note] = of_type(events, NoteEvent)
    # Rows 67..74 with ID 72 twice: nine complete rows, then `75  Concat` cut.
    assert "9 rows" in note.message and "SRAM" not in note.message
    assert note.last_line == 10


def test_corpus_25_traceback_names_the_exception(corpus) -> None:
    [note] = of_type(run(ALL, corpus_lines(corpus("25_"))), NoteEvent)
    assert note.kind == "error" and note.message == "ValueError: substring not found"
    assert (note.line, note.last_line) == (1, 8)


def test_corpus_22_error_path(corpus) -> None:
    events = run(ALL, corpus_lines(corpus("22_")))
    # lines 1, 8 and 15 (the exception line) say the perf detail is empty: catalogue lines;
    # the rest of the traceback stays an error note
    assert [(e.failure.id, e.line) for e in of_type(events, FailureEvent)] == [
        ("perf-detail-empty", 1),
        ("perf-detail-empty", 8),
        ("perf-detail-empty", 15),
    ]
    assert any(n.kind == "error" for n in of_type(events, NoteEvent))


def test_corpus_21_perf_run_failure(corpus) -> None:
    events = run(ALL, corpus_lines(corpus("21_")))
    assert of_type(events, NoteEvent) == []
    [failure] = of_type(events, FailureEvent)
    assert (failure.failure.id, failure.line) == ("perf-run-failed", 10)
    assert failure.failure.text.startswith("IOCTL_CMD_PERF_RUN fail, ack=0")


def test_corpus_39_logcat_error_lines(corpus) -> None:
    events = run(ALL, corpus_lines(corpus("39_")))
    [failure] = of_type(events, FailureEvent)
    assert failure.failure.id == "model-platform-mismatch" and failure.line == 1
    [note] = of_type(events, NoteEvent)
    assert note.message == "rknn_init, load model failed!"


def test_corpus_13_c_demo_header_does_not_crash(corpus) -> None:
    events = run(ALL, corpus_lines(corpus("13_")))
    assert of_type(events, TableEvent) == []


def test_level_from_lines_stage_is_used() -> None:
    [note] = of_type(
        run(ErrorReportParser(), [Line(3, "rknn_init, load model failed!", (1, 1), "E", "RKNN")]),
        NoteEvent,
    )
    assert note.message == "rknn_init, load model failed!"


def test_version_line_at_e_level_is_not_an_error() -> None:
    assert run(ErrorReportParser(), lines_of("E rknn-toolkit2 version: 2.3.2")) == []


def test_another_components_error_is_not_the_runtimes() -> None:
    """rknn-toolkit2 issue 256 (Android Studio logcat): the camera's ``E Camera: Error 1`` is
    not what failed in an RKNN app; an app's line that names the runtime is."""
    camera = Line(3, "Error 1", (7928, 7928), "E", "Camera")
    app = Line(4, "rknn_init fail! ret=-6", (7928, 7943), "E", "rkyolo4j")
    assert run(ErrorReportParser(), [camera]) == []
    [note] = of_type(run(ErrorReportParser(), [camera, app]), NoteEvent)
    assert (note.message_line, note.message) == (4, "rknn_init fail! ret=-6")


def test_a_version_banner_does_not_crowd_out_the_error_code() -> None:
    """rknn-toolkit 1.7.5 on RV1126 (a public issue thread's lines, its first one, now
    catalogued, replaced by an error line that is not): the RKNNAPI version banner filled the
    context, and the exception naming RKNN_ERR_MODEL_INVALID was cut."""
    text = "\n".join(
        [
            "E RKNNAPI: rknn_init, rknn_server replied an error (-5)!",  # (not catalogued)
            "E RKNNAPI: ==============================================",
            "E RKNNAPI: RKNN VERSION:",
            "E RKNNAPI:   API: 1.7.5 (bb79b30 build: 2023-06-20 09:54:19)",
            "E RKNNAPI:   DRV: 1.7.5 (bb79b30 build: 2023-07-18 10:56:54)",
            "E RKNNAPI: ==============================================",
            "E Catch exception when init runtime!",
            "E Traceback (most recent call last):",
            'E   File "rknn/api/rknn_base.py", line 1008, in rknn.api.rknn_base.RKNNBase.init_runtime',
            "E Exception: RKNN init failed. error code: RKNN_ERR_MODEL_INVALID",
        ]
    )
    [note] = of_type(run(ErrorReportParser(), lines_of(text)), NoteEvent)
    assert note.message.startswith("rknn_init, rknn_server replied an error")
    assert any("error code: RKNN_ERR_MODEL_INVALID" in c for c in note.context), note.context
    assert not [c for c in note.context if "RKNN VERSION" in c or c.startswith("===")]


def test_a_traceback_of_the_applications_own_code_is_its_own_error() -> None:
    """A public board log (RK3588, lite2 2.3.2): after ten episodes ran, the app's
    ``json.dump`` of its results raised a TypeError, nothing of the NPU. It is the application's
    own error (``app-error``), not the runtime's failure; a traceback through the toolkit (a
    frame in ``rknn/api``) or a call of it in the app still is one."""
    own = lines_of(
        "Traceback (most recent call last):\n"
        '  File "/root/Fast-LeWorldModel/board_eval_v2.py", line 266, in main\n'
        "    json.dump(summary, f, indent=2)\n"
        '  File "/usr/lib/python3.10/json/encoder.py", line 179, in default\n'
        "TypeError: Object of type bool is not JSON serializable"
    )
    [note] = of_type(run(ErrorReportParser(), own), NoteEvent)
    assert note.kind == "app-error"
    assert note.message == "TypeError: Object of type bool is not JSON serializable"
    toolkit = lines_of(
        "Traceback (most recent call last):\n"
        '  File "rknn/api/rknn_base.py", line 1008, in init_runtime\n'
        "Exception: RKNN init failed. error code: RKNN_ERR_MODEL_INVALID"
    )
    called = lines_of(
        "Traceback (most recent call last):\n"
        '  File "demo.py", line 40, in <module>\n'
        "    boxes = outputs[0]  # rknn_lite.inference returned None\n"
        "TypeError: 'NoneType' object is not subscriptable"
    )
    for lines in (toolkit, called):
        [note] = of_type(run(ErrorReportParser(), lines), NoteEvent)
        assert note.kind == "error"


def test_input_does_not_name_the_npu() -> None:
    """``npu`` inside ``input`` named the NPU: an app's ``json.dump(inputs, …)`` traceback was
    a runtime failure, and Android's ``E InputDispatcher`` line one too."""
    own = lines_of(
        "Traceback (most recent call last):\n"
        '  File "/root/app/eval.py", line 266, in main\n'
        "    json.dump(inputs, f, indent=2)\n"
        "ValueError: invalid input file"
    )
    [note] = of_type(run(ErrorReportParser(), own), NoteEvent)
    assert note.kind == "app-error"
    dispatcher = Line(
        3, "channel 'abc' ~ Channel is unrecoverably broken", (1, 2), "E", "InputDispatcher"
    )
    assert run(ErrorReportParser(), [dispatcher]) == []
    rknpu = Line(4, "RKNPU: soft reset, the iommu is out of order", (1, 2), "E", "kernel")
    assert of_type(run(ErrorReportParser(), [rknpu]), NoteEvent)
