"""`python -m zrf.hub [FILE]`: zrf as a Hub engine on standard input and output, as `zrf hub`,
for machines with the Python package and no `zrf` binary (the workers of `zrf.cluster match`)."""

from ._protocol import main

if __name__ == "__main__":
    main("hub")
