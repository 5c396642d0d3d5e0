"""SAN tokens judged by python-chess, for tests/san.rs.

`classify`: reads lines `FEN` from standard input; for each position prints lines
`FEN<TAB>TOKEN<TAB>UCI` (or `-` where python-chess refuses the token), over the SAN of every
legal move and variations of it (file, x, piece letter, promotion and square changed).

`replay FILE`: reads every game of a PGN file (its `Variant` tag chooses the board) and
prints, per game, the number of moves, the result token and the final FEN, or
`error: ...` when a move is not legal for python-chess."""
import sys

import chess
import chess.pgn


def variations(board, move):
    san = board.san(move).rstrip("+#")
    out = {san}
    piece = board.piece_at(move.from_square)
    to = chess.square_name(move.to_square)
    if san.startswith("O-O"):
        out |= {"0-0", "O-O-O" if san == "O-O" else "O-O", "o-o"}
        return out
    if piece.piece_type == chess.PAWN:
        body = san.split("=")[0]
        promo = san[len(body):]
        if "x" in body:
            out |= {to + promo, body.replace("x", "") + promo, "P" + to + promo}
        else:
            out |= {chess.FILE_NAMES[chess.square_file(move.from_square)] + "x" + to + promo}
            out.add("P" + san)
        if promo:
            out |= {body, body + promo[1:], body + promo.lower()}
        for f in "abcdefgh":
            out.add(f + "x" + to + promo)
    else:
        letter = san[0]
        rest = san[1:]
        out |= {letter + rest.replace("x", ""), letter + "x" + to, letter + to}
        out.add(letter + chess.square_name(move.from_square) + to)
        for other in "NBRQK":
            out.add(other + rest)
    f, r = chess.square_file(move.to_square), chess.square_rank(move.to_square)
    for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        if 0 <= f + df < 8 and 0 <= r + dr < 8:
            out.add(san[: len(san) - len(to)] + chess.square_name(chess.square(f + df, r + dr))
                    if san.endswith(to) else san)
    return out


def classify():
    for line in sys.stdin:
        fen = line.strip()
        if not fen:
            continue
        board = chess.Board(fen)
        tokens = set()
        for move in board.legal_moves:
            tokens |= variations(board, move)
        tokens |= {"b5", "e9", "Zf3", "Nf", "exd", "Kxx", "O-O-O-O", "i4"}
        for token in sorted(tokens):
            try:
                uci = board.parse_san(token).uci()
            except ValueError:
                uci = "-"
            print(f"{fen}\t{token}\t{uci}")


def replay(path):
    with open(path) as f:
        while True:
            game = chess.pgn.read_game(f)
            if game is None:
                break
            if game.errors:
                print(f"error: {game.errors[0]}")
                continue
            board = game.board()
            n = 0
            for move in game.mainline_moves():
                board.push(move)
                n += 1
            print(f"{n} {game.headers.get('Result', '*')} {board.fen()}")


if __name__ == "__main__":
    if sys.argv[1] == "classify":
        classify()
    else:
        replay(sys.argv[2])
