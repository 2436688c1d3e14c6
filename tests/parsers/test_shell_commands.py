"""Shell prompts and their commands (``parsers/shell_commands.py``): whether a command ran as
root, from lines users pasted into public threads."""

from __future__ import annotations

import pytest

from rknnprof.inputs.lines import Line
from rknnprof.parsers.events import CommandEvent, InfoEvent
from rknnprof.parsers.shell_commands import ShellCommandParser, read_command


@pytest.mark.parametrize(
    ("text", "as_root"),
    [
        # https://github.com/rockchip-linux/rknn-toolkit/issues/507
        ("rpdzkj@localhost:~/Desktop$ sudo python3 Yolov8m_detect.py", True),
        # https://github.com/ophub/amlogic-s9xxx-armbian/issues/3123
        ("$ ./run.sh ", False),
        ("$ sudo cat /sys/kernel/debug/rknpu/version", True),
        # https://github.com/airockchip/rknn-toolkit2/issues/418
        (
            "root@ok3588:/userdata/rknn_model_zoo/install/rk3588_linux_aarch64/rknn_yolov8_demo# "
            "./rknn_yolov8_demo ./model/yolov8.rknn ./model/bus.jpg",
            True,
        ),
        # https://github.com/airockchip/rknn-toolkit2/issues/68
        (
            "bchoi@firefly:~/work/rknn_ssd_demo_Linux$ ./rknn_ssd_demo "
            "model/RK3588/ssd_inception_v2.rknn model/bus.jpg",
            False,
        ),
        # written from the shells' grammars: Android's adb root shell, a bracketed prompt, a
        # virtual environment's
        ("rk3588:/data # ./rknn_benchmark mobilenet.rknn", True),
        ("[root@buildroot opt]# ./demo", True),
        ("(venv) radxa@rock-5c:~$ python3 test.py", False),
        # no prompt: a Markdown heading, a comment, prose with a dollar
        ("# Init runtime environment", None),
        ("the board costs $ 80", None),
    ],
)
def test_a_prompt_says_whether_its_command_ran_as_root(text, as_root):
    assert read_command(text) is as_root


def test_a_command_naming_the_soc_is_read_for_it_too():
    """rknn-toolkit2 issue 68's command names a model in the RK3588 folder: the platform guess
    runtime info made from it stays."""
    line = Line(
        1,
        "bchoi@firefly:~/work/rknn_ssd_demo_Linux$ ./rknn_ssd_demo "
        "model/RK3588/ssd_inception_v2.rknn model/bus.jpg",
    )
    block = ShellCommandParser().opens(line)
    assert block is not None
    command, info = block.close()
    assert isinstance(command, CommandEvent) and not command.as_root
    assert isinstance(info, InfoEvent) and info.platform == "rk3588"
