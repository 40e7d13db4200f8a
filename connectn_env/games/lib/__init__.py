"""Compiled building blocks that game plugins call: random numbers, the state header,
the k-in-a-row line scan, Hex neighbours and union-find, placement-game kernels."""
