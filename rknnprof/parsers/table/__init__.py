"""The table engine: what every per-layer table reader shares.

* :mod:`.tokens` -- the one token vocabulary (cell shapes and their values);
* :mod:`.layer` -- ``build_layer``, the one place a row becomes a :class:`~rknnprof.model.Layer`;
* :mod:`.columns` -- the printed toolkit2 tables' header, columns and total lines;
* :mod:`.block` -- ``TableBlock``, the block that reads one printed toolkit2 table;
* :mod:`.rows` -- what a line among the rows is besides a row: short, damaged or foreign;
* :mod:`.repeat` -- the fast path for a table that repeats the previous one (repeated frames).

Family modules (``parsers/toolkit2_table.py``, ``eval_perf_csv.py``, ...) say how their table is
recognised; everything about reading cells is here.

**The one assumption the fast path makes of these checks** (and of the ranking's line tests in
``parsers/ranking_lines.py``): *no check that decides how a line is read depends on a digit's
value*, only on where digits are. Every test of a token or a line (what it is, which column it
fills, whether a block takes it) gives the same answer when any digit is replaced by any other,
so lines of one *shape* (every digit replaced by ``0``) are read alike, and the fast path reads
one line per shape exactly and reuses the answer. The checks on values (a ranking row's CPU +
GPU + NPU against its total, its ratio, the Total row against the column sums; a number's
digit count, which is in the shape) are made on the values, by the fast path too, with the
exact path's tolerances. A check here that looks at a digit's value (``"0" in token``, a
number compared to a bound) breaks this: make it a value check both paths make, or tell the
fast path (``test_bulk.py`` reads every capture both ways and fails on any difference).
"""
