"""MkDocs hook: links from a page to files of the repository outside docs/.

The pages link to the measurement logs (`benchmarks/results/*.md`) and a few
other files by their relative path in the repository, so the links work where
the Markdown is read as it is (a clone, the forge's file view). MkDocs knows
only the files under docs/ and would report such a link as not found; this
hook checks that the file exists and points the link at the repository's copy
instead. A link to a file that does not exist is a warning, which fails
`mkdocs build --strict`, like any other broken link.
"""

from __future__ import annotations

import logging
import posixpath
import re
from pathlib import Path
from typing import Any

log = logging.getLogger("mkdocs.hooks.repository_links")

LINK = re.compile(r"(\]\()([^)\s#]+)(#[^)\s]*)?(\))")
FENCE = re.compile(r"^(```|~~~)")


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    docs = Path(config["docs_dir"]).resolve()
    root = Path(config["config_file_path"]).resolve().parent
    base = str(config.get("repo_url") or "").rstrip("/")
    here = posixpath.dirname(page.file.src_uri)

    def outside(match: re.Match[str]) -> str:
        target = match.group(2)
        if "://" in target or target.startswith(("/", "mailto:")):
            return match.group(0)
        path = (docs / here / target).resolve()
        if path.is_relative_to(docs):
            return match.group(0)  # MkDocs' own validation covers it
        if not path.is_relative_to(root) or not path.exists():
            log.warning("%s links to %s, which is not in the repository", page.file.src_uri, target)
            return match.group(0)
        kind = "tree" if path.is_dir() else "blob"
        url = f"{base}/{kind}/main/{path.relative_to(root).as_posix()}"
        return f"{match.group(1)}{url}{match.group(3) or ''}{match.group(4)}"

    out, fenced = [], False
    for line in markdown.split("\n"):
        if FENCE.match(line.lstrip()):
            fenced = not fenced
        out.append(line if fenced else LINK.sub(outside, line))
    return "\n".join(out)
