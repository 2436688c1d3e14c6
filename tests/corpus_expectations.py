"""What each corpus file must give (``test_corpus_outcomes``). Numbers read from the logs:

* complete tables: the log's own ``Total Operator Elapsed … Time(us)`` line, which equals the
  sum of the Time(us) column (FORMATS.md); row counts by ``grep -c`` on the ID column;
* fragments: Time(us) of the complete rows added by hand (03: 3973 + 573 + 1283; 10: 758 + 703
  + 449 + 218 + 454; 11: 178 + 302 + 224 + 290 + 289; 09: 361 + 920 + 896 + 1106 + 430);
* 08: ``awk -F, '{s+=$(NF-8)} END{print NR, s}'`` -> 52 rows, 163836 us;
* ranking-only: the ``Total`` row (27, 28, 43) or the TotalTime column of the rows printed (19);
* 41: median of the ten ``Elapse Time`` values (2.64 and 2.68 ms in the middle) = 2.66 ms.
"""

from __future__ import annotations

PROFILES: dict[str, dict] = {
    "01_": {
        "format": "toolkit2-perf-table",
        "layers": 108,
        "total_time_us": 128441,
        "reported_total_time_us": 128441,
        "ids": list(range(1, 109)),
    },
    "03_": {"format": "toolkit2-perf-table", "layers": 3, "total_time_us": 5829, "ids": [7, 8, 9]},
    "04_": {"format": "toolkit2-perf-table-v15", "layers": 2, "reported_total_time_us": 14147},
    "05_": {"format": "toolkit2-perf-table-v15", "layers": 2, "reported_total_time_us": 20274},
    "07_": {
        "format": "toolkit2-perf-table",
        "layers": 93,
        "total_time_us": 14478,
        "reported_total_time_us": 14478,
    },
    "08_": {
        "format": "toolkit2-eval_perf-csv",
        "layers": 52,
        "total_time_us": 163836,
        "ids": list(range(1, 53)),
    },
    "09_": {
        "format": "toolkit1-perf-table",
        "layers": 5,
        "total_time_us": 3713,
        "ids": [0, 2, 3, 4, 5],
    },
    "10_": {
        "format": "toolkit2-perf-table",
        "layers": 5,
        "total_time_us": 2582,
        "ids": [93, 94, 95, 96, 97],
    },
    "11_": {
        "format": "toolkit2-perf-table",
        "layers": 5,
        "total_time_us": 1283,
        "ids": [117, 118, 119, 120, 121],
    },
    "14_": {
        "format": "toolkit2-build-estimate",
        "measured": False,
        "layers": 6,
        "total_time_us": None,
        "ids": [12, 13, 14, 15, 16, 17],
    },
    "19_": {"format": "toolkit2-ranking", "layers": 0, "total_time_us": 131360},
    "20_": {
        "format": "benchmark",
        "layers": 0,
        "benchmark": {"warmup_times_ms": [27.64, 27.52, 27.5, 27.49, 27.53], "run_times_ms": []},
    },
    "27_": {"format": "toolkit2-ranking", "layers": 0, "total_time_us": 183003},
    "28_": {"format": "toolkit2-ranking", "layers": 0, "total_time_us": 13578},
    "29_": {
        "format": "eval_perf-totals",
        "layers": 0,
        "total_time_us": 18642,
        "benchmark": {"avg_fps": 53.64},
    },
    "30_": {
        "format": "eval_perf-totals",
        "layers": 0,
        "total_time_us": 7140,
        "benchmark": {"avg_fps": 140.06},
    },
    # one CPU-fallback warning line, no table: a profile of its own (issue 29) so RKN001 can
    # advise on it; no layers, no times
    "31_": {"format": "fallback-warnings", "layers": 0, "measured": False, "frames": 0},
    "36_": {
        "format": "toolkit2-perf-table",
        "layers": 168,
        "total_time_us": 20344,
        "reported_total_time_us": 20344,
    },
    "37_": {
        "format": "toolkit2-perf-table",
        "layers": 7,
        "reported_total_time_us": 12631,
        "ids": [1, 2, 3, 4, 55, 56, 57],
    },  # rows 5-54 elided by the doc author (`....`)
    "38_": {
        "format": "toolkit2-perf-table-v15",
        "layers": 9,
        "total_time_us": 591,
        "reported_total_time_us": 591,
    },
    "41_": {
        "format": "benchmark",
        "layers": 0,
        "total_time_us": 2660,
        "frames": 10,
        "benchmark": {"run_times_ms": [2.85, 2.7, 2.59, 2.69, 2.62, 2.61, 2.58, 2.7, 2.64, 2.68]},
    },
    "43_": {"format": "toolkit2-ranking", "layers": 0, "total_time_us": 131201},
}

EXIT_3: dict[str, str] = {
    "06_": "RKNN_LOG_LEVEL=3 SRAM allocation table (31 rows, addresses only, no timing)",
    "13_": "a perf table title without its header",
    "15_": "a build-time estimate table header (not a measurement) without complete rows",
    "16_": "a perf table header without complete rows",
    # failures (parsers/failure_catalogue.py, or `unknown`): the diagnosis, then the line
    "21_": "line 10: the whole-model perf run failed (IOCTL_CMD_PERF_RUN fail): `IOCTL_CMD_PERF_RUN "
    "fail, ack=0, run_duration=-614079!",
    "22_": "line 1: the runtime returned an empty per-layer perf detail (also lines 8, 15): `Get "
    "model perf detail success, but detail is empty!`; fix: ",
    "24_": "runtime information only (runtime 2.0.0b0, driver 0.9.2",
    "25_": "line 8: an error the failures catalogue does not know: `ValueError: substring not "
    "found`",
    "33_": "multi-core fallback warnings only (Conv:/model.22/dfl/conv/Conv runs on one NPU core "
    "(`using 3Core fallback to single core mode`) while the rest of the model splits)",
    "34_": "runtime information only (runtime 2.3.0, driver 0.9.8",
    "35_": "tensor memory allocation table (9 rows, addresses only, no timing)",
    "39_": "line 1: the model was built for another NPU than this board's: `The rknn model does not "
    "match the RKNPU hardware version!`; fix: ",
    "40_": "line 7: librknnrt is too old for this model (model format version 6): `Invalid RKNN "
    "model version 6`; fix: ",
}
