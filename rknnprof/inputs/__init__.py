"""Bytes in, clean lines out: the first stage of the pipeline.

* :mod:`~rknnprof.inputs.lines`: the reader (encoding, line ends, clean-up, length cap);
* :mod:`~rknnprof.inputs.sanitize`: the sanitising boundary every decoded read passes through;
* :mod:`~rknnprof.inputs.records`: what it yields, :class:`~rknnprof.inputs.records.Line`
  and :class:`~rknnprof.inputs.records.ReadStats` (re-exported by ``lines``);
* :mod:`~rknnprof.inputs._prefixes`: the prefix grammar it applies (logcat layouts, runtime
  prefixes, dropped dividers and chatty lines);
* :mod:`~rknnprof.inputs.live`: a live pipe that one Ctrl-C ends cleanly.

Nothing here imports the parsers or anything after them (only :mod:`rknnprof.errors`); a
test holds it so.

Where to add a transport prefix (a logcat layout, a runtime stamp): the grammar in
``_prefixes.py``, with a case in ``tests/test_lines.py`` (end to end:
``tests/test_transport_variants.py``).
"""
