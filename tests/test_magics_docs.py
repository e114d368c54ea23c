"""Every `%pt2e` command the magic parses is documented: docs/magics.md's table, the README's list and
`%pt2e help` (both locales) name each one, so a new command cannot ship undocumented."""

import json
import re
from pathlib import Path

from pt2e_lens.kernel.magics import PARSERS

ROOT = Path(__file__).parent.parent
LOCALES = ROOT / "kernel_pkg" / "pt2e_lens" / "locales"


def _commands() -> set[str]:
    assert {"show", "record", "load", "sensitivity"} <= set(PARSERS)  # the registry really is read
    return set(PARSERS)


def _in_table(doc: str) -> set[str]:
    """Commands with a row in docs/magics.md's table (`| \\`%pt2e NAME …\\`` or `%%pt2e NAME`)."""
    return set(re.findall(r"^\| `%%?pt2e (\w+)", doc, re.M))


def _in_readme(readme: str) -> set[str]:
    """Commands in the README's `%pt2e a|b|c` list, and a `%%pt2e NAME` cell magic."""
    listed = re.search(r"`%pt2e ([\w|]+)`", readme)
    assert listed, "README.md lost its `%pt2e a|b|…` list"
    return set(listed.group(1).split("|")) | set(re.findall(r"`%%pt2e (\w+)", readme))


def _in_help(catalogue: dict) -> set[str]:
    """Commands `%pt2e help` names: `%pt2e NAME`, and the `· NAME X` that share a line with one."""
    text = catalogue["course.magic.help"] + "\n" + catalogue["course.magic.help_why"]
    lines = [ln for ln in text.splitlines() if "pt2e " in ln]
    return {n for ln in lines for n in re.findall(r"(?:%%?pt2e|·) (\w+)", ln)}


def test_the_readers_see_a_missing_command():
    assert _in_table("| `%pt2e show X` | a |\n| `%%pt2e record [N]` | b |\ntext `%pt2e diff`") == {"show", "record"}
    assert _in_readme("→ `%pt2e show|help` and `%%pt2e record`") == {"show", "help", "record"}
    shown = {"course.magic.help": "  %pt2e show X · qdq X\n  %%pt2e record\n  diff X", "course.magic.help_why": ""}
    assert _in_help(shown) == {"show", "qdq", "record"}


def test_docs_magics_has_a_row_for_every_command():
    assert _commands() - _in_table((ROOT / "docs" / "magics.md").read_text(encoding="utf-8")) == set()


def test_readme_lists_every_command():
    assert _commands() - _in_readme((ROOT / "README.md").read_text(encoding="utf-8")) == set()


def test_help_names_every_command_in_each_locale():
    for path in sorted(LOCALES.glob("*.json")):
        missing = _commands() - _in_help(json.loads(path.read_text(encoding="utf-8")))
        assert missing == set(), f"{path.name}: %pt2e help lacks {sorted(missing)}"
