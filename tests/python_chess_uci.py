"""zrf as a UCI engine under python-chess (`chess.engine.SimpleEngine.popen_uci`), for
tests/protocol.rs. Prints one line per check, `ok ...` or `fail ...`.

- multipv: `analyse` with MultiPV 3, by depth and by time (the last iteration then unfinished):
  every line of one depth, ranked by score, distinct first moves.
- searchmoves: `play` with `root_moves` answers one of them.
- castling: with castling the only move among `root_moves`, that castling."""
import sys

import chess
import chess.engine

ZRF = sys.argv[1]

POSITIONS = [
    chess.STARTING_FEN,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "4q1k1/5pp1/7p/8/8/8/5PPP/4R1K1 w - - 0 1",
    "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
]


def report(ok, what):
    print(("ok " if ok else "fail ") + what, flush=True)


def multipv(engine):
    for fen in POSITIONS:
        board = chess.Board(fen)
        for limit in (chess.engine.Limit(depth=4), chess.engine.Limit(time=0.4)):
            infos = engine.analyse(board, limit, multipv=3)
            depths = {i.get("depth") for i in infos}
            scores = [i["score"].relative.score(mate_score=100000) for i in infos]
            firsts = [i["pv"][0] for i in infos]
            ok = (
                len(infos) == 3
                and len(depths) == 1
                and scores == sorted(scores, reverse=True)
                and len(set(firsts)) == 3
            )
            report(ok, f"multipv {fen} {limit}: depths {depths} scores {scores} moves {firsts}")


def searchmoves(engine):
    for fen in POSITIONS:
        board = chess.Board(fen)
        legal = list(board.legal_moves)
        for pick in (legal[:1], legal[-2:], legal[1::3]):
            result = engine.play(board, chess.engine.Limit(depth=3), root_moves=pick)
            report(result.move in pick, f"searchmoves {fen} {pick}: {result.move}")


def castling(engine):
    board = chess.Board("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1")
    for uci in ("e1g1", "e1c1"):
        castle = chess.Move.from_uci(uci)
        result = engine.play(board, chess.engine.Limit(depth=1), root_moves=[castle])
        report(result.move == castle, f"castling {uci} as the only root move: {result.move}")


def main():
    engine = chess.engine.SimpleEngine.popen_uci([ZRF, "uci"])
    try:
        multipv(engine)
        searchmoves(engine)
        castling(engine)
    finally:
        engine.quit()


if __name__ == "__main__":
    main()
