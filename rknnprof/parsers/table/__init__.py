"""The table engine: what every per-layer table reader shares.

* :mod:`.tokens` -- the one token vocabulary (cell shapes and their values);
* :mod:`.layer` -- ``build_layer``, the one place a row becomes a :class:`~rknnprof.model.Layer`;
* :mod:`.columns` -- the printed toolkit2 tables' header, columns and total lines;
* :mod:`.block` -- ``TableBlock``, the block that reads one printed toolkit2 table;
* :mod:`.rows` -- what a line among the rows is besides a row: short, damaged or foreign;
* :mod:`.repeat` -- the fast path for a table that repeats the previous one (repeated frames).

Family modules (``parsers/toolkit2_table.py``, ``eval_perf_csv.py``, ...) say how their table is
recognised; everything about reading cells is here.
"""
