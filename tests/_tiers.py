"""The two tiers of the tests (issue 27 point 9) and what puts a test in the slow one.

`bash scripts/test.sh` (what CI runs) runs every test. `bash scripts/test.sh --fast` runs the fast tier: the lints,
every Python test that carries none of the markers below, the TypeScript unit tests and one smoke test per host.
A Python test is full-only when it carries a marker naming what it uses (a test can carry a marker itself with
`@pytest.mark.<name>`; whole files are marked here, in FULL_ONLY). Every file sits in FAST or FULL_ONLY, never both,
so a new file is placed on purpose (tests/test_tiers.py checks it). `python tests/_tiers.py` prints the fast tier's
`-m` expression for scripts/test.sh.
"""

from __future__ import annotations

import sys

# marker → what the test uses that makes it slow (registered in pyproject.toml's [tool.pytest.ini_options])
SLOW_MARKERS: dict[str, str] = {
    "inductor": "compiles with Inductor (torch.compile, pl.backend(..., 'inductor'))",
    "executorch": "lowers to ExecuTorch's XNNPACK delegate, or runs the program it made",
    "qat_convert": "prepares a QAT model (its conv-bn rewrite), trains or converts it",
    "kernel": "starts a real IPython kernel (jupyter_client)",
    "notebook": "executes notebooks (nbclient), or builds the course book",
    "dask": "starts a dask LocalCluster",
    "subprocess": "starts fresh Python interpreters that import torch",
    "real_models": "captures real model families (the findings corpus, vision and decoder blocks, a strict resnet)",
    "course": "runs the course chapters' code and exercises end to end",
    "jupyterlab": "starts a JupyterLab server",
    "code_server": "starts code-server (VS Code in the browser)",
}

# test file → the markers of what its tests use (every test of the file runs in the full tier only)
FULL_ONLY: dict[str, tuple[str, ...]] = {
    "test_backend_framework.py": ("inductor", "executorch"),
    "test_backend_inductor.py": ("inductor",),
    "test_backend_inductor_truth.py": ("inductor",),
    "test_backend_xnnpack.py": ("executorch",),
    "test_backend_xnnpack_headline.py": ("executorch",),
    "test_backend_xnnpack_run.py": ("executorch",),
    "test_bench_decoder.py": ("real_models",),
    "test_bombs.py": ("subprocess",),
    "test_cli_backend.py": ("inductor", "subprocess"),
    "test_conformance.py": ("real_models",),
    "test_course_exercises.py": ("course",),
    "test_course_helpers.py": ("course",),
    "test_course_m00_3.py": ("course",),
    "test_course_m03_6.py": ("course",),
    "test_course_notebooks.py": ("notebook",),
    "test_demo.py": ("subprocess",),
    "test_export_mode.py": ("real_models",),
    "test_workbench_lower.py": ("executorch",),
    "test_workbench_cancel.py": ("executorch",),
    "test_workbench_comm.py": ("kernel",),
    "test_findings_corpus.py": ("real_models",),
    "test_hygiene.py": ("subprocess",),
    "test_i18n.py": ("subprocess",),
    "test_i18n_errors.py": ("subprocess",),
    "test_ipython_errors.py": ("subprocess",),
    "test_kernel_comm.py": ("kernel",),
    "test_magics.py": ("kernel",),
    "test_magics_lower_freezing.py": ("inductor",),
    "test_magics_qat.py": ("qat_convert",),
    "test_notebook.py": ("notebook",),
    "test_notebook_backends.py": ("notebook", "inductor", "executorch"),
    "test_notebook_lint.py": ("subprocess",),
    "test_qat.py": ("qat_convert", "inductor", "executorch"),
    "test_qat_interrupt.py": ("qat_convert",),
    "test_qat_reference_missing.py": ("qat_convert",),
    "test_recipe_notebook.py": ("notebook",),
    "test_record_cli.py": ("subprocess",),
    "test_record_flows.py": ("executorch", "inductor", "qat_convert"),
    "test_record_magic.py": ("kernel",),
    "test_sensitivity_scale_out.py": ("dask",),
    "test_untouched_everywhere.py": ("inductor", "executorch", "qat_convert"),
    "test_vendor_blame_arm.py": ("executorch",),
    "test_vendor_quantizers.py": ("executorch",),
    "test_viewer_unpacker.py": ("subprocess",),
    "test_why_not.py": ("real_models",),
}

# test files that run in the fast tier (each test in them too, unless it carries a marker of SLOW_MARKERS itself)
FAST: set[str] = {
    "test_accuracy_folded_bn.py",
    "test_accuracy_nonfinite.py",
    "test_accuracy_strict_ids.py",
    "test_annotation_in_steps.py",
    "test_backend_xnnpack_missing.py",
    "test_bad_input.py",
    "test_bad_input_sweep.py",
    "test_bad_input_sweep_27.py",
    "test_calibration_dtype_change.py",
    "test_calibration_interrupt.py",
    "test_calibration_keeps_users_and_work.py",
    "test_capture.py",
    "test_capture_gc_frozen.py",
    "test_capture_lazy_calibrated.py",
    "test_shared_weights.py",
    "test_lent_weights.py",
    "test_lent_pages.py",
    "test_cli.py",
    "test_cli_overwrite.py",
    "test_cli_paths.py",
    "test_compare_args.py",
    "test_compare_moved.py",
    "test_conformance_harness.py",
    "test_contract.py",
    "test_copy_graph_refs.py",
    "test_copy_kept.py",
    "test_copy_nonleaf.py",
    "test_course_i18n.py",
    "test_decomposition_provenance.py",
    "test_dim_names.py",
    "test_display.py",
    "test_dynamic_quant_islands.py",
    "test_findings_grouped.py",
    "test_findings_never_crash.py",
    "test_focus_args.py",
    "test_guards_fn.py",
    "test_layers.py",
    "test_list_arg_edges.py",
    "test_magics_docs.py",
    "test_magics_fuzz.py",
    "test_no_sleeps.py",
    "test_observer_ranges.py",
    "test_orders_view.py",
    "test_output_problems_locale.py",
    "test_packed.py",
    "test_parts.py",
    "test_pictures.py",
    "test_progress.py",
    "test_protocol_schema.py",
    "test_pt2_trust.py",
    "test_qat_config_on_ptq.py",
    "test_qdq_affine.py",
    "test_qdq_beyond_int8.py",
    "test_quiet_native.py",
    "test_recipe.py",
    "test_record.py",
    "test_sensitivity.py",
    "test_sensitivity_parametrized.py",
    "test_sensitivity_threads.py",
    "test_snapshot_fast_path.py",
    "test_snapshot_load.py",
    "test_spec_problems_named.py",
    "test_tiers.py",
    "test_torchao_parity.py",
    "test_tracker_follows.py",
    "test_typed_contract.py",
    "test_view_locale.py",
    "test_viewer_weight.py",
    "test_why_accuracy.py",
    "test_why_check.py",
    "test_why_findings.py",
    "test_why_orders.py",
    "test_why_reasons.py",
    "test_why_sharing.py",
    "test_workbench.py",
    "test_workbench_bad_input.py",
    "test_workbench_code.py",
    "test_workbench_widget.py",
}

# browser tests (tests/ui): the fast tier's smoke test per host; every other file runs in the full tier only
# (npm run test:browser runs every *.test.mjs, test:lab every *.lab.mjs, test:hosts every *.host.mjs)
UI_FAST: dict[str, str] = {
    "packed.test.mjs": "the static report (report.js in chromium)",
    "hosts.test.mjs": "the anywidget module and the VS Code renderer (chromium, host stubs)",
    "lab.test.mjs": "JupyterLab (the prebuilt extension drawing a saved output)",
}

# what a full-only browser test file needs, by its name's ending (the host it starts)
UI_FULL_USES: dict[str, str] = {
    ".test.mjs": "chromium on static pages and stubs, or a real JupyterLab (views-lab, widget-lab, panel-language)",
    ".lab.mjs": "a real JupyterLab with a kernel (jupyterlab)",
    ".host.mjs": "real hosts: code-server with the .vsix, Notebook 7, JupyterLab with the course (code_server)",
}


def fast_expression() -> str:
    """pytest's `-m` expression of the fast tier: none of the slow markers."""
    return "not (" + " or ".join(sorted(SLOW_MARKERS)) + ")"


if __name__ == "__main__":
    sys.stdout.write(fast_expression() + "\n")
