"""Which model of BASE is compared with which of CURRENT: by the model file's name, a
benchmark's printed tensors, the input shapes, the layers' FullNames, else by order; every
thread or context of a model with the other side's model."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rknnprof.model import Profile, Shape, inputs_text

SAME_MODEL_SHARE = 0.5
"""Below this share of layers aligned by FullName or shapes, the runs are called possibly
different models (a like-for-like warning); from it, two models are the same one (pairing)."""


def input_text(input_shapes: tuple[tuple[Shape, ...], ...]) -> str:
    """``1x3x640x640``: a profile's inputs as a pairing key and in notes (``?`` for none)."""
    return inputs_text(input_shapes) or "?"  # (a profile whose table shows no input row)


def pair_profiles(
    base: Sequence[Profile], current: Sequence[Profile]
) -> tuple[list[tuple[Profile, Profile]], list[str]]:
    """Pair models by each key in turn (:data:`KEYS`: the model file's name, a benchmark's
    printed tensors, the input shapes), each on the models the keys before it left, where it
    names every one of them apart on both sides and some share it; then by their layers; by
    order only when nothing else paired any and the order cannot mislead. A model left over
    is named in a note."""
    if len(base) == 1 and len(current) == 1:
        return [(base[0], current[0])], []
    pairs: list[tuple[Profile, Profile]] = []
    notes: list[str] = []
    left_b, left_c = list(base), list(current)
    for key, what in KEYS:
        keyed = _pair_by(key, what, left_b, left_c)
        if keyed is None:
            continue
        pairs += keyed[0]
        if what == "input":  # (a dynamic-shape model's other inputs: each on its side alone)
            return pairs, keyed[1]
        left_b, left_c = _unpaired(left_b, left_c, keyed[0])
        if not left_b or not left_c:
            break
    if left_b and left_c:
        by_layers = _pair_by_layers(left_b, left_c, whole=not pairs)
        if by_layers is not None:
            pairs += by_layers[0]
            notes += by_layers[1]
            return pairs, notes
    if pairs:
        return pairs, notes + _leftover_notes(left_b, left_c)
    names_b, names_c = [p.model_name for p in base], [p.model_name for p in current]
    if all(names_b) and all(names_c):  # (every model named, none on both sides)
        notes = [f"model {n} only in BASE" for n in names_b]
        return [], notes + [f"model {n} only in CURRENT" for n in names_c]
    for side, names in (("BASE", names_b), ("CURRENT", names_c)):
        if len({n for n in names if n}) > 1:  # (other models, which the other side names not)
            return [], [
                f"the models cannot be paired: {side} names them "
                f"({', '.join(n for n in names if n)}), the other side does not, and nothing "
                "else tells them apart"
            ]
    pairs = list(zip(base, current))
    notes = [
        f"BASE has {len(base)} models, CURRENT {len(current)}: paired the first "
        f"{len(pairs)} by order"
        if len(base) != len(current)
        else f"the {len(pairs)} models are paired by order: nothing in the logs tells them apart"
    ]
    return pairs, notes


def _unpaired(
    base: Sequence[Profile], current: Sequence[Profile], pairs: Sequence[tuple[Profile, Profile]]
) -> tuple[list[Profile], list[Profile]]:
    """The models of each side no pair holds."""
    paired = {id(p) for pair in pairs for p in pair}
    return [b for b in base if id(b) not in paired], [c for c in current if id(c) not in paired]


def _leftover_notes(base: Sequence[Profile], current: Sequence[Profile]) -> list[str]:
    """``model yolov8s_v2.rknn only in CURRENT``: the models no key nor their layers paired."""
    return [
        f"model {_label(p)} only in {side}"
        for side, left in (("BASE", base), ("CURRENT", current))
        for p in left
    ]


def _label(profile: Profile) -> str:
    """A model's name in a note: its file's, its printed tensors, else where it starts."""
    return profile.model_name or printed_tensors(profile) or f"at line {profile.source.first_line}"


def _pair_by(
    key: Callable[[Profile], str | None],
    what: str,
    base: Sequence[Profile],
    current: Sequence[Profile],
) -> tuple[list[tuple[Profile, Profile]], list[str]] | None:
    """Each model with the other side's of the same ``key``, when every model on both sides
    has one, each side's are distinct and some are on both; the rest named in notes."""
    keys_b, keys_c = [key(p) for p in base], [key(p) for p in current]
    if not (all(keys_b) and all(keys_c)):
        return None
    if len(set(keys_b)) < len(keys_b) or len(set(keys_c)) < len(keys_c):
        return None
    if not set(keys_b) & set(keys_c):
        return None
    by_key = dict(zip(keys_c, current))
    pairs = [(b, by_key[k]) for b, k in zip(base, keys_b) if k in by_key]
    notes = [f"{what} {k} only in BASE" for k in keys_b if k not in by_key]
    notes += [f"{what} {k} only in CURRENT" for k in keys_c if k not in set(keys_b)]
    return pairs, notes


def printed_tensors(profile: Profile) -> str | None:
    """A benchmark's input and output tensors as it printed them: which model ran where no
    file is named (two rknn_common_test runs in swapped order paired a 224x224 mobilenet with
    a 640x640 yolo by order; yolov5 and yolov8 take the same input, not the same outputs)."""
    bench = profile.benchmark
    if bench is None or not bench.inputs:
        return None
    outputs = f" -> {', '.join(bench.outputs)}" if bench.outputs else ""
    return f"{', '.join(bench.inputs)}{outputs}"


def precision_of(profile: Profile) -> str | None:
    """``INT8/UINT8`` (``INT8/UINT8+FLOAT16`` for a hybrid build): the data types the NPU ran
    the model at, which pair one network's INT8 and FP16 builds; None without them."""
    return "+".join(name for name, _, _ in profile.npu_precisions) or None


def model_key(profile: Profile) -> str | None:
    """A model's name in a comparison: its file's, else a benchmark's input tensors."""
    if profile.model_name:
        return profile.model_name
    bench = profile.benchmark
    return f"input {', '.join(bench.inputs)}" if bench is not None and bench.inputs else None


def _names(profile: Profile) -> set[str]:
    return {la.full_name for la in profile.layers if la.full_name}


def _pair_by_layers(
    base: Sequence[Profile], current: Sequence[Profile], whole: bool = True
) -> tuple[list[tuple[Profile, Profile]], list[str]] | None:
    """Each BASE model with the CURRENT one whose layers' FullNames it shares most (at least
    :data:`SAME_MODEL_SHARE` of the larger's), when that pairs some model and not all are
    paired as order would (two processes of a capture printing different models: order paired
    a yolov5n with a yolo26n baseline and judged the yolo26n's regression against nothing);
    None to pair by order."""
    names_c = [_names(p) for p in current]
    free = set(range(len(current)))
    pairs: list[tuple[Profile, Profile]] = []
    kept: list[int] = []
    for b in base:
        names = _names(b)
        best, score = None, 0.0
        for k in sorted(free):
            most = max(len(names), len(names_c[k]))
            share = len(names & names_c[k]) / most if most else 0.0
            if share > score:
                best, score = k, share
        if best is not None and score >= SAME_MODEL_SHARE:
            free.discard(best)
            pairs.append((b, current[best]))
            kept.append(best)
    if not pairs or whole and kept == list(range(len(base))) and len(base) == len(current):
        return None  # (nothing shared, or every model the order's own pair: order says it)
    # a model left over that runs the layers of one already paired (another thread or context
    # of it: a thread pool's frames, one profile per thread) is compared with it too: four of
    # five threads 30 % slower passed, judged on the one thread paired
    notes: list[str] = []
    paired = {id(b) for b, _ in pairs}
    for b in base:
        if id(b) in paired:
            continue
        twin = _most_alike(_names(b), [_names(c) for c in current])
        if twin is None:
            notes.append(
                f"a model of BASE (line {b.source.first_line}) has no model of CURRENT with its "
                "layers"
            )
        else:
            pairs.append((b, current[twin]))
    base_names = [_names(b) for b in base]
    for k in sorted(free):
        twin = _most_alike(names_c[k], base_names)
        if twin is None:
            notes.append(
                f"a model of CURRENT (line {current[k].source.first_line}) has no model of BASE "
                "with its layers"
            )
        else:
            apart = any(c.pid_tid == current[k].pid_tid for _, c in pairs)  # (one stream)
            pairs.append((base[twin], current[k]))
            run = current[k].stream_label or f"model at line {current[k].source.first_line}"
            notes.append(
                f"CURRENT's {run} runs the layers of BASE's model (line "
                f"{base[twin].source.first_line}) as another run does: compared with it too "
                + (
                    "(frames of the same stream read apart from the rest: see their verdict)"
                    if apart
                    else "(another thread or context of the model)"
                )
            )
    return pairs, notes


def _most_alike(names: set[str], others: Sequence[set[str]]) -> int | None:
    """The index of the FullName set of ``others`` that shares most with ``names`` (at least
    :data:`SAME_MODEL_SHARE` of the larger), or None."""
    best, score = None, 0.0
    for k, other in enumerate(others):
        most = max(len(names), len(other))
        share = len(names & other) / most if most else 0.0
        if share > score:
            best, score = k, share
    return best if score >= SAME_MODEL_SHARE else None


KEYS: tuple[tuple[Callable[[Profile], str | None], str], ...] = (
    (lambda p: p.model_name, "model"),
    (printed_tensors, "model with tensors"),
    (lambda p: input_text(p.input_shapes), "input"),
    (lambda p: precision_of(p), "build in"),
)
"""(key, what it is called in notes), tried in turn by :func:`pair_profiles` (defined last: the
keys are the functions above)."""
