"""`python -m zrf.uci [FILE]`: zrf as a UCI engine on standard input and output, as `zrf uci`,
for machines with the Python package and no `zrf` binary (the workers of `zrf.cluster match`)."""

from ._protocol import main

if __name__ == "__main__":
    main("uci")
