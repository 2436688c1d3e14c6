"""RKLLM stage tables -> one ``rkllm-runtime`` profile per stream: the generations merged
(per-field medians; each rate the median of the generations' rates, derived from the totals).

Prefill tokens/s = prefill tokens / prefill time. Decode: the Generate row covers the tokens
generated after the prefill, whose first token comes out of the prefill itself, so the decode
steps are Generate tokens - 1 and decode tokens/s = (tokens - 1) / Generate time (None without
a decode step); the runtime's own Tokens per Second column divides by all of them.
"""

from __future__ import annotations

from collections.abc import Sequence

from rknnprof.model import LlmRun, Profile, SourceSpan, tidy_number
from rknnprof.parsers.events import LlmStatsEvent

FAMILY = "rkllm-runtime"


def _median(values: Sequence[float | int | None]) -> float | None:
    from statistics import median  # here: 3 ms to import, and only RKLLM logs need it

    known = [v for v in values if v is not None]
    return tidy_number(round(median(known), 3)) if known else None


def _rate(tokens: float | None, ms: float | None) -> float | None:
    if tokens is None or not ms or tokens <= 0:
        return None
    return round(tokens / (ms / 1000.0), 2)


def llm_run(events: Sequence[LlmStatsEvent]) -> LlmRun:
    """The generations of one stream merged: medians of the printed fields, rates from them."""
    prefill_ms = _median([e.prefill_ms for e in events])
    prefill_tokens = _median([e.prefill_tokens for e in events])
    generate_ms = _median([e.generate_ms for e in events])
    generate_tokens = _median([e.generate_tokens for e in events])
    steps = int(generate_tokens) - 1 if generate_tokens is not None else None
    prefill_rates = [_rate(e.prefill_tokens, e.prefill_ms) for e in events]
    decode_rates = [
        _rate(e.generate_tokens - 1 if e.generate_tokens is not None else None, e.generate_ms)
        for e in events
    ]
    return LlmRun(
        generations=len(events),
        prefill_ms=prefill_ms,
        prefill_tokens=int(prefill_tokens) if prefill_tokens is not None else None,
        prefill_tokens_per_s=_median(prefill_rates),
        generate_ms=generate_ms,
        generate_tokens=int(generate_tokens) if generate_tokens is not None else None,
        decode_steps=steps,
        decode_tokens_per_s=_median(decode_rates),
        init_ms=_median([e.init_ms for e in events]),
        peak_memory_mb=_median([e.peak_memory_mb for e in events]),
    )


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
