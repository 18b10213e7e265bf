"""Pure rules engines for the Castillo kit: no I/O, no third-party dependencies."""
