"""The engine protocols from the package alone: `python -m zrf.uci` and `python -m zrf.hub`."""

import sys


def main(protocol, argv=None):
    """Speaks `protocol` ("uci" or "hub") on standard input and output, as `zrf uci` and
    `zrf hub` do (the same protocol code); argv[0], if given, is a rules file whose games
    become the variants."""
    from ._zrf import serve_protocol

    argv = sys.argv[1:] if argv is None else argv
    serve_protocol(protocol, argv[0] if argv else None)
