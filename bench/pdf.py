"""Time and peak memory to render the printed edition (the full regulation with every form).

Each measurement runs in a fresh Python process, so peak RSS (which includes Pango, HarfBuzz
and the fonts, not only Python objects) belongs to that one render. "cpu s" is the process's
CPU time for the PDF step: on a busy machine it is the steadier figure. Prints a table:

    .venv/bin/python bench/pdf.py            # every language, HarfBuzz subsetting
    .venv/bin/python bench/pdf.py --fonttools  # also the fontTools fallback, for comparison

Cases: `regulation` = regulation + blank forms (what `ball pdf regulation` writes);
`round-16` = the forms of a round of 16 tables, pre-filled (16 score sheets and table cards).

    .venv/bin/python bench/pdf.py --forms 64  # issue 15 target 4: a round of 64 tables

prints the pre-filled forms of one table (the yardstick) and of a 64-table round, each in a
fresh process (HTML and PDF, wall and CPU), and the cost per table beyond the first. The
round's alike score sheets are laid out once and stamped per table (ball.games.ball.paper.stamp);
`--flow` also measures the round with every sheet laid out in full (the way before it).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import time


def _round_of(tables: int):
    from ball.games.ball.paper.forms import BallForms, ControlRow, RoundControl, ScoreSheet
    from ball.printing.forms import FormSet, Header, PairingRow, Pairings

    header = Header(event="Bench Open", round="3", date="2026-11-30")
    names = [(f"Coach {2 * i + 1}", f"Coach {2 * i + 2}") for i in range(tables)]
    return FormSet(
        pairings=Pairings(header, [PairingRow(str(i + 1), a, b) for i, (a, b) in enumerate(names)]),
        prefilled=True,
        game=BallForms(
            score_sheets=[
                ScoreSheet(header=header, table=str(i + 1), coach_a=a, coach_b=b)
                for i, (a, b) in enumerate(names)
            ],
            round_control=RoundControl(
                header, "10:00", rows=[ControlRow(str(i + 1)) for i in range(tables)]
            ),
        ),
    )


def _page_count(pdf: bytes) -> int:
    with tempfile.NamedTemporaryFile(suffix=".pdf") as fh:
        fh.write(pdf)
        fh.flush()
        info = subprocess.run(["pdfinfo", fh.name], capture_output=True, text=True).stdout
    match = re.search(r"^Pages:\s+(\d+)", info, re.M)
    return int(match.group(1)) if match else -1


def one(lang: str, case: str, subsetter: str) -> dict:
    """Render once in this process and report the figures as JSON."""
    t0 = time.perf_counter()
    import weasyprint.pdf.fonts as wp_fonts

    from ball.printing import render_html, render_pdf

    if subsetter == "fonttools":
        wp_fonts.harfbuzz_subset = None  # force WeasyPrint's fontTools path
    t_import = time.perf_counter() - t0
    t1, c1 = time.perf_counter(), time.process_time()
    if case == "regulation":
        edition = render_html("regulation", lang=lang)
    else:
        edition = render_html("forms", lang=lang, forms=_round_of(int(case.split("-")[1])))
    if case.endswith("-flow"):  # every sheet laid out in full, not stamped
        edition = dataclasses.replace(edition, context=None)
    t_html = time.perf_counter() - t1
    t2, c2 = time.perf_counter(), time.process_time()
    pdf = render_pdf(edition)
    t_pdf, c_pdf = time.perf_counter() - t2, time.process_time() - c2
    pages = _page_count(pdf)
    return {
        "lang": lang,
        "case": case,
        "subsetter": subsetter,
        "import_s": t_import,
        "html_s": t_html,
        "pdf_s": t_pdf,
        "pdf_cpu_s": c_pdf,
        "forms_s": time.perf_counter() - t1,
        "forms_cpu_s": time.process_time() - c1,
        "bytes": len(pdf),
        "pages": pages,
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }


def _fresh(lang: str, case: str, subsetter: str = "harfbuzz") -> dict:
    out = subprocess.run(
        [sys.executable, __file__, "--one", lang, case, subsetter],
        check=True,
        capture_output=True,
        text=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def forms_round(tables: int, flow: bool = False) -> None:
    """Issue 15 target 4: a round's pre-filled forms beside one table's, same run."""
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"load average {load}; import excluded, HTML + PDF of the forms in a fresh process")
    print(f"{'case':15} {'pages':>5} {'wall s':>7} {'cpu s':>7}")
    rows = {}
    cases = ("round-1", f"round-{tables}") + ((f"round-{tables}-flow",) if flow else ())
    for case in cases:
        r = rows[case] = _fresh("en", case)
        print(f"{case:15} {r['pages']:5d} {r['forms_s']:7.2f} {r['forms_cpu_s']:7.2f}")
    one_table, whole = rows["round-1"], rows[f"round-{tables}"]
    per = (whole["forms_cpu_s"] - one_table["forms_cpu_s"]) / max(1, tables - 1)
    print(f"yardstick (one table) {one_table['forms_s']:.2f} s wall; {tables} tables "
          f"{whole['forms_s']:.2f} s wall; {per:.3f} s CPU per further table")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--one", nargs=3, metavar=("LANG", "CASE", "SUBSETTER"))
    parser.add_argument("--fonttools", action="store_true", help="also measure fontTools")
    parser.add_argument("--forms", type=int, metavar="TABLES", help="a round's forms only")
    parser.add_argument(
        "--flow", action="store_true", help="with --forms: also every sheet laid out in full"
    )
    args = parser.parse_args()
    if args.one:
        print(json.dumps(one(*args.one)))
        return
    if args.forms:
        forms_round(args.forms, args.flow)
        return
    from weasyprint.text.ffi import harfbuzz_subset

    print(f"HarfBuzz subsetting available: {harfbuzz_subset is not None}")
    subsetters = ["harfbuzz"] + (["fonttools"] if args.fonttools else [])
    print(
        f"{'lang':4} {'case':10} {'subset':9} {'html s':>7} {'pdf s':>7} {'cpu s':>7} "
        f"{'pages':>5} {'KiB':>7} {'peak RSS MiB':>12}"
    )
    for subsetter in subsetters:
        for case in ("regulation", "round-16"):
            for lang in ("en", "ko", "bg"):
                out = subprocess.run(
                    [sys.executable, __file__, "--one", lang, case, subsetter],
                    check=True,
                    capture_output=True,
                    text=True,
                )
                r = json.loads(out.stdout.strip().splitlines()[-1])
                print(
                    f"{r['lang']:4} {r['case']:10} {r['subsetter']:9} {r['html_s']:7.2f} "
                    f"{r['pdf_s']:7.2f} {r['pdf_cpu_s']:7.2f} {r['pages']:5d} "
                    f"{r['bytes'] / 1024:7.0f} {r['peak_rss_mb']:12.0f}"
                )


if __name__ == "__main__":
    main()
