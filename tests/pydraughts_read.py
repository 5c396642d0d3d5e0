"""Reads a PDN file with pydraughts' PDNReader and replays every game on a pydraughts board.

Prints, per game: the variant, the number of moves read, the result token, and the final
position (PDN FEN), or "error: ..." when a move is not legal for pydraughts."""
import sys
from draughts import Board, Move
from draughts.PDN import PDNReader

reader = PDNReader(filename=sys.argv[1])
for game in reader.games:
    board = Board(variant=game.variant or "standard", fen=game.tags.get("FEN", "startpos"))
    ok = True
    for i, text in enumerate(game.moves):
        try:
            move = Move(board, pdn_move=text)
            board.push(move)
        except Exception as e:
            print(f"error: move {i + 1} {text}: {e!r}")
            ok = False
            break
    if ok:
        print(f"{game.variant} {len(game.moves)} {game.game_ending} {board.fen}")
