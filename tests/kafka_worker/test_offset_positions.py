"""The commit position never passes a record in flight or a deferred one."""

from __future__ import annotations

from partner_events.worker.offsets import OffsetTracker

TP = ("doc.uploaded", 0)


def test_finished_records_move_the_position_past_them() -> None:
    tracker = OffsetTracker()
    tracker.start(TP, 4)
    assert tracker.due() == [("doc.uploaded", 0, 4)]
    tracker.finish(TP, 4)
    assert tracker.due() == [("doc.uploaded", 0, 5)]


def test_a_deferred_record_holds_the_position_until_its_job_is_resolved() -> None:
    tracker = OffsetTracker()
    for offset, job in ((7, "a"), (8, None), (9, None)):
        tracker.start(TP, offset)
        tracker.finish(TP, offset, deferred_job=job)
    assert tracker.due() == [("doc.uploaded", 0, 7)]
    assert tracker.held_jobs() == {"a"}

    assert tracker.release({"b"}) == 0
    assert tracker.release({"a"}) == 1
    assert tracker.due() == [("doc.uploaded", 0, 10)]


def test_a_committed_position_is_not_sent_again_unless_the_commit_failed() -> None:
    tracker = OffsetTracker()
    tracker.start(TP, 0)
    tracker.finish(TP, 0)
    tracker.committed(tracker.due())
    assert tracker.due() == []
    tracker.commit_failed(TP)
    assert tracker.due() == [("doc.uploaded", 0, 1)]


def test_a_partition_given_up_mid_record_reports_the_outcome_as_not_kept() -> None:
    tracker = OffsetTracker()
    tracker.start(TP, 3)
    tracker.drop({TP})
    assert tracker.finish(TP, 3) is False
    assert tracker.due() == []
