"""RKN001's fix for a layout op on the CPU, by where it stands and its tensors
(rknnprof/rules/fallback_fixes.py): the shapes are a public three-core FP16 table's CPU Reshape
between exSDPAttention and a Conv (heads folded back from the batch axis)."""

from __future__ import annotations

from rknnprof.model import Layer, Target
from rknnprof.rules.fallback_fixes import fix_for


def reshape(ins: tuple[int, ...], out: tuple[int, ...], layer_id: int = 20) -> Layer:
    return Layer(
        id=layer_id,
        op_type="Reshape",
        target=Target.CPU,
        input_shapes=(ins, (len(out),)),
        output_shapes=(out,),
    )


def output(shape: tuple[int, ...]) -> Layer:
    return Layer(id=99, op_type="OutputOperator", target=Target.CPU, input_shapes=(shape,))


def test_a_reshape_that_folds_heads_out_of_the_batch_axis_says_so() -> None:
    layer = reshape((5, 64, 1, 150), (1, 960, 1, 50))
    fix = fix_for("Reshape", [layer], [layer, output((1, 256, 1, 50))])
    assert "batch axis (N 5 -> 1): force it onto the NPU" in fix and "op_target" in fix
    assert "end the exported model" not in fix


def test_a_reshape_feeding_a_model_output_is_moved_to_post_processing() -> None:
    layer = reshape((1, 255, 80, 80), (1, 3, 85, 6400))
    fix = fix_for("Reshape", [layer], [layer, output((1, 3, 85, 6400))])
    assert fix.startswith("it reshapes a model output: end the exported model before it")


def test_a_reshape_to_three_dims_keeps_four() -> None:
    layer = reshape((1, 64, 80, 80), (1, 64, 6400))
    assert fix_for("Reshape", [layer], [layer]).startswith("keep the tensor 4-D")


def test_a_four_dim_reshape_inside_the_model_is_forced_onto_the_npu() -> None:
    layer = reshape((1, 64, 80, 80), (1, 16, 320, 80))
    fix = fix_for("Reshape", [layer], [layer])
    assert fix.startswith("a 4-D reshape inside the model") and "op_target" in fix


def test_reshapes_of_two_kinds_get_each_its_fix_and_of_more_the_general_one() -> None:
    rank = reshape((1, 64, 80, 80), (1, 64, 6400))
    batch = reshape((5, 64, 1, 150), (1, 960, 1, 50), layer_id=21)
    both = fix_for("Reshape", [rank, batch], [rank, batch])
    assert both.startswith("#20: keep the tensor 4-D") and "; #21: it moves data into" in both
    inside = reshape((1, 64, 80, 80), (1, 16, 320, 80), layer_id=22)
    general = fix_for("Reshape", [rank, batch, inside], [rank, batch, inside])
    assert general.startswith("end the exported model before this reshape")
    unknown = Layer(id=3, op_type="Reshape", target=Target.CPU)
    assert fix_for("Reshape", [unknown], [unknown]) == general


def test_a_reshape_the_toolkit_adds_to_a_two_dim_input_asks_for_a_four_dim_one() -> None:
    """toolkit2 2.3.2 builds a Clip on a (1,5) input with 'unsqueeze_to_4d_clip: add node =
    ['input_rs', 'clipped_input-rs']': Reshape input_rs (1,5) -> (1,1,1,5) on the CPU right
    after the InputOperator, which 'end the exported model before this reshape' cannot mean."""
    model_input = Layer(id=0, op_type="InputOperator", target=Target.CPU, output_shapes=((1, 5),))
    layer = reshape((1, 5), (1, 1, 1, 5), layer_id=1)
    fix = fix_for("Reshape", [layer], [model_input, layer, output((1, 5))])
    assert fix == (
        "it makes a model input of lower rank 4-D (the toolkit adds such a reshape): export the "
        "model with the 4-D input it reshapes to (1x1x1x5) and feed that"
    )
