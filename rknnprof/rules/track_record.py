"""Each rule's track record: what its estimate gave on real before/after pairs of one model.

``rknnprof rules CODE`` prints it as the *Track record* section; docs/track-record.md holds the
pairs in full, with their sources and the tables behind every figure. One entry per rule (a
test holds the table to the registry); lines are pre-wrapped to fit the rule's doc.
"""

from __future__ import annotations

NONE_YET = (
    "no real before/after pair checked yet: no public pair of one model with and without\n"
    "this fix was found (docs/track-record.md lists the pairs wanted)"
)

TRACK_RECORD: dict[str, str] = {
    "RKN001": (
        "1 real pair, confounded: a UNet on RK3588 with Resize on the CPU (23,583 us promised,\n"
        "±60%) against the author's slimmed all-NPU model: Resize 23,583 -> 372 us, 98% of\n"
        "the promise by op type; compare says cannot tell (ranking tables, another model)"
    ),
    "RKN002": (
        "no per-layer pair yet; two public whole-model figures on RK3588, FP16 -> INT8: yolo11n\n"
        "90 -> 53 ms (ultralytics/ultralytics#20508), YOLO-NAS-M 57 -> 35 ms\n"
        "(MarcA711/rknn-models#1): 41% and 39% of the application's time, which also holds\n"
        "pre/post-processing and I/O, against half of the FP16 layers' NPU time: consistent,\n"
        "not a check"
    ),
    "RKN010": "none: no saving is claimed",
    "RKN011": NONE_YET,
    "RKN020": (
        "1 real pair (yolov8n one core -> three cores): cannot tell, the Split rows are\n"
        "elided in CURRENT"
    ),
    "RKN021": NONE_YET,
    "RKN022": NONE_YET,
    "RKN023": NONE_YET,
    "RKN024": NONE_YET,
    "RKN030": (
        "latency, 1 real pair, in-sample: yolov8n 1920x1920 one core -> three cores, the two\n"
        "rows both logs print: Add 372 us and Concat 719 us measured, 100% of the promise each\n"
        "(the per-op speed-ups were taken from that pair). Throughput (up to 3x, the cores\n"
        "share DDR): one context per core measured 2.76x for YOLOv8n, 2.74x YOLOv8s, 2.76x\n"
        "YOLO11n and 2.67x YOLO11s at 640x640 on RK3588 (a public board report's frames per\n"
        "second; no rknn log of the three-context runs, so judged by hand)"
    ),
    "RKN040": NONE_YET,
    "RKN050": NONE_YET,
    "RKN051": "none: no saving is claimed",
    "RKN060": NONE_YET,
    "RKN061": NONE_YET,
    "RKN070": (
        "none yet: no public ReLU retrain of a SiLU model with both per-layer tables was found;\n"
        "its model-zoo basis (yolov5s 48.4 -> yolov5s_relu 66.1 FPS) is whole-model figures"
    ),
    "RKN071": (
        "1 real pair: yolov8n at 1920x1920 (channyHuang's blog) -> the same network at 640x640\n"
        "(RK3588-Yolo-Profile), one RK3588 core each: promised 113,158 us (±40%), measured on the\n"
        "frame 113,279 us: delivered, 100%. Counting the convs only, as this rule did before,\n"
        "it promised 93,481 us: the pair delivered 121%, because the copies between the convs\n"
        "shrink with the pixels too (88.1% on the NPU against 88.9% predicted); the estimate\n"
        "now counts them, so on this pair it is in-sample"
    ),
    "RKN072": (
        "1 real pair, confounded: the UNet above, its Transposes (27,731 us promised, ±60%) gone\n"
        "in the slimmed model: 100% by op type; compare says cannot tell (another model)"
    ),
    "RKN073": "none: no saving is claimed",
    "RKN080": "none: no saving is claimed",
    "RKN090": NONE_YET,
}
"""Rule code -> its record on real pairs, one paragraph with its own line breaks."""
