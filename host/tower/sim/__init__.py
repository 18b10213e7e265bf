"""The simulated castillo tower: the real firmware in the real MicroPython, fake hardware, a pty.

``SimTower`` (launcher.py) starts it; ``sensor_model`` and ``dropper`` make chute traces;
``trace`` reads and writes the CSV trace format (docs/trace-format.md).
"""
