"""States shared between threads stay consistent; long calls let other threads run."""

import random
import threading

import zrf


def test_one_state_from_several_threads():
    g = zrf.load("checkers")
    s = g.new_initial_state()
    errors = []

    def worker(seed):
        rng = random.Random(seed)
        try:
            for _ in range(300):
                acts = s.legal_actions()
                if not acts:
                    s.undo()
                    continue
                try:
                    s.apply_action(rng.choice(acts))
                except zrf.ZrfError:
                    pass  # another thread moved first: the action may no longer be legal
                if rng.random() < 0.3:
                    s.undo()
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    # The state is whole: replaying its moves from the start gives the same position.
    r = g.new_initial_state()
    for m in s.move_history():
        r.play(m)
    assert r.position() == s.position()


def test_perft_in_threads_agrees():
    g = zrf.load("chess")
    results = []
    threads = [threading.Thread(target=lambda: results.append(g.perft(3))) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [8902, 8902, 8902]
