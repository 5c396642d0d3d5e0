"""`python -m zrf.uci [FILE]`: zrf as a UCI engine on standard input and output, as `zrf uci`
(the same protocol code, through the native module), for machines with the Python package
and no `zrf` binary (the workers of `zrf.cluster match`)."""

import sys


def main(argv=None):
    from ._zrf import serve_protocol

    argv = sys.argv[1:] if argv is None else argv
    serve_protocol("uci", argv[0] if argv else None)


if __name__ == "__main__":
    main()
