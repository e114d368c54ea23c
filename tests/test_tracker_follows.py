"""The side panel follows the model the user touched last, Run or graph (issue 26.4): a graph assigned or drawn
after a Run takes over; drawing an older model brings it back; within one cell the last drawn wins."""

import torch

import pt2e_lens as pl
from pt2e_lens.kernel.tracker import Tracker


class Tiny(torch.nn.Module):
    def forward(self, x):
        return torch.relu(x) + 1


def _ep():
    return torch.export.export(Tiny(), (torch.randn(2, 3),))


def test_a_newer_graph_takes_over_from_a_run():
    ns: dict = {}
    tracker = Tracker(ns)
    ns["run"] = pl.Run(_ep())
    tracker.scan()
    assert tracker.current == "run"
    ns["gm"] = torch.fx.symbolic_trace(Tiny())  # M03-6 part C: new graphs after part B's Run
    tracker.scan()
    assert tracker.current == "gm"


def test_drawing_a_model_makes_it_current():
    ns: dict = {"run": pl.Run(_ep()), "gm": torch.fx.symbolic_trace(Tiny())}
    tracker = Tracker(ns)
    tracker.scan()
    assert tracker.current == "run"  # one cell made both: the Run
    pl.show(ns["gm"])
    tracker.scan()
    assert tracker.current == "gm"
    tracker.scan(shown=ns["run"])  # the cell's displayed value (`run` on its last line) is a touch too
    assert tracker.current == "run"
    tracker.scan()  # a cell that touches nothing changes nothing
    assert tracker.current == "run"


def test_drawing_a_stage_of_a_run_touches_the_run():
    ns: dict = {"run": pl.Run(_ep()), "gm": torch.fx.symbolic_trace(Tiny())}
    tracker = Tracker(ns)
    tracker.scan()
    pl.show(ns["gm"])
    tracker.scan()
    assert tracker.current == "gm"
    pl.compare(ns["gm"], ns["run"]["exported"])  # %pt2e compare gm run[exported]: the Run is drawn last
    tracker.scan()
    assert tracker.current == "run"


def test_within_one_cell_the_last_drawn_wins():
    ns: dict = {}
    tracker = Tracker(ns)
    ns["gm_pre"] = torch.fx.symbolic_trace(Tiny())
    ns["gm_post"] = torch.fx.symbolic_trace(Tiny())
    ns["later"] = torch.fx.symbolic_trace(Tiny())  # assigned later in the same cell, not drawn
    pl.compare([(ns["gm_pre"], "a"), (ns["gm_post"], "b")])  # M00-3's draw_stages
    tracker.scan()
    assert tracker.current == "gm_post"


def test_a_pin_still_wins_and_no_reference_is_kept():
    ns: dict = {"gm": torch.fx.symbolic_trace(Tiny()), "run": pl.Run(_ep())}
    tracker = Tracker(ns)
    tracker.scan()
    tracker.pin("gm")
    pl.show(ns["run"])
    tracker.scan()
    assert tracker.current == "gm"
    tracker.pin(None)
    assert tracker.current == "run"
    del ns["run"]
    tracker.scan()
    assert tracker.current == "gm"


class ConvBn(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv, self.bn = torch.nn.Conv2d(3, 4, 3), torch.nn.BatchNorm2d(4)

    def forward(self, x):
        return torch.relu(self.bn(self.conv(x))).flatten(1)


def test_a_decomposed_graph_is_titled_decomposed_not_exported():
    """M00-3's gm_post = ep.run_decompositions({}).module(): the picker and title said "gm_post · exported"."""
    from pt2e_lens.kernel.models import graph_state, info

    ep = torch.export.export(ConvBn().eval(), (torch.randn(1, 3, 8, 8),))
    pre, post = ep.module(), ep.run_decompositions({}).module()
    made = {n.target.__name__ for n in post.graph.nodes if n.op == "call_function"} - {
        n.target.__name__ for n in pre.graph.nodes if n.op == "call_function"
    }
    assert made  # torch's own decomposition made ops the exported graph has not (batch_norm's, flatten's view)
    assert (graph_state(pre), graph_state(post)) == ("exported", "decomposed")
    assert info("gm_post", "GraphModule", post)["stage"] == "decomposed"
    plain = torch.export.export(Tiny(), (torch.randn(2, 3),))  # nothing to decompose: still exported
    assert graph_state(plain.run_decompositions({}).module()) == "exported"
