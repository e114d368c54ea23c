"""What a backend did with a converted graph: Inductor's fused int8 kernels, XNNPACK's delegated partitions.

Each backend module lowers a private copy of a converted GraphModule and returns a `BackendRecord`,
read from the backend's own records (Inductor's post-grad graph and pattern-matcher counters,
ExecuTorch's delegation info), never from our reading of the converted graph.
"""

from .record import OUTCOMES, BackendRecord, NodeOutcome

__all__ = ["OUTCOMES", "BackendRecord", "NodeOutcome"]
