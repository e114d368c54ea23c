"""The workbench's steps, in order: each one `wb.advance()` and one button."""

STEPS = ("export", "prepare", "calibrate", "convert", "lower")
