#!/usr/bin/env python3
"""List one engine's mistakes in a set of PGN games, as judged by a stronger engine.

For every game in the PGN files, the side whose player name (the White/Black header)
contains --who (default "zrf") is examined: the position before and after each of its
moves is scored by the judge engine (Stockfish by default, at --nodes per position), and
every move whose score drop, from that side's view, reaches --drop centipawns (or
--balanced-drop when the position before was within +-150) is listed with the FEN
before the move, the move played, the judge's best move, both scores and a game phase.

Output: a tab-separated table on stdout (or --out), worst drops first, and a summary by
phase on stderr. Needs python-chess.

Example:
    scripts/blunders.py games.pgn --judge /usr/games/stockfish --nodes 150000 --out m.tsv
"""
import argparse
import sys

import chess
import chess.engine
import chess.pgn

MATE = 3000


def cp(score, pov):
    return score.pov(pov).score(mate_score=MATE)


def phase(board):
    """opening (move < 12), ending (no queens, or at most a rook and minor each), else middle game."""
    if board.fullmove_number < 12:
        return "opening"
    worth = {chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9}
    side = [sum(v * len(board.pieces(t, c)) for t, v in worth.items()) for c in (chess.WHITE, chess.BLACK)]
    if max(side) <= 8 or not board.pieces(chess.QUEEN, chess.WHITE) and not board.pieces(chess.QUEEN, chess.BLACK) and max(side) <= 13:
        return "ending"
    return "middle"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("pgn", nargs="+")
    ap.add_argument("--who", default="zrf", help="substring of the examined player's name")
    ap.add_argument("--judge", default="stockfish")
    ap.add_argument("--nodes", type=int, default=150000)
    ap.add_argument("--drop", type=int, default=100)
    ap.add_argument("--balanced-drop", type=int, default=50)
    ap.add_argument("--out")
    args = ap.parse_args()

    judge = chess.engine.SimpleEngine.popen_uci(args.judge)
    judge.configure({"Threads": 1, "Hash": 64})
    limit = chess.engine.Limit(nodes=args.nodes)
    rows = []
    gid = 0
    for path in args.pgn:
        with open(path) as f:
            while True:
                game = chess.pgn.read_game(f)
                if game is None:
                    break
                gid += 1
                if args.who in game.headers.get("White", ""):
                    me = chess.WHITE
                elif args.who in game.headers.get("Black", ""):
                    me = chess.BLACK
                else:
                    continue
                result = game.headers.get("Result", "*")
                board = game.board()
                prev = None
                for move in game.mainline_moves():
                    if board.turn == me:
                        if prev is None:
                            prev = judge.analyse(board, limit)
                        before = cp(prev["score"], me)
                        best = prev.get("pv", [None])[0]
                        fen = board.fen()
                        san = board.san(move)
                        best_san = board.san(best) if best else "-"
                        ph = phase(board)
                        num = board.fullmove_number
                        board.push(move)
                        if board.is_game_over():
                            after = before if not board.is_checkmate() else MATE
                            prev = None
                        else:
                            prev = judge.analyse(board, limit)
                            after = cp(prev["score"], me)
                        drop = before - after
                        limit_drop = args.balanced_drop if abs(before) <= 150 else args.drop
                        if drop >= limit_drop and move != best:
                            rows.append((drop, gid, path, result, "w" if me else "b", num, ph, before, after, san, best_san, fen))
                    else:
                        board.push(move)
                        prev = None if board.is_game_over() else judge.analyse(board, limit)
                print(f"game {gid} done, {len(rows)} mistakes so far", file=sys.stderr)
    judge.quit()
    rows.sort(key=lambda r: -r[0])
    out = open(args.out, "w") if args.out else sys.stdout
    print("drop\tgame\tfile\tresult\tside\tmove\tphase\tbefore\tafter\tplayed\tbest\tfen", file=out)
    for r in rows:
        print("\t".join(str(x) for x in r), file=out)
    counts = {}
    for r in rows:
        counts[r[6]] = counts.get(r[6], 0) + 1
    print("mistakes by phase:", counts, file=sys.stderr)


if __name__ == "__main__":
    main()
