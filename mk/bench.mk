# The benchmark suite: make bench.
