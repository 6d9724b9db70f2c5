"""``advisor compare``: several systems on the same items, with paired bootstrap uncertainty."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional

import typer

from ..engine import DEFAULT_CONVENTION
from .. import catalogue as catalogue_api
from .. import engine as engine_api
from .. import io as io_api
from .. import stats as stats_api
from .._format import few_names, format_count, format_number, terminal_safe
from .._jsonio import envelope
from ..engine import CONVENTIONS
from ._common import BY_HELP, QUIET_HELP, USUAL_RESAMPLES, cell, echo_json, fail, handle_errors, label_cell, parse_id_list
from ._hierarchy import compare_hierarchy
from ._intervals import methods_note, p_clause, p_text, pick_seed, resampled_unit, seed_note
from ._progress import job, reporting
from ._runs import parse_runs
from ._scores import merge_scored, parse_costs, parse_priors, print_scored, scored_comparison
from ._selective import COVERAGE_HELP, REJECT_HELP, add_selective, check_selective_options, print_selective, selective_results
from ._subgroups import add_subgroups, print_subgroups, subgroup_results
from ._structures import check_structure_options, output_structured, parse_order, refuse_sql_structure

if TYPE_CHECKING:  # pragma: no cover
    from ..stats import Comparison


@contextmanager
def progress_callback(total_label: str = "resampling") -> Iterator[Callable[[float, float], None] | None]:
    """A ``progress(done, total)`` callback with the Rich bar, on a terminal only (None elsewhere): the earlier
    helper, now one :func:`advisor.cli._progress.job` — the commands open their jobs themselves."""
    if not sys.stderr.isatty():
        yield None
        return
    with reporting(), job(total_label) as progress:
        yield progress


def match_label(labels: Sequence[Any], text: str | None, option: str) -> Any:
    """The label whose text is ``text`` (labels may be ints); one-sentence error if none."""
    if text is None:
        return None
    for lab in labels:
        if str(lab) == text:
            return lab
    raise fail(f"{option} {text!r} is not a class label; labels are {few_names(labels)}.")


def _fmt(x: float | None, digits: int = 4) -> str:
    return format_number(x, digits, none="undefined", nan="undefined", inf=("∞", "−∞"))


def render(comparison: Comparison, seed_given: bool = True) -> None:
    """Print the comparison on stdout: one table per metric group, systems as columns."""
    from rich.console import Console

    console = Console(highlight=False)
    pct = f"{comparison.confidence:.0%}"
    of = f" of {comparison.groups:,} groups of items" if comparison.groups else ""
    if comparison.runs:
        of = (of or " of items") + " and of each system's runs (" + ", ".join(f"{terminal_safe(s)}: {r}" for s, r in
                                                       comparison.runs.items()) + "; each system is its mean over them)"
    console.print(
        f"{len(comparison.systems)} systems, {format_count(comparison.n)} items, {comparison.n_resamples} paired bootstrap "
        f"resamples{of} ({pct} intervals, the method per metric below), undefined values: {comparison.convention} "
        "convention" + (f", {seed_note(comparison.seed, seed_given)}" if comparison.seed is not None else ""),
        markup=False,
    )
    pairs = _shown_pairs(comparison)
    for group, ids in catalogue_api.group_metrics(comparison.metrics).items():
        console.print(_group_table(comparison, group, ids))
        if len(comparison.systems) > 2:
            console.print(_pairs_table(comparison, f"{group}: paired differences", ids, pairs))
    if len(comparison.systems) > 2:
        m = len(comparison.systems)
        legend = (f"Each cell: the estimate over its {pct} interval and the {pct} interval of its rank; * marks the "
                  f"winners, the top system and those not separated from it by a one-sided paired test at "
                  f"{1 - comparison.confidence:.0%}/{m - 1}, so that they hold the best system with probability at "
                  f"least {pct} (Hsu 1996); ↓ lower is better.")
    else:
        legend = (f"Each cell: the estimate over its {pct} interval; * marks the winners (not separable from the best "
                  f"at {pct}); ↓ lower is better.")
    a, b = (terminal_safe(s) for s in pairs[0])
    legend += (f" {a} − {b}: the paired difference over its interval, and P({a} better), the share of paired "
               f"resamples in which {a} is better.")
    if len(pairs) < len(comparison.systems) * (len(comparison.systems) - 1) // 2:
        legend += " Differences to the first system only; all pairs are in --json."
    console.print(legend, style="dim", markup=False)
    _render_tests(console, comparison, pairs)
    _render_agreement(console, comparison)


_MAX_PAIR_COLUMNS = 2


def _shown_pairs(comparison: Comparison) -> list[tuple[str, str]]:
    """The pairs printed (80 columns hold two): all of them up to two, otherwise each system against the first."""
    first = next(iter(comparison.metrics.values()))
    pairs = [(p.a, p.b) for p in first.pairs] or [(comparison.systems[0], comparison.systems[1])]
    if len(pairs) > _MAX_PAIR_COLUMNS:
        pairs = [(a, b) for a, b in pairs if a == comparison.systems[0]]
    return pairs


def _interval_text(low: float | None, high: float | None) -> str:
    return "(no interval)" if low is None or high is None else f"[{_fmt(low, 3)}, {_fmt(high, 3)}]"


def _difference_cell(mc: Any, a: str, b: str) -> str:
    pair = next((p for p in mc.pairs if (p.a, p.b) == (a, b)), None)
    if pair is None:
        return ""
    d = pair.difference
    return f"{_signed(d.estimate)} P={_fmt(pair.p_a_better, 2)}\n{_interval_text(d.low, d.high)}"


def _render_tests(console: Any, comparison: Comparison, pairs: list[tuple[str, str]]) -> None:
    """The methods of the intervals, each pair's test (McNemar's exact test for accuracy, recall and specificity,
    the paired-bootstrap test for the rest) and the smallest difference it resolves, so that "not separable" has a size."""
    entries = [(s, mid, r.method, r.reason) for mid, mc in comparison.metrics.items() for s, r in mc.systems.items()]
    for line in methods_note(entries):
        console.print(line, style="dim", markup=False)
    for t in comparison.mcnemar:
        if (t.a, t.b) in pairs or len(comparison.systems) == 2:
            holm = (f", against the top system one-sided and Bonferroni-adjusted {p_text(t.p_adjusted)}"
                    if t.p_adjusted is not None else "")
            size = ("" if t.resolvable is None
                    else f"; it separates {t.metric} differences of {_fmt(t.resolvable, 3)} or more")
            among = {"recall": " positive", "specificity": " negative"}.get(t.metric, "")
            console.print(f"{t.metric}, McNemar's exact test: {terminal_safe(t.a)} right and {terminal_safe(t.b)} wrong "
                          f"on {t.a_only:g}{among} items, the reverse on {t.b_only:g}; {p_clause(t.p)}{holm}{size}.",
                          markup=False)
    a, b = pairs[0]
    sizes = [f"{mid} {_fmt(p.resolvable, 3)}" for mid, mc in comparison.metrics.items() for p in mc.pairs
             if (p.a, p.b) == (a, b) and p.resolvable is not None]
    if sizes:
        console.print(f"Smallest difference {terminal_safe(a)} − {terminal_safe(b)} this test set resolves at "
                      f"{comparison.confidence:.0%} (from the paired resampling spread): " + ", ".join(sizes) + ".",
                      style="dim", markup=False)
    if comparison.test:
        console.print(f"Paired test behind the winners: {comparison.test}.", style="dim", markup=False)


def _pairs_table(comparison: Comparison, title: str, ids: list[str], pairs: list[tuple[str, str]]) -> Any:
    """Paired differences of three or more systems: a row per metric, a column per pair."""
    from rich import box
    from rich.table import Table

    table = Table(title=title, title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False, padding=(0, 1))
    table.add_column("metric", no_wrap=True)
    for a, b in pairs:
        table.add_column(f"{label_cell(a)} − {label_cell(b)}", justify="right", min_width=16)
    for mid in ids:
        mc = comparison.metrics[mid]
        table.add_row(mid + ("" if mc.higher_is_better else " ↓"), *(_difference_cell(mc, a, b) for a, b in pairs))
    return table


def _signed(x: float | None) -> str:
    text = _fmt(x)
    return text if x is None or text.startswith("-") or text == "undefined" else "+" + text


def _group_table(comparison: Comparison, group: str, ids: list[str]) -> Any:
    """One metric group as a table: a row per metric, a column per system (and the paired
    difference when there are exactly two systems)."""
    from rich import box
    from rich.table import Table

    systems = comparison.systems
    table = Table(title=group, title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False, padding=(0, 1))
    table.add_column("metric", no_wrap=True)
    for name in systems:
        table.add_column(label_cell(name), justify="right", min_width=14)
    if len(systems) == 2:
        table.add_column(f"{label_cell(systems[0])} − {label_cell(systems[1])}", justify="right", min_width=16)
    for mid in ids:
        mc = comparison.metrics[mid]
        row = [mid + ("" if mc.higher_is_better else " ↓")]
        for name in systems:
            r = mc.systems[name]
            star = "*" if name in mc.winners and len(mc.winners) < len(systems) else ""
            text = f"{_fmt(r.estimate)}{star}\n{_interval_text(r.low, r.high)}"
            lo, hi = mc.rank_intervals.get(name, (None, None))
            if len(systems) > 2 and lo is not None and hi is not None:
                text += f"\nrank {lo:g}" + ("" if lo == hi else f"–{hi:g}")
            row.append(text)
        if len(systems) == 2:
            row.append(_difference_cell(mc, systems[0], systems[1]))
        table.add_row(*row)
    return table


_MAX_MATRIX_METRICS = 8


def _render_agreement(console: Any, comparison: Comparison) -> None:
    """The metrics × metrics agreement matrix when it fits; otherwise one summary row per metric."""
    from rich.table import Table

    ra = comparison.ranking_agreement
    m = len(ra.metrics)
    if m <= 1:
        return
    if len(comparison.systems) < 3 and ra.note:  # every coefficient is ±1 or undefined: the note says it all
        console.print(f"ranking agreement: {ra.note}", markup=False)
        return
    if m <= _MAX_MATRIX_METRICS:
        console.print("ranking agreement between metrics: Spearman ρ below the diagonal, Kendall τ_b above")
        table = Table()
        table.add_column("metric")
        for i in range(m):
            table.add_column(str(i + 1), justify="right")
        for i, mid in enumerate(ra.metrics):
            cells = []
            for j in range(m):
                v = ra.spearman[i][j] if j < i else ra.kendall[i][j] if j > i else None
                cells.append("·" if i == j else ("–" if v is None else f"{v:.2f}"))
            table.add_row(f"{i + 1} {cell(mid)}", *cells)
    else:  # a 21 × 21 matrix does not fit a terminal: summarise each metric's agreement instead
        console.print(f"ranking agreement between the {m} metrics (Kendall τ_b of their system rankings; "
                      "the full matrix is in --json):")
        table = Table()
        table.add_column("metric")
        table.add_column("mean τ_b", justify="right")
        table.add_column("least agreeing metric (τ_b)")
        for i, mid in enumerate(ra.metrics):
            others = [(v, ra.metrics[j]) for j, v in enumerate(ra.kendall[i][:m]) if j != i and v is not None]
            if not others:
                table.add_row(cell(mid), "–", "–")
                continue
            mean = sum(v for v, _ in others) / len(others)
            low_v, low_m = min(others)
            least = "– (agrees with every metric alike)" if low_v == max(v for v, _ in others) else \
                f"{cell(low_m)} ({low_v:.2f})"
            table.add_row(cell(mid), f"{mean:.2f}", least)
    console.print(table)
    if ra.note:
        console.print(f"note: {ra.note}", markup=False)


def _scored(ds: Any, names: list[str], labels: list[Any], pos: Any, costs: Any, priors: Any, n_boot: int,
            confidence: float, seed: Any, score_ids: list[str] | None, runs: list[str] | None = None
            ) -> dict[str, Any] | None:
    """The item-level comparison of the score metrics, and of the expected costs (items from the same read).

    With --costs/--priors and label files only (no score columns), the expected costs are compared on the
    items' decisions: each system's predicted labels, from the joint table of the counts."""
    scored = dict(ds.scores)
    if (costs is not None or priors is not None) and not all(n in scored for n in names):
        scored = _decision_items(ds, names)  # label files: the expected costs of the decisions
        score_ids = [m for m in score_ids or engine_api.COST_IDS if m in engine_api.COST_IDS]
    if not scored:
        return None
    return scored_comparison(scored, names, labels, pos, costs, priors, n_boot, confidence, seed, score_ids,
                             runs=runs)


def _decision_items(ds: Any, names: list[str]) -> dict[str, Any]:
    """Per system, its items' true and predicted labels (from the joint counts, in the joint table's order),
    with uniform probabilities standing in for scores: only the decisions enter the expected costs."""
    import numpy as np

    joint = ds.joint
    reps = np.asarray(joint.counts, dtype=np.int64)
    labels = [str(x) for x in joint.labels]
    y = [labels[c] for c in np.repeat(joint.codes[:, 0], reps)]
    flat = np.full((len(y), len(labels)), 1.0 / len(labels))
    return {n: io_api.ScoredFile(y, [labels[c] for c in np.repeat(joint.codes[:, 1 + j], reps)], flat, labels, None)
            for j, n in enumerate(names)}


def register(app: typer.Typer) -> None:
    @app.command("compare")
    @handle_errors
    def compare(
        files: Optional[list[Path]] = typer.Argument(
            None, help="Prediction files (one system per file, or several columns)."),
        sql: Optional[str] = typer.Option(
            None, "--sql", help="A DuckDB query returning y_true and y_pred (or one column per system; "
            "optional id and p_<label> columns), instead of files."),
        true_col: str | None = typer.Option(None, "--true-col", help="Column of true labels (default y_true)."),
        pred_col: str | None = typer.Option(None, "--pred-col", help="Column of predicted labels (default y_pred)."),
        metrics: str | None = typer.Option(None, "--metrics",
                                           help="Comma-separated metric ids, names or aliases (default: all)."),
        n_boot: int = typer.Option(2000, "--bootstrap", help="Number of paired bootstrap resamples."),
        confidence: float = typer.Option(0.95, "--confidence", help="Interval coverage, between 0 and 1."),
        seed: int | None = typer.Option(None, "--seed", help="Random seed, for reproducible intervals."),
        positive: str | None = typer.Option(None, "--positive", help="Positive class (binary metrics)."),
        beta: float = typer.Option(1.0, "--beta", help="β of f_beta (recall weighted β times precision)."),
        undefined: str = typer.Option(DEFAULT_CONVENTION, "--undefined", help="Undefined values: zero, baseline or omit."),
        as_json: bool = typer.Option(False, "--json", help="Print JSON instead of tables."),
        costs: str | None = typer.Option(None, "--costs", help="Error costs: fn=10,fp=1 or a cost-matrix CSV."),
        priors: str | None = typer.Option(None, "--priors", help="Deployment class shares: LABEL=SHARE,…"),
        order: str | None = typer.Option(None, "--order", help="Ordered classes, lowest first: ordinal metrics."),
        label_sep: str | None = typer.Option(None, "--label-sep", help="Separator of label sets: multi-label."),
        top_k: int | None = typer.Option(None, "--top-k", help="Top-k accuracy from the p_<label> score columns."),
        quiet: bool = typer.Option(False, "--quiet", "-q", help=QUIET_HELP),
        group: str | None = typer.Option(None, "--group", help="Column naming each item's group (a patient, a document): resample groups, not items."),
        by: list[str] | None = typer.Option(None, "--by", show_default=False, help=BY_HELP),
        taxonomy: Optional[Path] = typer.Option(
            None, "--taxonomy", help="Classes in a tree: a CSV of child,parent rows; hierarchical F1 and flat accuracy."),
        reject_label: Optional[str] = typer.Option(None, "--reject-label", show_default=False, help=REJECT_HELP),
        coverage: Optional[str] = typer.Option(None, "--coverage", show_default=False, help=COVERAGE_HELP),
    ) -> None:
        """Compare systems on the same items: intervals, P(better), winners and ranking agreement."""
        target = check_selective_options(reject_label, coverage)  # issue 23, before anything is read
        if n_boot < 1:
            raise fail(f"--bootstrap must be a whole number ≥ 1; got {n_boot}.")
        if not 0.0 < confidence < 1.0:
            raise fail(f"--confidence must be strictly between 0 and 1 (e.g. 0.95); got {confidence}.")
        stats_api.check_enough_resamples(n_boot, confidence)  # before reading anything (issue 25)
        if taxonomy is not None:  # classes in a tree (issue 23, item 4)
            comparison, seed_given, tree = compare_hierarchy(
                files, taxonomy, sql=sql, true_col=true_col, pred_col=pred_col, metrics=metrics, n_boot=n_boot,
                confidence=confidence, seed=seed, others={"--order": order, "--label-sep": label_sep, "--top-k": top_k,
                                                          "--positive": positive, "--costs": costs, "--priors": priors,
                                                          "--group": group, "--reject-label": reject_label,
                                                          "--coverage": coverage})
            if as_json:
                data = comparison.to_dict()
                data["bootstrap"]["seed_given"] = seed_given
                echo_json(envelope("compare", {**data, "structure": "hierarchy", "taxonomy": tree}))
            else:
                render(comparison, seed_given)
            return
        if undefined not in CONVENTIONS:
            raise fail(f"--undefined must be one of {', '.join(CONVENTIONS)}; got {undefined!r}.")
        # --sql with --order/--label-sep/--top-k (issue 25)
        refuse_sql_structure(sql, order=order, label_sep=label_sep, top_k=top_k, command="compare")
        check_structure_options(n_boot, top_k)
        ids = catalogue_api.metric_ids_for(parse_id_list(metrics))  # before reading any file
        if not files and not sql:
            raise fail("no input given; pass prediction files (one per system) or --sql QUERY.")
        cost_spec, prior_spec = parse_costs(costs), parse_priors(priors)
        runs = parse_runs(files or [])  # NAME=FILE; a name repeated: runs of one system (issue 20)
        ds = io_api.load(runs.paths, sql=sql, true_col=true_col, pred_col=pred_col, order=parse_order(order),
                         label_sep=label_sep, top_k=top_k, group=group, names=runs.columns, by=by,
                         reject_label=reject_label)  # every input read once
        if output_structured(ds, None, metrics=ids, undefined=undefined, n_boot=n_boot, confidence=confidence,
                             seed=seed, as_json=as_json, compare=True):  # ordered classes, label sets, top-k
            return
        item_level = (*engine_api.SCORE_IDS, *engine_api.SCORE_ON_REQUEST, *engine_api.COST_IDS, "log_loss", "brier")
        score_ids = [m for m in ids or [] if m in item_level]  # item level
        ids = [m for m in ids if m not in score_ids] or None if ids is not None else None
        joint = ds.joint
        if joint is None or len(joint.systems) < 2:
            got = 0 if joint is None else len(joint.systems)
            raise fail(f"compare needs at least two systems (prediction files) on the same items; got {got}. For "
                       "one system's intervals use advisor compute --bootstrap N.")
        pos = match_label(joint.labels, positive, "--positive")
        if getattr(joint, "abstains", False) and (cost_spec is not None or prior_spec is not None):
            raise fail(f"--costs prices the errors of the answers, and an abstention (--reject-label {reject_label}) has "
                       "no cost in the cost matrix; leave --costs out, or give the abstentions a class of their own.")
        seed, seed_given = pick_seed(seed)  # stated in the output (issue 20)
        with job("paired bootstrap", unit="resamples", option="--bootstrap", value=n_boot, usual=USUAL_RESAMPLES) \
                as progress:
            comparison = stats_api.compare_joint(
                joint, n_boot, seed, ids, confidence=confidence,
                positive_label=pos, beta=beta, undefined=undefined, progress=progress,
                groups=getattr(getattr(ds, "predictions", None), "groups", None),  # --group (issue 20)
                runs=runs.systems if runs.several else None,
            )
        scored = _scored(ds, list(joint.systems), list(joint.labels), pos, cost_spec, prior_spec, n_boot,
                         confidence, seed, score_ids or None, runs.systems if runs.several else None)
        sub = subgroup_results(ds, by, list(comparison.metrics), pos, beta, undefined, n_boot, confidence, seed)
        sel = selective_results(ds, getattr(ds, "reject_label", None), target, n_boot, confidence, seed)
        if as_json:
            data = comparison.to_dict()
            data["bootstrap"].update(seed_given=seed_given, resampled=resampled_unit(
                getattr(getattr(ds, "predictions", None), "group_col", None), comparison.groups))
            if scored is not None:  # item-level paired bootstrap of score/probability/cost metrics, in the same places
                merge_scored(data, scored)
            echo_json(envelope("compare", add_selective(add_subgroups(data, sub), sel)))
        else:
            render(comparison, seed_given)
            if scored is not None:
                print_scored(scored)
            print_selective(sel, confidence)
            print_subgroups(sub, confidence)
