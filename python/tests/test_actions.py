"""The action encoding: one action per step of a capture chain, promotion choices, stability."""

import zrf


def test_capture_chain_is_one_action_per_jump():
    g = zrf.load("checkers")
    s = g.new_initial_state()
    # White man on 22 jumps 18 to 15, then either 11 (to 8) or 10 (to 6).
    s.set_position("W:W22:B18,11,10,1")
    assert s.current_player() == 1
    assert s.legal_moves() == ["22x15x6", "22x15x8"]
    first = s.legal_actions()
    assert len(first) == 1
    assert s.action_to_string(first[0]) == "22-15"
    n = len(g.positions())
    assert first[0] < n * n  # a step: from * n + to
    s.apply_action(first[0])
    # The same player continues; the board is unchanged until the turn is complete.
    assert s.current_player() == 1
    assert s.move_history() == []
    second = s.legal_actions()
    assert [s.action_to_string(a) for a in second] == ["22x15x6", "22x15x8"]
    s.apply_action(second[1])
    assert s.move_history() == ["22x15x8"]
    assert s.history() == [first[0], second[1]]
    assert s.current_player() == 0
    # Undo takes back one action: into the middle of the turn.
    assert s.undo()
    assert s.history() == [first[0]]
    assert s.legal_actions() == second
    assert s.move_history() == []
    # A whole move by text plays every step.
    t = g.new_initial_state()
    t.set_position("W:W22:B18,11,10,1")
    assert t.play("22x6") == "22x15x6"
    assert t.history() == [first[0], second[0]]


def test_promotion_is_a_choice_after_the_step():
    g = zrf.load("chess")
    s = g.new_initial_state()
    s.set_position("8/P7/8/8/8/8/8/k6K w - - 0 1")
    step = s.string_to_action("a7a8")
    assert s.action_to_string(step) == "a7-a8"
    s.apply_action(step)
    choices = [s.action_to_string(a) for a in s.legal_actions()]
    assert sorted(choices) == ["a7-a8=B", "a7-a8=N", "a7-a8=Q", "a7-a8=R"]
    s.apply_action(s.string_to_action("=N"))
    assert s.move_history() == ["a7-a8=N"]
    assert "White Knight a8" in s.position()


def test_actions_are_stable_across_loads():
    a = zrf.load("chess").new_initial_state().legal_actions()
    b = zrf.load("chess").new_initial_state().legal_actions()
    assert a == b
    # from-square * 64 + to-square: e2-e4 with positions numbered a8=0 ... h1=63.
    g = zrf.load("chess")
    pos = g.positions()
    s = g.new_initial_state()
    assert s.string_to_action("e4") == pos.index("e2") * len(pos) + pos.index("e4")
    assert g.action_space_size() > max(a)


def test_mask_and_tensor():
    g = zrf.load("chess")
    s = g.new_initial_state()
    mask = s.legal_actions_mask()
    assert mask.shape == (g.action_space_size(),)
    assert list(mask.nonzero()[0]) == s.legal_actions()
    obs = s.observation_tensor()
    assert obs.dtype.name == "float32"
    assert obs.shape == tuple(g.observation_tensor_shape())
    # 16 pieces a side in the piece planes (test_observation.py checks every plane).
    planes = len(g.pieces()) * 2
    assert obs[:planes].sum() == 32
    # Seen by Black, Black's pieces come first: on ranks 8 and 7, rows 0 and 1.
    black = s.observation_tensor(1)
    assert black[0:planes:2].sum() == 16 and black[0:planes:2, :2].sum() == 16


def test_tic_tac_toe_game_to_the_end():
    g = zrf.load("tic-tac-toe")
    s = g.new_initial_state()
    for m in ["M@a1", "M@b1", "M@a2", "M@b2", "M@a3"]:
        s.play(m)
    assert s.is_terminal()
    assert s.returns() == [1.0, -1.0]
