"""Shared test helpers: export the course's models the way the chapters do."""

import torch

from pt2e_lens.examples import example_inputs, get_model


def export_module(name: str, batch: int) -> torch.fx.GraphModule:
    return torch.export.export(get_model(name).eval(), example_inputs(batch)).module()
