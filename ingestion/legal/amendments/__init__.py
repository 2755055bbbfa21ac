"""Amending regulations: read their instructions, apply them to the Pasal they change.

Pure Python (no Django, no database):

- :mod:`.model` — what an amending regulation says (:class:`~.model.AmendmentText`,
  :class:`~.model.Instruction`, :class:`~.model.Target`, :class:`~.model.NewPasal`).
- :mod:`.read` — :func:`~.read.read_amendments` reads Pasal I (and the omnibus form).
- :mod:`.pasal` — :func:`~.pasal.pasal_texts` splits a regulation's body into Pasal.
- :mod:`.apply` — :func:`~.apply.consolidate` builds every Pasal's versions;
  :func:`~.apply.text_at` answers the wording in force on a date.
"""
