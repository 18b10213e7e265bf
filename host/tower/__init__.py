"""The castillo tower: the link to the Pico (real or simulated) and its ledger."""
