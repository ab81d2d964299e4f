#!/usr/bin/env python3
"""Draws the scaling bench's cost per character as a self-contained SVG line chart.

Reads criterion's estimates of `cargo bench --bench scaling`, one folder per crowd size:

    target/criterion/scaling/<count>/new/estimates.json   (times in nanoseconds per step)
    target/criterion/scaling/<count>/new/benchmark.json   (throughput: Elements = count)

divides the median (or mean) time of one `Sim::step` by the number of characters, prints a
table and writes an SVG (log-scale x axis of characters, y axis of microseconds per character
from 0, with criterion's 95 % confidence interval as whiskers). Standard library only.

Usage, from the repository root:

    python3 scripts/plot_scaling.py [--date 2025-01-31] [--machine "2 cores, shared"]
        [--statistic median|mean] [--criterion target/criterion/scaling] [--out docs/scaling.svg]
"""

import argparse
import json
import math
import sys
from pathlib import Path
from xml.sax.saxutils import escape

# Canvas and plot area (px).
WIDTH, HEIGHT = 760, 470
LEFT, RIGHT, TOP, BOTTOM = 90, 40, 80, 70
# The x axis always spans these character counts (log scale), wider if the data are.
X_MIN, X_MAX = 100, 100_000


def read_points(folder: Path, statistic: str):
    """[(characters, ns per step, (low, high) ns per step)] sorted by characters."""
    points = []
    for bench in sorted(p for p in folder.iterdir() if p.is_dir()):
        estimates = bench / "new" / "estimates.json"
        if not estimates.is_file():
            continue
        count = characters(bench)
        if count is None:
            print(f"skipped {bench}: no character count", file=sys.stderr)
            continue
        stat = json.loads(estimates.read_text())[statistic]
        interval = stat["confidence_interval"]
        points.append(
            (count, stat["point_estimate"], (interval["lower_bound"], interval["upper_bound"]))
        )
    return sorted(points)


def characters(bench: Path):
    """The crowd size of one benchmark folder: its throughput, else its numeric name."""
    meta = bench / "new" / "benchmark.json"
    if meta.is_file():
        data = json.loads(meta.read_text())
        elements = (data.get("throughput") or {}).get("Elements")
        if elements:
            return int(elements)
        value = data.get("value_str") or ""
        if value.isdigit():
            return int(value)
    return int(bench.name) if bench.name.isdigit() else None


def nice_step(span: float) -> float:
    """A round tick step (1, 2 or 5 times a power of ten) giving 6 ticks or fewer over span."""
    raw = span / 6
    power = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 5, 10):
        if factor * power >= raw:
            return factor * power
    return 10 * power


def thousands(n: int) -> str:
    """`n` with thousands separators: 100,000."""
    return f"{n:,}"


def fmt(value: float) -> str:
    """A tick label: at most 3 significant digits, no trailing zeros."""
    return "0" if value == 0 else f"{value:.3g}"


def svg_chart(points, title: str, notes: str, statistic: str) -> str:
    counts = [n for n, _, _ in points]
    us = [ns / n / 1000 for n, ns, _ in points]
    highs = [hi / n / 1000 for n, _, (_, hi) in points]
    x_lo = min([X_MIN] + counts)
    x_hi = max([X_MAX] + counts)
    log_lo, log_hi = math.log10(x_lo), math.log10(x_hi)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    top_value = max(highs + us + [1e-9]) * 1.15
    step = nice_step(top_value)
    y_max = step * math.ceil(top_value / step)

    def x_of(n: float) -> float:
        return LEFT + (math.log10(n) - log_lo) / (log_hi - log_lo) * plot_w

    def y_of(v: float) -> float:
        return TOP + plot_h - v / y_max * plot_h

    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="DejaVu Sans, Helvetica, Arial, sans-serif">',
        f'<rect width="{WIDTH}" height="{HEIGHT}" fill="white"/>',
        f'<text x="{WIDTH / 2}" y="30" font-size="18" text-anchor="middle" '
        f'font-weight="bold">{escape(title)}</text>',
    ]
    if notes:
        out.append(
            f'<text x="{WIDTH / 2}" y="52" font-size="12" text-anchor="middle" '
            f'fill="#555">{escape(notes)}</text>'
        )
    # Horizontal grid and y ticks.
    k = 0
    while k * step <= y_max + step / 1000:
        v = k * step
        y = y_of(v)
        out.append(
            f'<line x1="{LEFT}" y1="{y:.1f}" x2="{LEFT + plot_w}" y2="{y:.1f}" '
            f'stroke="#ddd" stroke-width="1"/>'
        )
        out.append(
            f'<text x="{LEFT - 8}" y="{y + 4:.1f}" font-size="12" text-anchor="end">{fmt(v)}</text>'
        )
        k += 1
    # Vertical grid: decades labelled, 2..9 lighter.
    for decade in range(math.floor(log_lo), math.ceil(log_hi) + 1):
        for m in range(1, 10):
            n = m * 10**decade
            if n < x_lo or n > x_hi:
                continue
            x = x_of(n)
            colour = "#ccc" if m == 1 else "#eee"
            out.append(
                f'<line x1="{x:.1f}" y1="{TOP}" x2="{x:.1f}" y2="{TOP + plot_h}" '
                f'stroke="{colour}" stroke-width="1"/>'
            )
            if m == 1:
                out.append(
                    f'<text x="{x:.1f}" y="{TOP + plot_h + 20}" font-size="12" '
                    f'text-anchor="middle">{thousands(n)}</text>'
                )
    # Axes and their labels.
    out.append(
        f'<polyline points="{LEFT},{TOP} {LEFT},{TOP + plot_h} {LEFT + plot_w},{TOP + plot_h}" '
        f'fill="none" stroke="black" stroke-width="1.5"/>'
    )
    out.append(
        f'<text x="{LEFT + plot_w / 2}" y="{HEIGHT - 22}" font-size="14" text-anchor="middle">'
        f"characters in the crowd (log scale)</text>"
    )
    out.append(
        f'<text x="24" y="{TOP + plot_h / 2}" font-size="14" text-anchor="middle" '
        f'transform="rotate(-90 24 {TOP + plot_h / 2})">'
        f"µs per character per step ({statistic})</text>"
    )
    # Line, confidence whiskers, points and their values.
    line = " ".join(f"{x_of(n):.1f},{y_of(v):.1f}" for n, v in zip(counts, us))
    out.append(f'<polyline points="{line}" fill="none" stroke="#1f6fb4" stroke-width="2.5"/>')
    for (n, _, (lo, hi)), v in zip(points, us):
        x = x_of(n)
        y_lo, y_hi = y_of(lo / n / 1000), y_of(hi / n / 1000)
        out.append(
            f'<line x1="{x:.1f}" y1="{y_lo:.1f}" x2="{x:.1f}" y2="{y_hi:.1f}" '
            f'stroke="#1f6fb4" stroke-width="1.5"/>'
        )
        for yy in (y_lo, y_hi):
            out.append(
                f'<line x1="{x - 5:.1f}" y1="{yy:.1f}" x2="{x + 5:.1f}" y2="{yy:.1f}" '
                f'stroke="#1f6fb4" stroke-width="1.5"/>'
            )
        out.append(
            f'<circle cx="{x:.1f}" cy="{y_of(v):.1f}" r="5" fill="#1f6fb4" '
            f'stroke="white" stroke-width="1.5"/>'
        )
        # Right of the point, or left of it near the right edge.
        near_edge = x > LEFT + 0.85 * plot_w
        label_x, anchor = (x - 8, "end") if near_edge else (x + 8, "start")
        out.append(
            f'<text x="{label_x:.1f}" y="{min(y_of(v), y_hi) - 8:.1f}" font-size="12" '
            f'text-anchor="{anchor}" fill="#1f6fb4">{v:.2f} µs</text>'
        )
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--criterion", default="target/criterion/scaling", type=Path,
                        help="criterion's folder of the scaling group")
    parser.add_argument("--out", default="docs/scaling.svg", type=Path, help="SVG to write")
    parser.add_argument("--statistic", default="median", choices=["median", "mean"])
    parser.add_argument("--date", default="", help="date of the run, shown under the title")
    parser.add_argument("--machine", default="", help="machine note, shown under the title")
    args = parser.parse_args()

    if not args.criterion.is_dir():
        print(f"{args.criterion}: no such folder; run `cargo bench --bench scaling` first",
              file=sys.stderr)
        return 1
    points = read_points(args.criterion, args.statistic)
    if not points:
        print(f"{args.criterion}: no */new/estimates.json", file=sys.stderr)
        return 1
    print(f"{'characters':>11} {'ms per step':>12} {'µs per char':>12} {'chars per s':>12}")
    for n, ns, _ in points:
        print(f"{n:>11,} {ns / 1e6:>12.3f} {ns / n / 1000:>12.3f} {n / ns * 1e9:>12,.0f}")
    notes = " · ".join(s for s in (args.date, args.machine) if s)
    title = "spherewalk: cost per character of one parallel Sim::step"
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(svg_chart(points, title, notes, args.statistic), encoding="utf-8")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
