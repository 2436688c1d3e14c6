"""The fast path: repeated frames read in bulk. A parser author never needs to open it; the
report is the same with it on or off (``RKNNPROF_NO_FASTPATH=1`` turns it off, see
:func:`~rknnprof.parsers.fastpath.skipper.enabled`).

At ``RKNN_LOG_LEVEL=4`` the runtime prints the same per-layer table and ranking for every
inference; a long capture holds thousands. Once the exact path (``parsers/table/``,
``parsers/ranking.py``) has read a stream's frame as a repeat of the one before, the next frames
of that stream are read a whole frame at a time from the raw bytes:

* ``skipper`` -- :class:`~rknnprof.parsers.fastpath.skipper.FrameSkipper`, the reader's
  *skipper* (the contract is :mod:`rknnprof.inputs.claims`): where a frame may start, whether
  it claims it; the switch;
* ``reads`` -- the reads of the input with the claimed runs taken out (the reader's side);
* ``template``, ``frame``, ``rows``, ``ranking`` -- a stream's frame as the exact path read it,
  and the checks a later frame passes to be read in bulk;
* ``streams`` -- several streams printing at once (one context per NPU core): a window of the
  data read for every stream;
* ``others`` -- other streams' lines inside a claimed frame that scan would pass over;
* ``scan_state`` -- what scan knows of each stream, and the frames it records for the skipper;
* ``repeat``, ``lazy`` -- inside the table engine: a table that repeats its stream's previous
  one kept as row text, its layers built on first use.

The one assumption, written where the checks live (:mod:`rknnprof.parsers.table`): no check
that decides how a line is read depends on a digit's value. The ranking's tolerances are
imported from :mod:`rknnprof.parsers.ranking`. Anything the fast path cannot prove the exact
path would read the same way is read line by line.
"""
