"""Generated KRaft cluster ids are valid for the storage tool's command line."""

from __future__ import annotations

import base64

from scripts.kafka import _cluster_id


def test_generated_cluster_ids_never_look_like_a_command_line_option() -> None:
    ids = [_cluster_id() for _ in range(2000)]

    assert not [cid for cid in ids if cid.startswith("-")]
    assert all(len(base64.urlsafe_b64decode(cid + "==")) == 16 for cid in ids)
