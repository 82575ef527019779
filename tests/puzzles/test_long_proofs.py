"""Long proofs run in Celery and report back their figures; a proof about a puzzle that
was edited meanwhile writes nothing."""

from puzzles import validation
from puzzles.models import Puzzle

from .conftest import generated_records, make_puzzle


def test_a_long_proof_runs_in_celery_and_reports_back(db, django_capture_on_commit_callbacks,
                                                      monkeypatch):
    from puzzles import tasks

    # Run the task here (as eager mode does) even when REDIS_URL names a broker.
    # (validation sends it by name, common.queue: the registered task's apply_async.)
    monkeypatch.setattr(tasks.prove, "apply_async",
                        lambda args, **options: tasks.prove.apply(args=args))
    p = make_puzzle(generated_records()[6], prove=False)  # 8×8
    assert validation.is_long(p)
    with django_capture_on_commit_callbacks(execute=True) as sent:
        assert validation.validate(p) == Puzzle.Validation.RUNNING
        assert Puzzle.objects.get(pk=p.pk).validation == Puzzle.Validation.RUNNING
    assert len(sent) == 1  # the task was sent after commit, and ran
    p.refresh_from_db()
    assert p.validation == Puzzle.Validation.VALID
    assert p.proof_nodes > 0 and p.proof_seconds is not None and p.needs_card


def test_a_stale_proof_writes_nothing(db):
    p = make_puzzle(generated_records()[5], prove=False)
    old = p.fingerprint
    p.turns += 1
    p.save()
    assert validation.run_task(p.pk, old) == "stale"
    assert Puzzle.objects.get(pk=p.pk).validation == Puzzle.Validation.UNVALIDATED


def test_short_proofs_run_at_once(db):
    p = make_puzzle(generated_records()[0], prove=False)
    assert not validation.is_long(p)
    assert validation.validate(p) == Puzzle.Validation.VALID
