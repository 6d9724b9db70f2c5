"""The subgroup figure (issue 23 item 1): one panel per metric, the subgroups side by side.

Drawn from ``ctx.subgroups`` alone: per panel (the TPR and FPR of a binary task with a class of interest, else the
first four of the report's metrics that do not depend on the class shares) one row per subgroup value of every
column, each system a dot with its interval. A figure that moves with a subgroup's class shares (selection rate,
precision, accuracy) is not set side by side: its difference would show base rates as bias.
"""

from __future__ import annotations

from typing import Any

from ._figure_io import _WIDTH, _colour, _text
from ._models import ReportContext
from ._subgroups import rates_in_order, shares_free

__all__ = ["draw_subgroups"]

_NAMES = {"tpr": "TPR", "fpr": "FPR", "selection_rate": "selection rate", "precision": "precision"}


def draw_subgroups(ctx: ReportContext, plt: Any) -> tuple[Any, str] | None:
    sub = ctx.subgroups
    if not sub or not sub.get("groups"):
        return None
    rows = [(col, value, per_system) for col, per_value in sub["groups"].items()
            for value, per_system in per_value.items()]
    systems = list(rows[0][2])
    ids = [m for m in rows[0][2][systems[0]] if m != "n"]
    # only figures that do not depend on the class shares are set side by side: the others, beside each subgroup's
    # shares in the tables, would show the subgroups' base rates as a difference (the fairness reader)
    binary = bool(sub.get("positive_label") is not None)
    panels = rates_in_order([m for m in _NAMES if m in ids and shares_free(m, True)],
                            ctx.answers.get("costlier_error") == "false_alarm") \
        or [m for m in ids if shares_free(m, binary)][:4]
    if not panels:
        return None
    names = {m.id: m.name for m in ctx.metrics}
    fig, axes = plt.subplots(1, len(panels), figsize=(_WIDTH, 0.8 + 0.3 * len(rows) * max(1.0, len(systems) / 2.5)),
                             squeeze=False)
    step = 0.7 / max(len(systems), 1)
    for ax, m in zip(axes[0], panels):
        for si, s in enumerate(systems):
            for ri, (_, _, per_system) in enumerate(rows):
                e = per_system[s].get(m) or {}
                x = e.get("estimate")
                if x is None:
                    continue
                y = ri + (si - (len(systems) - 1) / 2) * step
                if e.get("low") is not None and e.get("high") is not None:
                    ax.plot([e["low"], e["high"]], [y, y], color=_colour(si), lw=1.4, solid_capstyle="butt")
                ax.plot([x], [y], "o", color=_colour(si), ms=4,
                        label=_text(s, 30) if ri == 0 and ax is axes[0][0] else None)
        ax.set_title(_text(_NAMES.get(m) or names.get(m, m), 30), fontsize=8)
        ax.grid(axis="x", color="#dddddd", lw=0.6)
        ax.set_axisbelow(True)
    for i, ax in enumerate(axes[0]):  # one row per subgroup value, the same in every panel
        ax.set_ylim(len(rows) - 0.5, -0.5)
        ax.set_yticks(range(len(rows)))
        ax.set_yticklabels([f"{_text(c, 16)} = {_text(v, 16)}" for c, v, _ in rows] if i == 0 else [])
    if len(systems) > 1:
        fig.legend(loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=min(len(systems), 4), frameon=False)
    fig.tight_layout()
    cap = ("Subgroups side by side: " + ", ".join(_NAMES.get(m) or names.get(m, m) for m in panels)
           + " per subgroup value" + (" with each subgroup's interval." if ctx.intervals else "."))
    return fig, cap
