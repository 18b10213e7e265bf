"""The hardware build pack: data files (pin map, LED map, wiring, BOM) and their generators."""
