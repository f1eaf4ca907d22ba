"""Figures for reports, drawn with matplotlib's object API (no pyplot, no global backend).

A :class:`matplotlib.figure.Figure` made here owns its canvas, so a library function never
changes process-wide state (``matplotlib.use``) and figures are freed with their object.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from numerics.files import atomic_path


def subplots(nrows: int = 1, ncols: int = 1, figsize: tuple[float, float] = (6, 4),
             squeeze: bool = True) -> tuple[Any, Any]:
    """A figure and its axes (like ``pyplot.subplots``, without pyplot)."""
    from matplotlib.figure import Figure  # heavy (0.3 s): matplotlib, only when a figure is drawn

    fig = Figure(figsize=figsize)
    return fig, fig.subplots(nrows, ncols, squeeze=squeeze)


def colormap(name: str) -> Any:
    import matplotlib  # heavy: only when a figure is drawn

    return matplotlib.colormaps[name]


def save_figure(fig: Any, path: Path, dpi: int = 100) -> Path:
    """Lay out and write ``path`` (creating its folder); returns the path."""
    fig.tight_layout()
    with atomic_path(path) as tmp:
        fig.savefig(tmp, dpi=dpi, format=path.suffix.lstrip(".") or "png")
    return path
