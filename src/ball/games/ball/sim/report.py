"""`ball sim report RUN`: a run directory's figures as an HTML page and a PDF with plots.

The figures come from `ball.games.ball.sim.stats` (pure); this module only draws them (matplotlib's
Agg backend, SVG embedded as data URIs, so the page is one self-contained file) and words each
plot's one-line reading from the data in English, Korean or Bulgarian through the one Babel
catalogue (`ball.i18n`). The PDF is the same page printed by WeasyPrint, as `ball.printing`
prints the regulation.
"""

from __future__ import annotations

import base64
import html
import io
import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ball.i18n import LANGUAGES, gettext_for

from .rundir import RunDirError, batches, pending, read_manifest, read_outcomes
from .stats import CHOICES, REASONS, THENS, Distribution, ReportStats, Share, compute


@dataclass(frozen=True)
class Section:
    title: str
    reading: str
    svg: str


def load_run(run_dir: Path) -> tuple[dict, ReportStats]:
    """The manifest and the figures of a complete run directory (RunDirError if it is not)."""
    if not run_dir.is_dir():
        raise RunDirError(f"{run_dir} is not a directory: give a run made by 'ball sim run --out'")
    manifest = read_manifest(run_dir)
    matches, size = manifest["matches"], manifest["batch_size"]
    if not isinstance(size, int) or not isinstance(matches, int) or size < 1 or matches < 1:
        raise RunDirError(f"{run_dir} has a manifest with a bad matches or batch_size")
    missing = pending(run_dir, matches, size)
    if missing:
        done = len(batches(matches, size)) - len(missing)
        raise RunDirError(
            f"{run_dir} is not complete ({done} of {done + len(missing)} batches stored);"
            " finish it with 'ball sim run --resume'"
        )
    try:
        results = list(read_outcomes(run_dir, matches, size))
    except (ValueError, TypeError, KeyError) as exc:
        raise RunDirError(f"{run_dir} holds a shard that cannot be read ({exc})") from exc
    return manifest, compute(results, cap=manifest.get("half_turns"))


def pct(value: float) -> str:
    """A share as a percentage: whole numbers, one decimal below 10 %."""
    shown = f"{100 * value:.1f}" if 0 < value < 0.1 else f"{100 * value:.0f}"
    return f"{shown} %"


def _num(value: float) -> str:
    return f"{value:.1f}"


def _svg(draw: Callable) -> str:
    import matplotlib

    matplotlib.use("Agg")  # no display: the report is drawn to files
    import matplotlib.pyplot as plt

    plt.rcParams["font.family"] = ["DejaVu Sans", "Noto Sans CJK KR"]
    plt.rcParams["svg.hashsalt"] = "ball"  # the same run draws the same SVG
    fig, ax = plt.subplots(figsize=(6.4, 2.8))
    draw(ax)
    fig.tight_layout()
    buf = io.StringIO()
    fig.savefig(buf, format="svg", metadata={"Date": None})
    plt.close(fig)
    return "data:image/svg+xml;base64," + base64.b64encode(buf.getvalue().encode()).decode()


def _errors(shares: list[Share]) -> list[list[float]]:
    """Error bars (below, above) in percent: each share's 95 % interval."""
    return [[100 * (s.share - s.low) for s in shares], [100 * (s.high - s.share) for s in shares]]


def _bars(labels: list[str], shares: list[Share]) -> Callable:
    def draw(ax) -> None:
        ys = [100 * s.share for s in shares]
        err = _errors(shares)
        # Wrapped: the Bulgarian reason names are too long for one line under a bar.
        shown = [textwrap.fill(label, 16) for label in labels]
        ax.bar(shown, ys, yerr=err, capsize=4, color="#4a78a8")
        ax.set_ylim(0, 100)
        ax.set_ylabel("%")

    return draw


def _bins(values: tuple[float, ...]) -> int | list[float]:
    """One bar per whole number for counts over a short range (turns, PB), else 30 bars."""
    lo, hi = min(values), max(values)
    if all(float(v).is_integer() for v in values) and hi - lo <= 60:
        return [lo - 0.5 + k for k in range(int(hi - lo) + 2)]
    return 30


def _hist(dist: Distribution, xlabel: str) -> Callable:
    def draw(ax) -> None:
        if dist.values:
            ax.hist(dist.values, bins=_bins(dist.values), color="#4a78a8")
            ax.axvline(dist.mean, color="#b03a2e", linestyle="--")
        ax.set_xlabel(xlabel)

    return draw


def _reasons(st: ReportStats, _: Callable[[str], str]) -> Section:
    names = {
        "touchdowns": _("touchdowns"),
        "attack-efficiency": _("attack efficiency"),
        "defensive-superiority": _("defensive superiority"),
        "draw": _("draw"),
    }
    r = st.reasons
    td = r["touchdowns"]
    reading = _(
        "Touchdowns decide %(td)s of matches (95 %%: %(low)s–%(high)s), attack efficiency"
        " %(ae)s, defensive superiority %(ds)s; %(draw)s are drawn."
    ) % {
        "td": pct(td.share), "low": pct(td.low), "high": pct(td.high),
        "ae": pct(r["attack-efficiency"].share), "ds": pct(r["defensive-superiority"].share),
        "draw": pct(r["draw"].share),
    }  # fmt: skip
    svg = _svg(_bars([names[k] for k in REASONS], [r[k] for k in REASONS]))
    return Section(_("How matches are decided"), reading, svg)


def _first_attacker(st: ReportStats, _: Callable[[str], str]) -> Section:
    s = st.first_attacker
    reading = _(
        "The first attacker wins %(share)s of the %(n)s decided matches (95 %%: %(low)s–%(high)s)."
    ) % {"share": pct(s.share), "n": s.total, "low": pct(s.low), "high": pct(s.high)}
    second = Share(s.total - s.count, s.total, 1 - s.share, 1 - s.high, 1 - s.low)
    svg = _svg(_bars([_("first attacker"), _("second attacker")], [s, second]))
    return Section(_("The ATK-first advantage"), reading, svg)


def _pb(st: ReportStats, _: Callable[[str], str]) -> Section:
    d = st.pb_per_half
    reading = _(
        "A half charges %(mean)s PB on average; half of all halves lie between %(q1)s and %(q3)s."
    ) % {"mean": _num(d.mean), "q1": _num(d.low_quartile), "q3": _num(d.high_quartile)}
    return Section(_("PB per half"), reading, _svg(_hist(d, _("PB per half"))))


def _td_rate(st: ReportStats, _: Callable[[str], str]) -> Section:
    d = st.td_per_20_pb
    reading = _("A match scores %(mean)s touchdowns per 20 PB on average (median %(median)s).") % {
        "mean": _num(d.mean),
        "median": _num(d.median),
    }
    return Section(_("Touchdowns per 20 PB"), reading, _svg(_hist(d, _("TD per 20 PB"))))


def _steals(st: ReportStats, _: Callable[[str], str]) -> Section:
    title = _("Steals: continue or reset, and what follows")
    labels = {"continue": _("continue"), "reset": _("reset")}
    total = st.choices["continue"].total
    if not st.steals_recorded:
        reading = _(
            "This run was recorded before steal outcomes were stored: only counts are shown."
        )
        svg = _svg(_bars([labels[c] for c in CHOICES], [st.choices[c] for c in CHOICES]))
        return Section(title, reading, svg)
    if total == 0:
        return Section(title, _("No steal was answered in this run."), _svg(lambda ax: None))
    w, cont = st.halves_with_steal, st.choices["continue"]
    parts = [
        _(
            "%(halves)s of halves see a steal (95 %%: %(low)s–%(high)s); stealers continue"
            " %(cont)s of the time"
        )
        % {"halves": pct(w.share), "low": pct(w.low), "high": pct(w.high), "cont": pct(cont.share)}
    ]
    after = {
        "continue": _(
            "after a continue the stealer scores in that half %(own)s of the time"
            " (95 %%: %(low)s–%(high)s)"
        ),
        "reset": _(
            "after a reset the stealer scores in that half %(own)s of the time"
            " (95 %%: %(low)s–%(high)s)"
        ),
    }
    for c in CHOICES:  # a choice never made has no outcome to report
        own = st.then[c]["own"]
        if own.total:
            parts.append(
                after[c] % {"own": pct(own.share), "low": pct(own.low), "high": pct(own.high)}
            )
    reading = "; ".join(parts) + "."
    then_names = {"own": _("stealer scores"), "other": _("opponent scores"), "none": _("no TD")}
    made = [c for c in CHOICES if st.choices[c].count]
    bar_labels = [f"{labels[c]}: {then_names[t]}" for c in made for t in THENS]
    shares = [st.then[c][t] for c in made for t in THENS]

    def draw(ax) -> None:
        ys = [100 * s.share for s in shares]
        err = _errors(shares)
        colors = [{"continue": "#4a78a8", "reset": "#b07a2e"}[c] for c in made for _t in THENS]
        ax.barh(bar_labels, ys, xerr=err, capsize=3, color=colors)
        ax.set_xlim(0, 100)
        ax.set_xlabel("%")
        ax.invert_yaxis()

    return Section(title, reading, _svg(draw))


def _half_length(st: ReportStats, _: Callable[[str], str]) -> Section:
    d, capped = st.half_turns, st.capped
    reading = _(
        "A half lasts %(mean)s turns on average (median %(median)s); %(capped)s of halves reach"
        " the turn cap (95 %%: %(low)s–%(high)s)."
    ) % {
        "mean": _num(d.mean), "median": _num(d.median), "capped": pct(capped.share),
        "low": pct(capped.low), "high": pct(capped.high),
    }  # fmt: skip
    return Section(_("Half length in turns"), reading, _svg(_hist(d, _("turns"))))


SECTIONS = (_reasons, _first_attacker, _pb, _td_rate, _steals, _half_length)


def sections(st: ReportStats, lang: str) -> list[Section]:
    _ = gettext_for(lang)
    return [make(st, _) for make in SECTIONS]


def render_html(manifest: dict, st: ReportStats, lang: str) -> str:
    _ = gettext_for(lang)
    e = html.escape
    head = _(
        "%(n)s matches: %(a)s (A) against %(b)s (B), ruleset %(rules)s, %(cap)s turns per half"
    )
    facts = head % {
        "n": st.matches, "a": manifest["agent_a"], "b": manifest["agent_b"],
        "rules": manifest["ruleset"], "cap": manifest["half_turns"],
    }  # fmt: skip
    title = e(_("Self-play report"))  # not inside the f-strings: Babel cannot extract there
    parts = [
        f'<!DOCTYPE html><html lang="{e(lang)}"><head><meta charset="utf-8">',
        f"<title>{title}</title><style>{CSS}</style></head><body>",
        f"<h1>{title}</h1><p class=facts>{e(facts)}</p>",
    ]
    for s in sections(st, lang):
        parts.append(
            f"<section><h2>{e(s.title)}</h2><p class=reading>{e(s.reading)}</p>"
            f'<img src="{s.svg}" alt="{e(s.reading)}"></section>'
        )
    note = _("Intervals are 95 %% Wilson score intervals. Seed %(seed)s.") % {
        "seed": manifest["seed"]
    }
    parts.append(f"<p class=note>{e(note)}</p></body></html>")
    return "\n".join(parts)


CSS = """
@page { size: A4; margin: 15mm; }
body { font-family: "Noto Sans CJK KR", "DejaVu Sans", sans-serif; font-size: 10pt; color: #222; }
h1 { font-size: 16pt; } h2 { font-size: 12pt; margin-bottom: 2pt; }
section { break-inside: avoid; margin-bottom: 8pt; }
.reading { font-weight: bold; margin: 2pt 0; }
img { width: 100%; max-width: 170mm; }
.facts, .note { color: #555; }
"""


def write_report(run_dir: Path, out_dir: Path, lang: str) -> tuple[Path, Path]:
    """Write report.html and report.pdf for the run into `out_dir`; return both paths."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}: choose one of {', '.join(LANGUAGES)}")
    manifest, st = load_run(run_dir)
    page = render_html(manifest, st, lang)
    out_dir.mkdir(parents=True, exist_ok=True)
    html_path, pdf_path = out_dir / "report.html", out_dir / "report.pdf"
    html_path.write_text(page, encoding="utf-8")
    from weasyprint import HTML  # imported late: loading Pango costs time

    HTML(string=page, base_url=str(out_dir)).write_pdf(pdf_path)
    return html_path, pdf_path
