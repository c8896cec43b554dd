"""Benchmark: the portal's PDF maker (federation/pdf.py), in one process.

Prints, in seconds,

* the first document of the process (a title and a paragraph: the fonts loaded here),
* the median of later small documents (the fonts already loaded, if they are cached),
* the median of a document holding a 500-row, 6-column table (about 11 pages), and its page count.

    python bench/pdf.py
    python bench/pdf.py --rows 2000 --repeat 5
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from decimal import Decimal
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings_test")


def timed(make) -> tuple[float, float, bytes]:
    """Wall and CPU seconds: the machine may be shared, the CPU time is the figure that compares."""
    start, cpu = time.perf_counter(), time.process_time()
    data = make()
    return time.perf_counter() - start, time.process_time() - cpu, data


def median(runs, index) -> float:
    return statistics.median(run[index] for run in runs)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=500)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    import django

    django.setup()
    from django.utils import translation

    from federation import pdf

    translation.activate("hu")
    small = [pdf.Paragraph("Árvíztűrő tükörfúrógép: a nevezési díj 12 000 Ft.")]
    rows = [
        (
            i + 1,
            f"Kovács Árpád Ödön {i}",
            "Budapesti Bridzs Egyesület",
            Decimal("12.5") + i,
            12000,
            "átutalás",
        )
        for i in range(args.rows)
    ]
    table = [pdf.Table(["#", "Név", "Egyesület", "Pont", "Díj", "Mód"], rows, widths=(1, 5, 6, 2, 2, 3))]

    import pypdfium2

    first = timed(lambda: pdf.document("Nyugta", "első", small))
    smalls = [timed(lambda: pdf.document("Nyugta", "kicsi", small)) for _i in range(args.repeat)]
    bigs = [timed(lambda: pdf.document("Lista", f"{args.rows} sor", table)) for _i in range(args.repeat)]
    data = bigs[-1][2]
    pages = len(pypdfium2.PdfDocument(data))

    print(f"first document (fonts loaded): {first[0]:.3f} s wall, {first[1]:.3f} s CPU")
    print(
        f"small document, median of {args.repeat}: {median(smalls, 0):.3f} s wall, {median(smalls, 1):.3f} s CPU"
    )
    print(
        f"{args.rows}-row table, median of {args.repeat}: {median(bigs, 0):.3f} s wall,"
        f" {median(bigs, 1):.3f} s CPU ({len(data) // 1024} KiB, {pages} pages)"
    )


if __name__ == "__main__":
    main()
