#!/usr/bin/env python3
"""Matches between engines through their protocols, with an Elo estimate.

Chess and Crazyhouse go through UCI with python-chess (which also judges the games, so a
move either engine got wrong ends the match with an error); international draughts goes
through Hub with pydraughts. Each opening is played twice, the engines swapping colours.

    scripts/match.py chess --a "target/release/zrf uci" --b /usr/games/stockfish \
        --b-option "Skill Level=5" --movetime 0.5 --games 20
    scripts/match.py chess --a "target/release/zrf uci" --b /usr/games/stockfish \
        --ladder 0-8 --movetime 0.5 --games 10
    scripts/match.py crazyhouse --a "target/release/zrf uci" --b "/tmp/zrf-old uci" --movetime 0.5
    scripts/match.py draughts --a "target/release/zrf hub" --b "/tmp/zrf-old hub" --movetime 0.5
    scripts/match.py nodes --a "target/release/zrf uci" --b /usr/games/stockfish \
        --b-option "Use NNUE=false" --depth 7

`timing` plays engine A alone from the start with `go movetime` 100, 500 and 1000 ms in
turn (chess and crazyhouse, a fresh process each game so first moves count) and reports the
moves that took more than 110% of the time plus 20 ms (`--b` is required but unused).

`nodes` prints, for four chess positions, the nodes each engine searches to complete the
given depth (Stockfish with `Use NNUE=false` searches as its classical engine did).

Prints one line per game and a summary: W/D/L from A's side, the score, and the Elo
difference of A over B with its 95% interval (normal approximation over game results).
`scripts/match.sh` installs the Python packages first.

With `--cluster local|auto|HOST:PORT` the games are spread over a Ray cluster (the `zrf`
Python package's `zrf.cluster`; also `python -m zrf.cluster match ARGS`), engines started on
the workers (`--a "python -m zrf.uci"` needs only the package there); the summary is the same:

    scripts/match.py chess --a "python -m zrf.uci" --b /usr/games/stockfish \
        --b-option "Skill Level=5" --movetime 0.5 --games 120 --cluster auto --results m.jsonl
"""

import argparse
import math
import shlex
import sys
import time

# Openings: move sequences played before the engines take over, each from both sides.
CHESS_OPENINGS = [
    "e2e4 e7e5 g1f3 b8c6 f1b5",  # Spanish
    "e2e4 e7e5 g1f3 b8c6 f1c4 f8c5",  # Italian
    "e2e4 c7c5 g1f3 d7d6 d2d4 c5d4 f3d4 g8f6 b1c3",  # Sicilian, open
    "e2e4 e7e6 d2d4 d7d5",  # French
    "e2e4 c7c6 d2d4 d7d5",  # Caro-Kann
    "d2d4 d7d5 c2c4 e7e6",  # Queen's Gambit Declined
    "d2d4 g8f6 c2c4 g7g6 b1c3 f8g7",  # King's Indian
    "d2d4 g8f6 c2c4 e7e6 b1c3 f8b4",  # Nimzo-Indian
    "c2c4 e7e5",  # English
    "g1f3 d7d5 g2g3",  # Reti
    # More lines, so that long matches (up to 108 games) play no game twice; a match of 20
    # games plays the ten above as before.
    "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6",  # Spanish, main line
    "e2e4 e7e5 g1f3 b8c6 d2d4 e5d4 f3d4",  # Scotch
    "e2e4 e7e5 g1f3 g8f6 f3e5 d7d6 e5f3 f6e4",  # Petrov
    "e2e4 e7e5 b1c3 g8f6 f2f4",  # Vienna
    "e2e4 e7e5 f2f4 e5f4 g1f3",  # King's Gambit
    "e2e4 e7e5 g1f3 d7d6 d2d4",  # Philidor
    "e2e4 e7e5 g1f3 b8c6 f1c4 g8f6",  # Two Knights
    "e2e4 e7e5 g1f3 b8c6 b1c3 g8f6",  # Four Knights
    "e2e4 c7c5 g1f3 b8c6 d2d4 c5d4 f3d4 g8f6 b1c3 e7e5",  # Sicilian, Sveshnikov
    "e2e4 c7c5 g1f3 e7e6 d2d4 c5d4 f3d4 a7a6",  # Sicilian, Kan
    "e2e4 c7c5 b1c3 b8c6 g2g3 g7g6",  # Sicilian, closed
    "e2e4 c7c5 c2c3 g8f6 e4e5 f6d5",  # Sicilian, Alapin
    "e2e4 c7c5 g1f3 d7d6 d2d4 c5d4 f3d4 g8f6 b1c3 a7a6",  # Sicilian, Najdorf
    "e2e4 c7c5 g1f3 d7d6 f1b5",  # Sicilian, Moscow
    "e2e4 e7e6 d2d4 d7d5 b1c3 f8b4",  # French, Winawer
    "e2e4 e7e6 d2d4 d7d5 e4e5 c7c5 c2c3",  # French, advance
    "e2e4 e7e6 d2d4 d7d5 b1d2 g8f6",  # French, Tarrasch
    "e2e4 c7c6 d2d4 d7d5 e4e5 c8f5",  # Caro-Kann, advance
    "e2e4 c7c6 d2d4 d7d5 b1c3 d5e4 c3e4 c8f5",  # Caro-Kann, classical
    "e2e4 d7d6 d2d4 g8f6 b1c3 g7g6",  # Pirc
    "e2e4 g7g6 d2d4 f8g7 b1c3 d7d6",  # Modern
    "e2e4 d7d5 e4d5 d8d5 b1c3 d5a5",  # Scandinavian
    "e2e4 g8f6 e4e5 f6d5 d2d4 d7d6",  # Alekhine
    "d2d4 d7d5 c2c4 c7c6 g1f3 g8f6 b1c3",  # Slav
    "d2d4 d7d5 c2c4 d5c4 g1f3 g8f6 e2e3",  # Queen's Gambit Accepted
    "d2d4 d7d5 c2c4 e7e6 b1c3 g8f6 c1g5 f8e7",  # QGD, orthodox
    "d2d4 g8f6 c2c4 e7e6 g1f3 b7b6",  # Queen's Indian
    "d2d4 g8f6 c2c4 e7e6 g2g3 d7d5",  # Catalan
    "d2d4 g8f6 c2c4 g7g6 b1c3 d7d5",  # Grünfeld
    "d2d4 g8f6 c2c4 c7c5 d4d5 e7e6",  # Benoni
    "d2d4 g8f6 c2c4 c7c5 d4d5 b7b5",  # Benko
    "d2d4 f7f5 g2g3 g8f6 f1g2 g7g6",  # Dutch, Leningrad
    "d2d4 d7d5 g1f3 g8f6 c1f4",  # London
    "d2d4 g8f6 c1g5 e7e6 e2e4",  # Trompowsky
    "d2d4 d7d5 c2c4 b8c6",  # Chigorin
    "c2c4 g8f6 b1c3 e7e5 g1f3 b8c6",  # English, four knights
    "c2c4 c7c5 g1f3 g8f6 b1c3 b8c6",  # English, symmetrical
    "c2c4 e7e6 b1c3 d7d5 d2d4 f8e7",  # English into QGD
    "g1f3 g8f6 c2c4 g7g6 b2b3 f8g7",  # Reti, fianchetto
    "g1f3 d7d5 d2d4 g8f6 e2e3 e7e6",  # Colle
    "f2f4 d7d5 g1f3 g8f6 e2e3 g7g6",  # Bird
    "b2b3 e7e5 c1b2 b8c6 e2e3",  # Larsen
    "g2g3 d7d5 f1g2 g8f6 g1f3 c7c6",  # King's fianchetto
    "e2e4 b8c6 d2d4 d7d5 b1c3",  # Nimzowitsch defence
]
CRAZYHOUSE_OPENINGS = [
    "e2e4 e7e5 g1f3 b8c6",
    "e2e4 e7e6 d2d4 d7d5",
    "e2e4 b8c6 g1f3 g8f6",
    "d2d4 d7d5 g1f3 g8f6",
    "e2e4 c7c6 d2d4 d7d5",
    "e2e4 d7d5 e4d5 d8d5",
]
DRAUGHTS_OPENINGS = [
    "32-28 18-23",
    "32-28 19-23",
    "33-28 18-22",
    "31-27 19-23",
    "34-29 17-21",
    "32-27 16-21",
    "33-29 20-24",
    "35-30 19-24",
    "31-26 20-24",
    "31-27 17-22",
    "32-27 18-23",
    "32-28 20-25",
    "33-28 16-21",
    "33-29 18-22",
    "34-29 19-23",
    "34-30 18-23",
    "35-30 17-22",
    "31-26 18-22",
    "32-27 17-21",
    "33-28 19-24",
    "34-29 20-24",
    "34-30 16-21",
    "33-29 19-23",
    "32-28 16-21",
]


def elo(wins, draws, losses):
    """Elo difference with a 95% interval, from A's results."""
    n = wins + draws + losses
    if n == 0:
        return None
    s = (wins + 0.5 * draws) / n
    var = (wins * (1 - s) ** 2 + draws * (0.5 - s) ** 2 + losses * s**2) / n
    err = 1.96 * math.sqrt(var / n)

    def to_elo(p):
        p = min(max(p, 1e-3), 1 - 1e-3)
        return -400 * math.log10(1 / p - 1) + 0.0  # no "-0" for an even score

    return s, to_elo(s), to_elo(s - err), to_elo(s + err)


def summary(label, w, d, l):
    r = elo(w, d, l)
    if r is None:
        return f"{label}: no games"
    s, e, lo, hi = r
    return f"{label}: +{w} ={d} -{l}  score {100 * s:.1f}%  Elo {e:+.0f} [{lo:+.0f}, {hi:+.0f}]"


def options(pairs):
    out = {}
    for p in pairs or []:
        k, _, v = p.partition("=")
        out[k.strip()] = int(v) if v.strip().lstrip("-").isdigit() else v.strip()
    return out


def parse_tc(tc):
    """`10+0.1` as (10.0, 0.1) seconds, or None."""
    if not tc:
        return None
    base, _, inc = tc.partition("+")
    return float(base), float(inc or 0)


# Games each engine (A, B) lost on time, over the whole run.
time_losses = [0, 0]


def chess_engines(args, b_options):
    """Starts engines A and B (B configured with `b_options`)."""
    import chess.engine

    a = chess.engine.SimpleEngine.popen_uci(shlex.split(args.a))
    b = chess.engine.SimpleEngine.popen_uci(shlex.split(args.b))
    if b_options:
        b.configure(b_options)
    return a, b


def chess_game(args, g, a, b):
    """Plays game g (opening g // 2, A white when g is even); returns A's result ("w", "d" or
    "l"), the lines to print, who lost on time (0 for A, 1 for B, or None) and the game's PGN
    text (with --pgn, else None)."""
    import chess
    import chess.engine
    import chess.variant

    board_class = chess.variant.CrazyhouseBoard if args.game == "crazyhouse" else chess.Board
    openings = CRAZYHOUSE_OPENINGS if args.game == "crazyhouse" else CHESS_OPENINGS
    tc = parse_tc(args.tc)
    if args.depth is not None:
        limit = chess.engine.Limit(depth=args.depth)
    elif args.nodes is not None:
        limit = chess.engine.Limit(nodes=args.nodes)
    else:
        limit = chess.engine.Limit(time=args.movetime)
    lines = []
    time_loss = None
    opening = openings[(g // 2) % len(openings)].split()
    a_white = g % 2 == 0
    board = board_class()
    for m in opening:
        board.push_uci(m)
    clock = {chess.WHITE: tc[0], chess.BLACK: tc[0]} if tc else None
    flagged = None
    least = {True: float("inf"), False: float("inf")}  # least clock left, by "is A"
    while not board.is_game_over(claim_draw=True) and board.ply() < args.max_plies:
        engine = a if (board.turn == chess.WHITE) == a_white else b
        if clock:
            limit = chess.engine.Limit(
                white_clock=clock[chess.WHITE],
                black_clock=clock[chess.BLACK],
                white_inc=tc[1],
                black_inc=tc[1],
            )
        started = time.monotonic()
        result = engine.play(board, limit, game=g)
        if clock:
            # The clock runs from sending `go` to reading `bestmove`, pipes included.
            spent = time.monotonic() - started
            clock[board.turn] -= spent
            is_a = engine is a
            least[is_a] = min(least[is_a], clock[board.turn])
            if clock[board.turn] < 0:
                flagged = board.turn
                lines.append(f"game {g + 1}: {'A' if is_a else 'B'} took {spent:.3f} s with {clock[board.turn] + spent:.3f} s left")
                break
            clock[board.turn] += tc[1]
        if result.move is None or result.move not in board.legal_moves:
            raise SystemExit(f"game {g + 1}: illegal move {result.move} in {board.fen()}")
        board.push(result.move)
    if flagged is not None:
        who = "A" if (flagged == chess.WHITE) == a_white else "B"
        time_loss = 0 if who == "A" else 1
        outcome = chess.Outcome(chess.Termination.VARIANT_LOSS, not flagged)
        lines.append(f"game {g + 1}: {who} lost on time at ply {board.ply()}")
    else:
        outcome = board.outcome(claim_draw=True)
    winner = outcome.winner if outcome else None
    if winner is None:
        verdict, res = "d", "1/2-1/2"
    elif (winner == chess.WHITE) == a_white:
        verdict, res = "w", "A wins"
    else:
        verdict, res = "l", "B wins"
    why = outcome.termination.name.lower() if outcome else "ply limit"
    left = f", least clock left A {least[True]:.2f} s, B {least[False]:.2f} s" if clock else ""
    lines.append(f"game {g + 1}: A {'white' if a_white else 'black'}, {res} ({why}, {board.ply()} plies{left})")
    record = pgn_text(args, board, g, a_white, outcome) if args.pgn else None
    return verdict, lines, time_loss, record


def chess_match(args, b_options):
    if args.cluster:
        return cluster_match(args, b_options)
    a, b = chess_engines(args, b_options)
    try:
        return play_games(args, lambda g: chess_game(args, g, a, b))
    finally:
        a.quit()
        b.quit()


def play_games(args, play):
    """Plays games first_game.. one after the other; returns A's wins, draws and losses."""
    score = {"w": 0, "d": 0, "l": 0}
    for g in range(args.first_game, args.first_game + args.games):
        verdict, lines, time_loss, record = play(g)
        report(verdict, lines, time_loss, score)
        if record is not None:
            with open(args.pdn if args.game == "draughts" else args.pgn, "a") as f:
                f.write(record)
    return score["w"], score["d"], score["l"]


def report(verdict, lines, time_loss, score):
    """Prints a game's lines and counts its result."""
    for line in lines:
        print(line, flush=True)
    if time_loss is not None:
        time_losses[time_loss] += 1
    score[verdict] += 1


def _game_on_worker(args, b_options, g):
    """One game of a cluster match, on a worker: the engines are started on the worker the
    first time and kept for its next games."""
    from zrf.cluster import worker_cache

    cache = worker_cache()
    key = ("match", args.game, args.a, args.b, repr(sorted((b_options or {}).items())))
    if key not in cache:
        cache[key] = draughts_engines(args, b_options) if args.game == "draughts" else chess_engines(args, b_options)
    a, b = cache[key]
    play = draughts_game if args.game == "draughts" else chess_game
    return list(play(args, g, a, b))


def cluster_match(args, b_options):
    """The games of a match spread over a Ray cluster (`--cluster ADDRESS`, zrf.cluster), each
    game a task; lines are printed as games finish. With `--results FILE` finished games are
    kept in FILE and a rerun with the same arguments plays only the others. With --pgn or
    --pdn the workers send each game's record back and the driver appends it to the file as
    the game finishes (workers may be other machines); at the end the file holds the match's
    games once each, in order (see `Records`)."""
    import zrf.cluster as zc

    zc.connect(args.cluster, args.cluster_cpus)
    settings = {k: getattr(args, k) for k in ("game", "a", "b", "movetime", "depth", "nodes", "tc", "max_plies")}
    path = args.pdn if args.game == "draughts" else args.pgn
    key = zc.run_key("match", b_options=b_options, records=bool(path), **settings)
    games = range(args.first_game, args.first_game + args.games)
    score = {"w": 0, "d": 0, "l": 0}
    records = Records(path, key, games)
    held = set(zc.load_results(args.results, key)) if args.results else set()

    def finished(g, r):
        report(r[0], r[1], r[2], score)
        records.add(g, r[3] if len(r) > 3 else None, g in held)

    local = argparse.Namespace(**{**vars(args), "pgn": bool(args.pgn), "pdn": bool(args.pdn)})
    zc.run_tasks(_game_on_worker, [(g, (local, b_options, g)) for g in games], results=args.results,
                 key=key, desc="games", on_result=finished)
    records.close()
    return score["w"], score["d"], score["l"]


class Records:
    """The --pgn or --pdn file of a cluster match. Games are appended as they finish, each
    tagged `[MatchKey "KEY"]` (the run's key); at the end the file is rewritten with the games
    of this match (tag KEY, a Round of its games, from an interrupted run too) taken out and
    all of them appended in game order, so a resumed match leaves each game once."""

    def __init__(self, path, key, games):
        self.path, self.key, self.games, self.texts = path, key, set(games), {}

    def tagged(self, text):
        return text.replace("\n", f'\n[MatchKey "{self.key}"]\n', 1)

    def add(self, g, text, held):
        if self.path is None or text is None:
            return
        self.texts[g] = self.tagged(text)
        if not held:
            with open(self.path, "a") as f:
                f.write(self.texts[g])

    def close(self):
        import os
        import re

        if self.path is None:
            return
        old = open(self.path).read() if os.path.exists(self.path) else ""
        mine = re.compile(r'^\[MatchKey "%s"\]$' % re.escape(self.key), re.M)
        kept = []
        for chunk in re.split(r"(?m)^(?=\[Event )", old):
            rnd = re.search(r'^\[Round "(\d+)"\]$', chunk, re.M)
            if mine.search(chunk) and rnd and int(rnd.group(1)) - 1 in self.games:
                continue
            kept.append(chunk)
        tmp = self.path + ".tmp"
        with open(tmp, "w") as f:
            f.write("".join(kept) + "".join(self.texts[g] for g in sorted(self.texts)))
        os.replace(tmp, self.path)


def pgn_text(args, board, g, a_white, outcome):
    """The game in PGN, engine A and B named by their commands, followed by a blank line."""
    import chess.pgn

    game = chess.pgn.Game.from_board(board)
    game.headers["Event"] = f"scripts/match.py {args.game}"
    game.headers["Round"] = str(g + 1)
    game.headers["White"] = args.a if a_white else args.b
    game.headers["Black"] = args.b if a_white else args.a
    game.headers["Result"] = outcome.result() if outcome else "1/2-1/2"
    return str(game) + "\n\n"


def draughts_engines(args, b_options):
    """Starts Hub engines A and B for international draughts."""
    import shutil
    from draughts.engine import HubEngine

    def start(command):
        # pydraughts resolves the program's symbolic links (a virtual environment's python
        # becomes the base interpreter, without the environment's packages) and a name
        # without a folder against the current folder, then runs the words through a shell:
        # `env` runs the command as given, each word quoted.
        words = shlex.split(command)
        return HubEngine([shutil.which("env") or "/usr/bin/env", *map(shlex.quote, words)])

    a = start(args.a)
    b = start(args.b)
    for e in (a, b):
        e.configure({"variant": "normal"})
    if b_options:
        b.configure(b_options)
    a.init()
    b.init()
    return a, b


def draughts_game(args, g, a, b):
    """Plays draughts game g; returns A's result ("w", "d" or "l"), the lines to print, None
    (no clocks in draughts matches) and the game's PDN text (with --pdn, else None)."""
    from draughts import Board, Move
    from draughts.engine import Limit

    if args.depth is not None:
        limit = Limit(depth=args.depth)
    elif args.nodes is not None:
        limit = Limit(nodes=args.nodes)
    else:
        limit = Limit(movetime=args.movetime)
    lines = []
    opening = DRAUGHTS_OPENINGS[(g // 2) % len(DRAUGHTS_OPENINGS)].split()
    a_white = g % 2 == 0
    board = Board(variant="standard")
    for m in opening:
        board.push(Move(board, pdn_move=m))
    plies = len(opening)
    while not board.is_over() and plies < args.max_plies:
        white_to_move = board.turn == 2  # pydraughts: 2 is White
        engine = a if white_to_move == a_white else b
        try:
            result = engine.play(board, limit, False)
        except IndexError:
            # A bare `done`: the engine's rules end the game here (a draw rule that
            # pydraughts does not apply); it is scored as a draw.
            lines.append(f"game {g + 1}: {'A' if engine is a else 'B'} sees the game over (draw) at ply {plies}")
            break
        board.push(result.move)
        plies += 1
    winner = board.winner() if board.is_over() else None
    if not winner:
        verdict, res = "d", "draw"
    elif (winner == 2) == a_white:
        verdict, res = "w", "A wins"
    else:
        verdict, res = "l", "B wins"
    lines.append(f"game {g + 1}: A {'white' if a_white else 'black'}, {res} ({plies} plies)")
    record = pdn_text(args, board, g, a_white, winner) if args.pdn else None
    return verdict, lines, None, record


def draughts_match(args, b_options):
    if args.cluster:
        return cluster_match(args, b_options)
    a, b = draughts_engines(args, b_options)
    try:
        return play_games(args, lambda g: draughts_game(args, g, a, b))
    finally:
        a.quit()
        b.quit()
        a.kill_process()
        b.kill_process()


def pdn_text(args, board, g, a_white, winner):
    """The draughts game in PDN (pydraughts' writer: the moves from the start, numbered, and
    the result, 2-0, 0-2 or 1-1; a game stopped at the ply limit is 1-1), then a blank line."""
    from draughts.PDN import PDNWriter

    white, black = (args.a, args.b) if a_white else (args.b, args.a)
    ending = {2: "2-0", 1: "0-2"}.get(winner, "1-1")
    tags = {"Event": f"scripts/match.py {args.game}", "Round": str(g + 1), "White": white,
            "Black": black, "Result": ending}
    return PDNWriter("", board=board, tags=tags, game_ending=ending).pdn_text


NODE_POSITIONS = [
    ("start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
    ("Kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
    ("Italian", "r1bq1rk1/pppp1ppp/2n2n2/2b1p3/2B1P3/2PP1N2/PP3PPP/RNBQ1RK1 b - - 0 6"),
    ("rook ending", "1K1k4/1P6/8/8/8/8/r7/2R5 w - - 0 1"),
]


def nodes(args, b_options):
    import chess
    import chess.engine

    depth = args.depth or 7
    engines = [chess.engine.SimpleEngine.popen_uci(shlex.split(c)) for c in (args.a, args.b)]
    try:
        if b_options:
            engines[1].configure(b_options)
        print(f"| position | A nodes to depth {depth} | B nodes | A / B |")
        print("|---|---|---|---|")
        for name, fen in NODE_POSITIONS:
            counts = []
            for e in engines:
                e.configure({"Clear Hash": None}) if "Clear Hash" in e.options else None
                info = e.analyse(chess.Board(fen), chess.engine.Limit(depth=depth))
                counts.append(info.get("nodes", 0))
            ratio = counts[0] / counts[1] if counts[1] else float("inf")
            print(f"| {name} | {counts[0]} | {counts[1]} | {ratio:.1f} |", flush=True)
    finally:
        for e in engines:
            e.quit()
    return None


def timing(args, b_options):
    """Time from `go movetime T` to `bestmove` for engine A, first move of each game included."""
    import subprocess

    worst = 0.0
    over = 0
    total = 0
    for variant in ["chess", "crazyhouse"]:
        for _ in range(max(1, args.games // 2)):
            p = subprocess.Popen(shlex.split(args.a), stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

            def send(line):
                p.stdin.write(line + "\n")
                p.stdin.flush()

            def until(prefix):
                while True:
                    line = p.stdout.readline()
                    if not line or line.startswith(prefix):
                        return line

            send("uci")
            until("uciok")
            send(f"setoption name UCI_Variant value {variant}")
            moves = []
            for ply in range(20):
                mt = [100, 500, 1000][ply % 3] if args.depth is None else int(args.movetime * 1000)
                send("position startpos moves " + " ".join(moves))
                t = time.time()
                send(f"go movetime {mt}")
                line = until("bestmove")
                ms = (time.time() - t) * 1000
                total += 1
                limit = mt * 1.1 + 20
                if ms > limit:
                    over += 1
                    print(f"{variant} ply {ply}: {ms:.0f} ms for movetime {mt}", flush=True)
                worst = max(worst, ms - mt)
                best = line.split()[1] if line else "(none)"
                if best == "(none)":
                    break
                moves.append(best)
            send("quit")
            p.wait()
    print(f"{total} moves, {over} over 110% + 20 ms, worst overrun {worst:.0f} ms")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("game", choices=["chess", "crazyhouse", "draughts", "nodes", "timing"])
    p.add_argument("--a", required=True, help="command of engine A")
    p.add_argument("--b", required=True, help="command of engine B")
    p.add_argument("--b-option", action="append", help="NAME=VALUE for engine B (repeatable)")
    p.add_argument("--ladder", help="Stockfish skill levels LO-HI, one match each")
    p.add_argument("--movetime", type=float, default=0.5, help="seconds per move")
    p.add_argument("--depth", type=int, help="fixed depth instead of a time per move")
    p.add_argument("--nodes", type=int, help="fixed nodes per move instead of a time per move")
    p.add_argument("--tc", help="game clock BASE+INC in seconds (chess), e.g. 10+0.1, instead of a time per move")
    p.add_argument("--games", type=int, default=20, help="games per match (even: both colours)")
    p.add_argument("--first-game", type=int, default=0, help="number of the first game (even): game g plays opening g // 2, so two matches can split the openings")
    p.add_argument("--max-plies", type=int, default=300, help="longer games are draws")
    p.add_argument("--pgn", help="append every chess game to this PGN file")
    p.add_argument("--pdn", help="append every draughts game to this PDN file")
    p.add_argument("--cluster", metavar="ADDRESS", help="play the games on a Ray cluster through zrf.cluster: `local` (this machine), `auto` or HOST:PORT (docs/cluster.md); the engine commands must run on every worker, e.g. `python -m zrf.uci`")
    p.add_argument("--cluster-cpus", type=int, help="CPUs of a `--cluster local` Ray (default: all)")
    p.add_argument("--results", help="with --cluster: keep finished games in this file and resume from it")
    args = p.parse_args()
    run = draughts_match if args.game == "draughts" else chess_match
    started = time.time()
    if args.game == "nodes":
        nodes(args, options(args.b_option))
        return
    if args.game == "timing":
        timing(args, None)
        return
    if args.ladder:
        lo, _, hi = args.ladder.partition("-")
        rows = []
        for level in range(int(lo), int(hi or lo) + 1):
            opts = options(args.b_option)
            opts["Skill Level"] = level
            print(f"-- Skill Level {level}", flush=True)
            rows.append(summary(f"Skill Level {level}", *run(args, opts)))
        print("\n".join(rows))
    else:
        print(summary(f"{args.game}", *run(args, options(args.b_option))))
    if args.tc:
        print(f"losses on time: A {time_losses[0]}, B {time_losses[1]}")
    print(f"({time.time() - started:.0f} s)")


if __name__ == "__main__":
    sys.exit(main())
