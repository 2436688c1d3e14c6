"""Where the advice comes from: the public documents the rules cite, by title and URL.

One table, so every citation a user reads (``rknnprof rules CODE``, a finding's ``source``, the
README and HTML) names a document they can open: its public title, in English, and a URL.
Section numbers (``§8.2.4``) are those of the named version. Cite with :func:`cite` and
:func:`issue`; join several with :func:`sources`.
"""

from __future__ import annotations

from rknnprof.inputs.lazy_re import LazyPattern
from rknnprof.model.record import Record, record

TOOLKIT2 = "airockchip/rknn-toolkit2"
"""The SDK's repository, for :func:`issue`."""
_TOOLKIT = f"https://github.com/{TOOLKIT2}/blob"
_ZOO = "https://github.com/airockchip/rknn_model_zoo/blob/main"


@record(slots=False)
class Document(Record):
    """A public document: its title as readers know it, and where to read it."""

    title: str
    """English title with the version whose section numbers are cited."""
    url: str


DOCUMENTS: dict[str, Document] = {
    "guide": Document(
        "RKNN SDK User Guide V2.3.0",
        f"{_TOOLKIT}/v2.3.0/doc/02_Rockchip_RKNPU_User_Guide_RKNN_SDK_V2.3.0_EN.pdf",
    ),
    "ops": Document(
        "RKNN Compiler Support Operator List V2.3.2",
        f"{_TOOLKIT}/v2.3.2/doc/05_RKNN_Compiler_Support_Operator_List_V2.3.2.pdf",
    ),
    "toolkit-api": Document(
        "RKNN-Toolkit2 API Reference V2.3.2",
        f"{_TOOLKIT}/v2.3.2/doc/03_Rockchip_RKNPU_API_Reference_RKNN_Toolkit2_V2.3.2_EN.pdf",
    ),
    "runtime-api": Document(
        "RKNN Runtime C API Reference V2.3.2",
        f"{_TOOLKIT}/v2.3.2/doc/04_Rockchip_RKNPU_API_Reference_RKNNRT_V2.3.2_EN.pdf",
    ),
    "api-header": Document(
        "rknn_api.h (runtime header)",
        f"{_TOOLKIT}/v2.3.2/rknpu2/runtime/Linux/librknn_api/include/rknn_api.h",
    ),
    "changelog": Document("RKNN-Toolkit2 CHANGELOG", f"{_TOOLKIT}/master/CHANGELOG.md"),
    "autosparsity": Document(
        "RKNN-Toolkit2 autosparsity README", f"{_TOOLKIT}/master/autosparsity/README.md"
    ),
    "benchmark": Document(
        "rknn_benchmark README", f"{_TOOLKIT}/master/rknpu2/examples/rknn_benchmark/README.md"
    ),
    "yolov5s-profile": Document(
        "a public RK3588 yolov5s per-layer profile, runtime 2.3.2, core 0 "
        "(zshi20000922-a11y/RK3588-Yolo-Profile, at commit a2040cc)",
        "https://github.com/zshi20000922-a11y/RK3588-Yolo-Profile/blob/"
        "a2040cc119fb247c3e01fe2ee189d2d5643cd851/reports/layer-profiles/raw/"
        "yolov5s_layer_perf.txt",
    ),
    "yolov8n-pair": Document(
        "a public RK3588 yolov8n-1920 per-layer profile, one core and three (channyHuang's "
        "'Push Yolov8n Pre-train Model To rk3588 (2)', at commit 5b708ac)",
        "https://github.com/channyHuang/channyHuang.github.io/blob/"
        "5b708ac07479daf9ba4e59211da1759d829d4db7/_posts/linuxAndWin/"
        "2024-04-08-Push_Yolov8n_Pre-train_Model_To_rk3588_%282%29.md",
    ),
    "yolov8n-3core": Document(
        "a public RK3588 yolov8n per-layer profile under RKNN_NPU_CORE_0_1_2 (channyHuang's "
        "'Push Yolov8n Pre-train Model To rk3588 (4)', at commit 8511ac7)",
        "https://github.com/channyHuang/channyHuang.github.io/blob/"
        "8511ac77cfb388538686320c70b180413439dcf5/_posts/linuxAndWin/"
        "2024-07-18-Push_Yolov8n_Pre-train_Model_To_rk3588_%284%29.md",
    ),
    "yolov8n-640": Document(
        "a public RK3588 yolov8n 640x640 per-layer profile, one core, runtime 2.3.2 "
        "(zshi20000922-a11y/RK3588-Yolo-Profile yolov8n_layer_perf.txt, at commit a2040cc)",
        "https://github.com/zshi20000922-a11y/RK3588-Yolo-Profile/blob/"
        "a2040cc119fb247c3e01fe2ee189d2d5643cd851/reports/layer-profiles/raw/"
        "yolov8n_layer_perf.txt",
    ),
    "yolov5n-640": Document(
        "a public RK3588 yolov5n 640x640 per-layer profile, core 0, runtime 2.3.2 "
        "(zshi20000922-a11y/RK3588-Yolo-Profile yolov5n_layer_perf.txt, at commit a2040cc)",
        "https://github.com/zshi20000922-a11y/RK3588-Yolo-Profile/blob/"
        "a2040cc119fb247c3e01fe2ee189d2d5643cd851/reports/layer-profiles/raw/"
        "yolov5n_layer_perf.txt",
    ),
    "yolo26n-640": Document(
        "a public RK3588 yolo26n 640x640 per-layer profile, core 0, runtime 2.3.2 "
        "(zshi20000922-a11y/RK3588-Yolo-Profile yolo26n_layer_perf.txt, at commit a2040cc)",
        "https://github.com/zshi20000922-a11y/RK3588-Yolo-Profile/blob/"
        "a2040cc119fb247c3e01fe2ee189d2d5643cd851/reports/layer-profiles/raw/"
        "yolo26n_layer_perf.txt",
    ),
    "fusionnet-fp16": Document(
        "a public RK3588 FP16 image-fusion network's eval_perf CSV, toolkit2 1.5.0 "
        "(InJuly7/Fusion_rknn eval_perf.csv, at commit 0aa4edf)",
        "https://github.com/InJuly7/Fusion_rknn/blob/"
        "0aa4edf4e41dfa06ad942fa8c78063b7bb6378a5/eval_perf.csv",
    ),
    "smolvla-rope-3core": Document(
        "a public RK3588 three-core per-layer profile of a SmolVLA query projection and rotary "
        "embedding, FP16, runtime 2.3.2 (OujaKivi/fast-lewm-rknn query_producer_profile.txt, "
        "at commit 065c95a)",
        "https://github.com/OujaKivi/fast-lewm-rknn/blob/"
        "065c95a73ab817f123340431c3745cd0e0dc80c3/results/smolvla_libero/"
        "cross_boundary_probes/query_producer_profile.txt",
    ),
    "yolo-contexts": Document(
        "a public RK3588 YOLOv8/YOLO11 board report, one context on core 0 against three "
        "contexts on cores 0/1/2 (zshi20000922-a11y/RK3588-Yolo-Profile reports/v8-v11, at "
        "commit 72c055a)",
        "https://github.com/zshi20000922-a11y/RK3588-Yolo-Profile/blob/"
        "72c055a5c0cc19efc4e3717ca749892c44a9973d/reports/v8-v11/REPORT.md",
    ),
    "zoo": Document("RKNN Model Zoo README (benchmark table)", f"{_ZOO}/README.md"),
    "zoo-yolov8": Document(
        "RKNN Model Zoo YOLOv8 example README", f"{_ZOO}/examples/yolov8/README.md"
    ),
    "zoo-frequency": Document(
        "RKNN Model Zoo scaling_frequency.sh", f"{_ZOO}/scaling_frequency.sh"
    ),
}


def cite(key: str, where: str = "") -> str:
    """``RKNN SDK User Guide V2.3.0 §8.3 (https://…)``: title, the part cited, then the URL."""
    document = DOCUMENTS[key]
    return f"{document.title}{' ' + where if where else ''} ({document.url})"


def issue(repo: str, number: int, about: str = "") -> str:
    """A GitHub issue: ``airockchip/rknn-toolkit2#514 Resize (https://github.com/…/issues/514)``."""
    return (
        f"{repo}#{number}{' ' + about if about else ''} (https://github.com/{repo}/issues/{number})"
    )


def sources(*citations: str) -> str:
    """Several citations as one line, ``; ``-separated."""
    return "; ".join(citations)


_CITATION = LazyPattern(r"(?P<text>.+?) \((?P<url>https://[^\s)]+)\)$")


def markdown(text: str) -> str:
    """A ``; ``-separated source line with each cited URL as a Markdown link on its text."""
    parts = []
    for part in text.split("; "):
        found = _CITATION.match(part)
        parts.append(f"[{found['text']}]({found['url']})" if found else part)
    return "; ".join(parts)
