"""prepare_pt2e as pt2e-lens runs it, below both `capture` (run.prepare) and `why` (pl.check, pl.blame,
pl.compare_orders): the recording quantizer, the annotation watch and checks, and prepare's errors."""
