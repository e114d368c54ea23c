"""Course chapter M00-3 (decomposition): every number and string it prints, from pt2e-lens."""

import pt2e_lens as pl


def test_node_counts_47_to_51(tiny_ep):
    gm_pre, gm_post = tiny_ep.module(), tiny_ep.run_decompositions({}).module()
    assert pl.node_count(gm_pre) == len(gm_pre.graph.nodes) == 47
    assert pl.node_count(gm_post) == len(gm_post.graph.nodes) == 51


def test_op_diff_table_rows_and_order(tiny_ep):
    table = pl.diff_ops(tiny_ep.module(), tiny_ep.run_decompositions({}).module(), "gm_pre", "gm_post")
    assert table.columns == ["op", "gm_pre", "gm_post", "delta"]
    assert [tuple(r) for r in table.rows] == [
        ("_native_batch_norm_legit_no_training", 0, 4, 4),
        ("batch_norm", 4, 0, -4),
        ("flatten", 1, 0, -1),
        ("getitem", 0, 4, 4),
        ("view", 0, 1, 1),
        ("adaptive_avg_pool2d", 1, 1, 0),
        ("add", 1, 1, 0),
        ("conv2d", 4, 4, 0),
        ("linear", 1, 1, 0),
        ("max_pool2d", 2, 2, 0),
        ("relu", 4, 4, 0),
    ]


def test_op_counts_match_the_real_graph(tiny_ep):
    gm = tiny_ep.run_decompositions({}).module()
    counts = pl.op_counts(gm)
    for op in ("conv2d", "getitem", "_native_batch_norm_legit_no_training", "view"):
        real = sum(1 for n in gm.graph.nodes if n.op == "call_function" and n.target.__name__.split(".")[0] == op)
        assert counts[op] == real


def test_chain_before_and_after_decomposition(tiny_ep):
    pre = pl.chain(tiny_ep.module(), "conv2d", until="relu")
    post = pl.chain(tiny_ep.run_decompositions({}).module(), "conv2d", until="relu")
    assert str(pre) == "conv2d → batch_norm → relu"
    assert str(post) == "conv2d → _native_batch_norm_legit_no_training → getitem → relu"
    assert len(pre) == 3 and len(post) == 4


def test_decomposition_became_map_and_ep_untouched(tiny_ep):
    before = str(tiny_ep.graph)
    d = pl.decomposition(tiny_ep, {})
    assert str(tiny_ep.graph) == before  # run_decompositions returns a new program
    assert d.node_counts == (47, 51)
    became = {r[0]: r[3] for r in d.became.rows}
    assert became["batch_norm"] == "_native_batch_norm_legit_no_training + getitem"
    assert became["flatten"] == "view"
    assert became["conv2d"] == "conv2d"


def test_core_aten_turns_conv2d_into_convolution(tiny_ep):
    d = pl.decomposition(tiny_ep, "core")
    counts = dict((r[0], r[2]) for r in d.op_diff.rows)
    assert counts.get("conv2d", 0) == 0 and counts["convolution"] == 4


def test_stage_diff_marks_the_four_batch_norms_removed(tiny_ep):
    diff = pl.stage_diff(tiny_ep.module(), tiny_ep.run_decompositions({}).module())
    removed_bn = [n for n in diff.removed if n.startswith("batch_norm")]
    assert len(removed_bn) == 4
    assert all(len(diff.became[n]) == 2 for n in removed_bn)
    assert "conv2d" in dict(diff.kept)


def test_focus_hops_zero_keeps_only_those_ops(tiny_ep):
    ids = pl.focus(tiny_ep.module(), ["conv2d", "batch_norm", "relu"], hops=0)
    assert len(ids) == 12
    assert set(ids) >= {"conv2d", "batch_norm", "relu"}
    widened = pl.focus(tiny_ep.module(), ["conv2d"], hops=1)
    assert "x" in widened and "batch_norm" in widened


def test_an_exported_program_is_read_as_ep_module(tiny_ep):
    """Analyses on an ExportedProgram count what the course counts on ep.module(), not the lifted graph."""
    assert pl.node_count(tiny_ep) == 47
    roles = {n["role"] for n in pl.snapshot(tiny_ep).nodes if n["op"] == "get_attr"}
    assert roles == {"param"}
