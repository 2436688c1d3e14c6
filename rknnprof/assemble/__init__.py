"""Assembly, the stage between parsing and analysis: the parsers' events -> profiles.

``parsers.scan`` yields :mod:`~rknnprof.parsers.events`; the :class:`Assembler` turns them into
:class:`~rknnprof.model.Profile` objects:

* :mod:`.assembler` -- the event loop: a table and the ranking after it make one frame (one
  inference); what is left over explains an empty result;
* :mod:`.inferences` -- a model's frames merged into one profile (per-layer median times);
* :mod:`.partial_frames` -- a capture's cut first or last table, which is part of a model's
  frame, not a model of its own;
* :mod:`.context` -- what a profile takes from the rest of its log (runtime info, frequencies,
  fallback warnings on the layers they name).

This package imports the parsers' events and the model, never analysis; parsers never import it.
"""

from rknnprof.assemble.assembler import Assembler, Assembly, assemble

__all__ = ["Assembler", "Assembly", "assemble"]
