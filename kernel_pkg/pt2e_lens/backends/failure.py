"""A lowering that failed, said twice: for `run.lower(...)` and for `pt2e-lens report --backend`.

The cause is the same; the fix is not (`freezing=False` is an argument of `run.lower`, the CLI has
`--quantizer`), so the error keeps the cause and both fixes apart.
"""

from __future__ import annotations

from .. import i18n
from ..errors import Pt2eLensError


class LoweringError(Pt2eLensError):
    """`str(e)`: the cause and the Python fix; `e.cause` and `e.cli_fix` for the CLI's own line."""

    def __init__(self, cause: str, fix: str, cli_fix: str, original: BaseException | None = None):
        super().__init__(i18n.t("error.lower_failed", cause=cause, fix=fix), original=original)
        self.cause, self.fix, self.cli_fix = cause, fix, cli_fix


def lowering_error(kind: str, original: BaseException | None = None, **params: str) -> LoweringError:
    """`kind`'s cause (`error.backend_cause.<kind>`) with its two fixes (`error.backend_fix.<kind>`, `error.backend_cli_fix.<kind>`)."""
    return LoweringError(
        i18n.t(f"error.backend_cause.{kind}", **params),
        i18n.t(f"error.backend_fix.{kind}", **params),
        i18n.t(f"error.backend_cli_fix.{kind}", **params),
        original=original,
    )
