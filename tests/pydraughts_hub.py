"""zrf as a Hub engine under pydraughts (`draughts.engine.HubEngine`), as tests/protocol.rs
runs it. Prints one line per check, `ok ...` or `fail ...`.

- games: `HubEngine.play` plays whole games (to pydraughts' end, or 300 plies) of every
  draughts game pydraughts and zrf share, each move legal on pydraughts' board.
- finished: a game zrf's rules have ended (a threefold repetition of kings) still gets a legal
  move, not a bare `done`."""
import sys

import draughts
from draughts.engine import HubEngine, Limit

ZRF = sys.argv[1]
# pydraughts' variant, zrf's Hub variant.
GAMES = [
    ("standard", "normal"),
    ("frisian", "frisian"),
    ("english", "english"),
    ("russian", "russian"),
    ("brazilian", "brazilian"),
]


def report(ok, what):
    print(("ok " if ok else "fail ") + what, flush=True)


def engine(variant):
    e = HubEngine([ZRF, "hub"])
    e.configure({"variant": variant})
    e.init()
    return e


def games():
    for pv, hv in GAMES:
        board = draughts.Board(variant=pv)
        e = engine(hv)
        plies = 0
        try:
            while not board.is_over() and plies < 300:
                result = e.play(board, Limit(depth=2), ponder=False)
                legal = [m.board_move for m in board.legal_moves()]
                if result.move.board_move not in legal:
                    raise ValueError(f"{result.move.hub_move} is not legal for pydraughts")
                board.push(result.move)
                plies += 1
            report(plies > 20, f"{pv}: {plies} plies, over {board.is_over()}")
        except Exception as ex:
            report(False, f"{pv}: at ply {plies}: {ex!r} in {board.fen}")
        finally:
            e.quit()
            e.kill_process()


def finished():
    board = draughts.Board(variant="standard", fen="W:WK46:BK1")
    for m in ["46-41", "1-7", "41-46", "7-1"] * 2:
        board.push(draughts.Move(board, pdn_move=m))
    e = engine("normal")
    try:
        result = e.play(board, Limit(depth=2), ponder=False)
        legal = [m.board_move for m in board.legal_moves()]
        report(result.move.board_move in legal, f"finished: answered {result.move.hub_move}")
    except Exception as ex:
        report(False, f"finished: {ex!r}")
    finally:
        e.quit()
        e.kill_process()


if __name__ == "__main__":
    finished()
    games()
