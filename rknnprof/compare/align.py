"""Layer alignment: which layer of BASE is which layer of CURRENT.

Three passes, each over the layers the previous passes left unmatched:

1. by ``FullName`` (repeated names pair up in table order);
2. by signature: (op type, input shapes, output shapes), in table order;
3. by order: the longest common subsequence of op types (``difflib``) over what is left.

What is still unmatched is *removed* (only in BASE) or *added* (only in CURRENT).
"""

from __future__ import annotations

import difflib
from collections import defaultdict, deque
from collections.abc import Callable, Hashable, Sequence

from rknnprof.model import Layer


def align(
    base: Sequence[Layer], current: Sequence[Layer], by_order: bool = True
) -> list[tuple[int | None, int | None, str | None]]:
    """Index pairs (base, current, how); ``None`` on one side for removed/added layers.
    ``by_order``: the third pass (False for runs of other models: op types in the same order
    pair no layers of theirs)."""
    pairs: list[tuple[int | None, int | None, str | None]] = []
    free_b = list(range(len(base)))
    free_c = list(range(len(current)))

    def by_key(key: Callable[[Layer], Hashable | None], how: str) -> None:
        nonlocal free_b, free_c
        queues: dict[Hashable, deque[int]] = defaultdict(deque)
        for j in free_c:
            if (k := key(current[j])) is not None:
                queues[k].append(j)
        used_b: set[int] = set()
        used_c: set[int] = set()
        for i in free_b:
            k = key(base[i])
            if k is not None and queues.get(k):
                j = queues[k].popleft()
                pairs.append((i, j, how))
                used_b.add(i)
                used_c.add(j)
        free_b = [i for i in free_b if i not in used_b]
        free_c = [j for j in free_c if j not in used_c]

    by_key(lambda la: la.full_name or None, "full_name")
    by_key(
        lambda la: (
            (la.op_type, la.input_shapes, la.output_shapes)
            if la.input_shapes or la.output_shapes
            else None
        ),
        "signature",
    )
    matcher = difflib.SequenceMatcher(
        None,
        [base[i].op_type for i in free_b] if by_order else [],
        [current[j].op_type for j in free_c] if by_order else [],
        autojunk=False,
    )
    used_b, used_c = set(), set()
    for block in matcher.get_matching_blocks():
        for k in range(block.size):
            i, j = free_b[block.a + k], free_c[block.b + k]
            pairs.append((i, j, "order"))
            used_b.add(i)
            used_c.add(j)
    pairs += [(i, None, None) for i in free_b if i not in used_b]
    pairs += [(None, j, None) for j in free_c if j not in used_c]
    return pairs
