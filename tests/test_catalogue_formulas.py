"""The catalogue's LaTeX formulas mean what the engine computes.

Each formula is the single source for docs, ``advisor explain`` and reports, so a typo there would
mislead every reader. This test parses the (deliberately small) LaTeX subset the catalogue uses —
\\frac, \\sum, \\prod, \\sqrt, \\log_b, \\arccos, \\left( \\right), ^, _, \\cdot, \\mathrm{...},
",\\quad NAME = ..." definitions — evaluates it on random confusion matrices and compares with
:func:`advisor.compute_metrics`. It also checks that every formula renders with ziamath and passes
the report generator's LaTeX allow-list.
"""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

from advisor import compute_metrics
from advisor.catalogue import get_catalogue
from advisor.engine import METRICS, PARAMETER_OF

CAT = get_catalogue()
FORMULA_IDS = [m for m, r in CAT.metrics.items() if not r.alias_of]
# nominal confusion-matrix metrics; ordinal, multi-label, top-k and agreement formulas (issue 12) use notation
# this small parser does not read (|i − j|, per-item and per-rater sums): tests/test_structures_oracles.py
# checks their engine against scikit-learn, krippendorff and statsmodels instead
# (the adverse impact ratio compares subgroups, so no matrix gives it: tests/test_fairness_ratios.py checks it against
# fairlearn)
MATRIX_IDS = [m for m in FORMULA_IDS if not CAT.metrics[m].needs_probabilities and CAT.metrics[m].structure == "nominal"
              and not CAT.metrics[m].needs_subgroups]

_TOKEN = re.compile(r"\\[A-Za-z]+|\\[,;! ]|\d+(?:\.\d+)?|[A-Za-z]|[{}()\[\]^_+\-=/,']|\S")


class _Parser:
    """Recursive-descent evaluator of the catalogue's formula language on one matrix."""

    def __init__(self, text: str, env: dict[str, object]) -> None:
        self.toks = [t for t in _TOKEN.findall(text) if t not in ("\\,", "\\;", "\\!", "\\ ")]
        self.pos = 0
        self.env = env

    # -- token helpers -------------------------------------------------------------------
    def peek(self, off: int = 0) -> str | None:
        i = self.pos + off
        return self.toks[i] if i < len(self.toks) else None

    def take(self, expected: str | None = None) -> str:
        tok = self.peek()
        if tok is None or (expected is not None and tok != expected):
            raise SyntaxError(f"expected {expected!r}, got {tok!r} at {self.pos} in {' '.join(self.toks)}")
        self.pos += 1
        return tok

    def group_text(self) -> list[str]:
        """Tokens of a {...} group (or a single token)."""
        if self.peek() != "{":
            return [self.take()]
        self.take("{")
        depth, out = 1, []
        while True:
            tok = self.take()
            depth += tok == "{"
            depth -= tok == "}"
            if depth == 0:
                return out
            out.append(tok)

    def sub(self, toks: list[str], **extra: object) -> float:
        p = _Parser("", {**self.env, **extra})
        p.toks = toks
        v = p.expr()
        if p.peek() is not None:
            raise SyntaxError(f"trailing tokens {p.toks[p.pos:]}")
        return v

    # -- grammar -------------------------------------------------------------------------
    def expr(self) -> float:
        v = self.term()
        while self.peek() in ("+", "-"):
            op = self.take()
            w = self.term()
            v = v + w if op == "+" else v - w
        return v

    def term(self) -> float:
        v = self.factor()
        while self.peek() not in (None, "+", "-", "}", ")", "\\right", "]", "=", ","):
            if self.peek() == "/":
                self.take()
                v = v / self.factor()
                continue
            if self.peek() == "\\cdot":
                self.take()
            w = self.factor()
            v = 0.0 if v == 0 or w == 0 else v * w  # 0·log 0 = 0
        return v

    def factor(self) -> float:
        if self.peek() == "-":
            self.take()
            return -self.factor()
        v = self.atom()
        if self.peek() == "^":
            self.take()
            v = v ** self.sub(self.group_text())
        return v

    def atom(self) -> float:
        tok = self.take()
        if re.fullmatch(r"\d+(\.\d+)?", tok):
            return float(tok)
        if tok == "\\frac":
            num, den = self.sub(self.group_text()), self.sub(self.group_text())
            return num / den if den != 0 else (math.inf if num > 0 else math.nan)
        if tok == "\\sqrt":
            return math.sqrt(self.sub(self.group_text()))
        if tok in ("(", "\\left"):
            if tok == "\\left":
                self.take("(")
            v = self.expr()
            if self.peek() == "\\right":
                self.take()
            self.take(")")
            return v
        if tok == "{":
            self.pos -= 1
            return self.sub(self.group_text())
        if tok in ("\\sum", "\\prod", "\\min"):
            return self.big(tok)
        if tok == "|":  # |S|: the number of classes in a set
            name = self.take()
            self.take("|")
            return float(len(self.env[name]))  # type: ignore[arg-type]
        if tok == "\\log":
            self.take("_")
            base = self.sub(self.group_text())
            arg = self.factor()
            return math.log(arg) / math.log(base) if arg > 0 else -math.inf
        if tok == "\\arccos":
            return math.acos(max(-1.0, min(1.0, self.factor())))
        if tok == "\\pi":
            if self.peek() == "_":  # π_i: the class priors, by default the test set's shares a_i / n
                self.take()
                i = int(self.env[self.group_text()[0]]) - 1  # type: ignore[arg-type]
                return float(self.env["a"][i] / self.env["n"])  # type: ignore[index, operator]
            return math.pi
        if tok == "\\beta":
            return float(self.env["beta"])  # type: ignore[arg-type]
        if tok == "\\mathrm":
            name = "".join(self.group_text())
            return self.lookup(name)
        if re.fullmatch(r"[A-Za-z]", tok):
            idx: list[str] = []
            if self.peek() == "_":
                self.take()
                idx = [t for t in self.group_text() if t != ","]
            return self.lookup(tok, idx)
        raise SyntaxError(f"unexpected token {tok!r}")

    def big(self, op: str) -> float:
        self.take("_")
        bound = self.group_text()
        var = bound[0]
        if len(bound) >= 3 and bound[1] == "=":
            lo = int(self.sub(bound[2:]))
            self.take("^")
            hi = int(self.sub(self.group_text()))
            values = range(lo, hi + 1)
            skip = None
        elif len(bound) == 1:  # \min_{j}: over every class
            values = range(1, int(self.env["k"]) + 1)  # type: ignore[arg-type]
            skip = None
        elif bound[1:2] == ["\\in"]:  # \sum_{i\in S}: over the classes of a set
            values = self.env[bound[2]]  # type: ignore[assignment]
            skip = None
        elif bound[1:2] == ["\\notin"]:  # \sum_{i\notin G}: over the classes outside a set
            inside = set(self.env[bound[2]])  # type: ignore[call-overload]
            values = [c for c in range(1, int(self.env["k"]) + 1) if c not in inside]  # type: ignore[arg-type]
            skip = None
        elif bound[1:2] == ["\\neq"]:
            values = range(1, int(self.env["k"]) + 1)  # type: ignore[arg-type]
            skip = int(self.env[bound[2]])  # type: ignore[arg-type]
        else:
            raise SyntaxError(f"unsupported bound {bound}")
        start = self.pos
        acc = 0.0 if op == "\\sum" else math.inf if op == "\\min" else 1.0
        end = start
        for val in values:
            self.pos = start
            self.env[var] = val
            if val == skip:
                self.term()
                end = self.pos
                continue
            v = self.term()
            end = self.pos
            acc = acc + v if op == "\\sum" else min(acc, v) if op == "\\min" else acc * v
        self.pos = end
        return acc

    def lookup(self, name: str, idx: list[str] | None = None) -> float:
        idx = idx or []
        ix = [int(self.env[i]) - 1 for i in idx]  # type: ignore[arg-type]
        C = self.env["C"]
        if name == "C":
            return float(C[ix[0], ix[1]])  # type: ignore[index]
        if name in ("a", "b"):
            arr = self.env[name]
            return float(arr[ix[0]])  # type: ignore[index]
        if name in ("n", "k"):
            return float(self.env[name])  # type: ignore[arg-type]
        defs = self.env["defs"]
        if name in defs:  # type: ignore[operator]
            toks, var = defs[name]  # type: ignore[index]
            extra = {var: self.env[idx[0]]} if var else {}
            return self.sub(toks, **extra)
        if name == "w" and len(ix) == 1:  # class weights: the test's weights 1, 2, …, k
            return float(ix[0] + 1)
        if name == "W" and len(ix) == 1:  # the mapped shares of the strata: the same weights, summing to 1
            k = int(self.env["k"])  # type: ignore[call-overload]
            return float(ix[0] + 1) / (k * (k + 1) / 2)
        if name == "c" and len(ix) == 2:  # the default cost matrix: 0/1 costs
            return 0.0 if ix[0] == ix[1] else 1.0
        binary = {"TP": (1, 1), "FN": (1, 0), "FP": (0, 1), "TN": (0, 0)}
        if name in binary:
            return float(C[binary[name]])  # type: ignore[index]
        raise SyntaxError(f"unknown symbol {name}")


def evaluate_formula(formula: str, C: np.ndarray, beta: float = 1.0) -> float:
    """Evaluate a catalogue formula on matrix C (rows = truth); ``NAME = expr`` clauses define names."""
    parts = [p.strip() for p in re.split(r",\s*\\quad", formula)]
    defs: dict[str, tuple[list[str], str | None]] = {}
    for part in parts[1:]:
        lhs, rhs = part.split("=", 1)
        lhs = lhs.strip()
        m = re.fullmatch(r"\\mathrm\{(\w+)\}", lhs) or re.fullmatch(r"(\w)_(\w)", lhs)
        assert m, f"cannot read definition {part!r}"
        name = m.group(1)
        var = m.group(2) if m.re.pattern.startswith("(") else None
        defs[name] = (_TOKEN.findall(rhs), var)
    env: dict[str, object] = {"C": C, "a": C.sum(axis=1), "b": C.sum(axis=0), "n": C.sum(), "k": C.shape[0],
                              "beta": beta, "defs": defs,
                              "S": range(1, C.shape[0]),  # the classes averaged over: every class but the last
                              "o": C.shape[0],  # the out-of-scope class of in-scope accuracy: the last
                              "f": C.shape[0],  # the fallback class of the wrong-action and fallback rates: the last
                              "G": range(1, C.shape[0])}  # the classes of the action of interest: all but the last
    p = _Parser(parts[0], env)
    v = p.expr()
    assert p.peek() is None, f"trailing tokens in {formula!r}: {p.toks[p.pos:]}"
    return v


def _matrices(k: int, count: int, rng: np.random.Generator) -> list[np.ndarray]:
    out = []
    while len(out) < count:
        C = rng.integers(0, 9, size=(k, k)).astype(float) + np.eye(k) * rng.integers(1, 5, k)
        if rng.random() < 0.5:
            C = C * rng.uniform(0.1, 3.0, size=(k, k))  # soft counts
        if np.all(C.sum(0) > 0) and np.all(C.sum(1) > 0) and np.all(np.diag(C) > 0):
            out.append(C)
    return out


@pytest.mark.parametrize("mid", MATRIX_IDS)
def test_formula_computes_what_the_engine_computes(mid):
    rec = CAT.metrics[mid]
    rng = np.random.default_rng(sum(map(ord, mid)))
    ks = (2,) if rec.binary_only else (2, 3, 4)
    for k in ks:
        for C in _matrices(k, 8, rng):
            weights = np.arange(1.0, k + 1) if PARAMETER_OF.get(mid) == "class_weights" else None
            chosen = list(range(k - 1)) if PARAMETER_OF.get(mid) == "f1_classes" else None  # S of the evaluator
            # the class of interest: the positive class of two, the last (o, out-of-scope) for in-scope accuracy
            pos = 1 if rec.binary_only else k - 1 if METRICS[mid].needs_positive else None
            fallback = k - 1 if PARAMETER_OF.get(mid) == "fallback_class" else None  # f of the evaluator: the last
            group = list(range(k - 1)) if PARAMETER_OF.get(mid) == "action_classes" else None  # G: all but the last
            expected = compute_metrics(C, [mid], positive_label=pos, class_weights=weights, f1_classes=chosen,
                                       fallback_class=fallback, action_classes=group)[mid]
            got = evaluate_formula(rec.formula, C)
            assert got == pytest.approx(expected, rel=1e-9, abs=1e-12), (mid, C.tolist())


def test_evaluator_is_not_vacuous():
    # a wrong formula must be caught: swap a_i for b_i in balanced accuracy
    C = np.array([[5.0, 1.0], [3.0, 2.0]])
    wrong = CAT.metrics["balanced_accuracy"].formula.replace("a_i", "b_i")
    assert evaluate_formula(wrong, C) != pytest.approx(compute_metrics(C, ["balanced_accuracy"])["balanced_accuracy"])


@pytest.mark.parametrize("mid", FORMULA_IDS)
def test_formula_renders_with_ziamath_and_passes_the_allow_list(mid):
    ziamath = pytest.importorskip("ziamath")
    from advisor.report._texsafe import safe_math

    formula = CAT.metrics[mid].formula
    assert safe_math(formula) == formula
    assert formula.count("{") == formula.count("}")
    svg = ziamath.Math.fromlatex(formula).svg()
    assert "<svg" in svg
    # only the standard math of the catalogue's style guide
    commands = set(re.findall(r"\\([A-Za-z]+)", formula))
    assert commands <= {"frac", "sum", "prod", "sqrt", "mathrm", "cdot", "arccos", "log", "left", "right",
                        "quad", "neq", "in", "notin", "beta", "pi", "theta", "min", "max", "le", "Theta",
                        "delta"}, commands
    # θ: the risk threshold; \in: S; \max and \le: the coverage at a target risk, max{m/n : E_m/m ≤ r}; Θ and δ:
    # the cuts SGR tries and the confidence of its guarantee (coverage with guaranteed risk, Geifman & El-Yaniv 2017)


BINARY_FORM_IDS = [m for m in FORMULA_IDS if CAT.metrics[m].binary_form is not None]


@pytest.mark.parametrize("mid", BINARY_FORM_IDS)
def test_binary_form_renders_and_passes_the_allow_list(mid):
    ziamath = pytest.importorskip("ziamath")
    from advisor.report._texsafe import safe_math

    formula = CAT.metrics[mid].binary_form.formula
    assert safe_math(formula) == formula and formula.count("{") == formula.count("}")
    assert "<svg" in ziamath.Math.fromlatex(formula).svg()
    assert "p_{t" not in formula and "s_t" not in formula  # y_t = 1 or 0 and p_t only


def test_binary_forms_compute_what_the_engine_and_scikit_learn_compute():
    """The printed two-class forms, transcribed: log loss −(1/n) Σ (y log p + (1−y) log(1−p)) is scikit-learn's
    log_loss; (2/n) Σ (p − y)² is the Brier sum over both classes; the pairwise AUC over p_t is roc_auc_score."""
    sk = pytest.importorskip("sklearn.metrics")
    from advisor.engine import probability_metrics, score_metrics

    assert {"log_loss", "brier", "roc_auc"} <= set(BINARY_FORM_IDS)
    rng = np.random.default_rng(5)
    for _ in range(20):
        n = int(rng.integers(5, 60))
        y = rng.integers(0, 2, n)
        if y.min() == y.max():
            continue
        p = np.round(rng.uniform(0.01, 0.99, n), 2)  # ties, as the AUC's half counts; no 0 or 1, no clipping
        proba = np.column_stack([1 - p, p])
        ll = -np.mean(y * np.log(p) + (1 - y) * np.log(1 - p))
        assert ll == pytest.approx(sk.log_loss(y, p), rel=1e-12)
        got = probability_metrics(y, proba, labels=[0, 1])
        assert got["log_loss"] == pytest.approx(ll, rel=1e-12)
        assert got["brier"] == pytest.approx(2 / n * np.sum((p - y) ** 2), rel=1e-12)
        pos, neg = p[y == 1], p[y == 0]
        auc = np.mean([(a > b) + 0.5 * (a == b) for a in pos for b in neg])
        assert auc == pytest.approx(sk.roc_auc_score(y, p), rel=1e-12)
        values, _ = score_metrics(list(y), [0, 1], proba=proba, proba_labels=["0", "1"], positive_label=1,
                                  metrics=["roc_auc"])
        assert values["roc_auc"] == pytest.approx(auc, rel=1e-12)


COUNTS_FORM_IDS = [m for m in FORMULA_IDS if CAT.metrics[m].counts_form is not None]


def test_mcc_has_matthews_two_class_form() -> None:
    assert "mcc" in COUNTS_FORM_IDS  # the s45, s47 and s50 CoLA readers: the k-class form read as another metric


@pytest.mark.parametrize("mid", COUNTS_FORM_IDS)
def test_counts_form_computes_what_the_engine_computes_and_renders(mid):
    """A two-class report prints the counts form (Matthews's (TP·TN − FP·FN)/√(…) for MCC): at k = 2 it is the
    engine's value, with either class as the positive one (the form's own claim), and it renders and passes the
    allow-list like every catalogue formula."""
    form = CAT.metrics[mid].counts_form.formula
    rng = np.random.default_rng(sum(map(ord, mid)) + 2)
    for C in _matrices(2, 12, rng):
        expected = compute_metrics(C, [mid])[mid]
        assert evaluate_formula(form, C) == pytest.approx(expected, rel=1e-9, abs=1e-12), C.tolist()
        swapped = C[::-1, ::-1].copy()  # the other class taken as positive
        assert evaluate_formula(form, swapped) == pytest.approx(expected, rel=1e-9, abs=1e-12), C.tolist()
    wrong = form.replace(r"\mathrm{FP}\cdot\mathrm{FN}", r"\mathrm{FP}\cdot\mathrm{TN}")
    assert evaluate_formula(wrong, _matrices(2, 1, rng)[0]) != pytest.approx(evaluate_formula(form, _matrices(2, 1, rng)[0]))
    ziamath = pytest.importorskip("ziamath")
    from advisor.report._texsafe import safe_math

    assert safe_math(form) == form and form.count("{") == form.count("}")
    assert "<svg" in ziamath.Math.fromlatex(form).svg()


def test_a_two_class_report_prints_the_counts_form_and_a_multiclass_one_the_general_form() -> None:
    from pathlib import Path

    from advisor.report import methods_paragraph

    situations = Path(__file__).parent / "situations"
    cola = methods_paragraph(situations / "cola.yaml", "md", seed=1)
    assert CAT.metrics["mcc"].counts_form.formula in cola and CAT.metrics["mcc"].formula not in cola
    assert "$TP$, $FP$, $FN$ and $TN$ count true and false positives and negatives" in cola  # the notation says them
    assert "with either class taken as the positive one, which leaves MCC unchanged" in cola
    three = methods_paragraph({"task": "multiclass", "classes": ["a", "b", "c"], "planned_metrics": ["MCC"]}, "md",
                              seed=1)
    assert CAT.metrics["mcc"].formula in three and CAT.metrics["mcc"].counts_form.formula not in three
