"""RKLLM stage tables -> one ``rkllm-runtime`` profile per stream: each generation's figures
as printed, and the median of each figure over the generations.

The runtime prints, for each stage, Total Time (ms), Tokens, Time per Token (ms) and Tokens per
Second, with Tokens per Second = Tokens / Total Time. The Prefill row's time runs from the
request to the first token (the prefill's forward pass makes it): it is the time to first token.
The Generate row counts the tokens of the decode steps after it, one per step (a 1-token Generate
row of 125 ms is one step), so its Tokens per Second is the decode rate. The rates are taken
from the printed columns; computed from Total Time and Tokens they differ only in rounding (the
log prints two decimals). A table without that column (none known) gets tokens / time.
"""

from __future__ import annotations

from collections.abc import Sequence

from rknnprof.model import LlmGeneration, LlmRun, Profile, ReportWarning, SourceSpan, tidy_number
from rknnprof.parsers.events import LlmStatsEvent

FAMILY = "rkllm-runtime"
FRAGMENT_WARNING = (
    "RKLLM stage rows without their header row: read in the runtime's column order (Stage, "
    "Total Time (ms), Tokens, Time per Token (ms), Tokens per Second), a pasted fragment"
)


def _median(values: Sequence[float | int | None]) -> float | None:
    from statistics import median  # here: 3 ms to import, and only RKLLM logs need it

    known = [v for v in values if v is not None]
    return tidy_number(round(median(known), 3)) if known else None


def _rate(printed: float | None, tokens: int | None, ms: float | None) -> float | None:
    """The printed Tokens per Second, else tokens / time (None without tokens or time)."""
    if printed is not None:
        return tidy_number(printed)
    if tokens is None or not ms or tokens <= 0:
        return None
    return tidy_number(round(tokens / (ms / 1000.0), 2))


def generation(event: LlmStatsEvent) -> LlmGeneration:
    """One stage table's figures."""
    return LlmGeneration(
        line=event.line,
        prefill_ms=event.prefill_ms,
        prefill_tokens=event.prefill_tokens,
        prefill_tokens_per_s=_rate(
            event.prefill_tokens_per_s, event.prefill_tokens, event.prefill_ms
        ),
        generate_ms=event.generate_ms,
        generate_tokens=event.generate_tokens,
        decode_tokens_per_s=_rate(
            event.generate_tokens_per_s, event.generate_tokens, event.generate_ms
        ),
        ttft_ms=event.prefill_ms,
    )


def _whole(value: float | None) -> int | None:
    return int(value) if value is not None else None


MIN_DECODE_STEPS = 16
"""Fewer decode steps than this (one generation) are too few to judge a rate by: the first
steps carry the switch from prefill, and one token is one step's time. RKN090, ``check`` and
``compare`` all hold to it."""


def few_decode_steps(run: LlmRun) -> int | None:
    """The decode steps of a one-generation run when they are fewer than
    :data:`MIN_DECODE_STEPS` (too few to judge a decode rate by), else None."""
    steps = run.decode_steps
    if run.generations <= 1 and steps is not None and steps < MIN_DECODE_STEPS:
        return steps
    return None


def prompts_vary(runs: Sequence[LlmGeneration]) -> tuple[int, int] | None:
    """(shortest, longest) prompt when the generations' prompts differ more than twofold (a
    prefill's time and rate follow its prompt's length: no median of them), else None."""
    prompts = [g.prefill_tokens for g in runs if g.prefill_tokens]
    if prompts and max(prompts) > 2 * min(prompts):
        return min(prompts), max(prompts)
    return None


def llm_run(events: Sequence[LlmStatsEvent]) -> LlmRun:
    """The generations of one stream: each one's figures and the median of each figure (none
    of the prefill's when the prompts differ more than twofold: :func:`prompts_vary`)."""
    runs = tuple(generation(e) for e in events)
    generate_tokens = _median([g.generate_tokens for g in runs])
    prefill = [] if prompts_vary(runs) else runs
    return LlmRun(
        generations=len(events),
        prefill_ms=_median([g.prefill_ms for g in prefill]),
        prefill_tokens=_whole(_median([g.prefill_tokens for g in prefill])),
        prefill_tokens_per_s=_median([g.prefill_tokens_per_s for g in prefill]),
        generate_ms=_median([g.generate_ms for g in runs]),
        generate_tokens=_whole(generate_tokens),
        decode_steps=_whole(generate_tokens),
        decode_tokens_per_s=_median([g.decode_tokens_per_s for g in runs]),
        init_ms=_median([e.init_ms for e in events]),
        peak_memory_mb=_median([e.peak_memory_mb for e in events]),
        ttft_ms=_median([g.ttft_ms for g in prefill]),
        per_generation=runs,
    )


def llm_warnings(path: str, events: Sequence[LlmStatsEvent]) -> list[ReportWarning]:
    """A warning for each stage table read without its header row."""
    return [ReportWarning(path, e.line, FRAGMENT_WARNING) for e in events if e.fragment]


def llm_profile(path: str, events: Sequence[LlmStatsEvent]) -> Profile:
    """The profile of one stream's stage tables (``events``, in input order)."""
    run = llm_run(events)
    return Profile(
        source=SourceSpan(path, events[0].line, events[-1].last_line),
        format=FAMILY,
        frames=run.generations,
        llm=run,
        pid_tid=events[0].stream,
    )
