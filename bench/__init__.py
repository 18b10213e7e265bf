"""Benchmarks run by `make bench`: each module here with a `main()` prints its figures."""
