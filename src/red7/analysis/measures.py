"""The measures every report uses, defined once: win rates with Wilson intervals,
bootstrap intervals over deals, percentiles, spreads and histograms.

They are named uses of the standard library so that a tournament, ``red7 stats`` and
``red7 bench`` compute "the 99th percentile" the same way: percentiles are
``statistics.quantiles(..., method="inclusive")``, medians ``statistics.median`` and
histograms :class:`collections.Counter`. Results are JSON-ready: histogram keys become
strings in increasing numeric order.
"""

from __future__ import annotations

import math
import random
import statistics
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TypeVar

T = TypeVar("T")

Z95 = 1.959963984540054
"""The two-sided 95% quantile of the normal distribution (Wilson intervals)."""


def wilson(wins: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a win rate (``wins`` may be fractional).

    >>> [round(x, 3) for x in wilson(50, 100)]
    [0.404, 0.596]
    >>> wilson(0, 0)
    (0.0, 1.0)
    """
    if n <= 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(max(p * (1 - p), 0.0) / n + z * z / (4 * n * n)) / denom
    lo = 0.0 if wins <= 0 else max(0.0, centre - half)
    hi = 1.0 if wins >= n else min(1.0, centre + half)
    return (lo, hi)


def win_rate(wins: float, games: int) -> dict[str, Any]:
    """Games, wins, win rate and its 95% Wilson interval, JSON-ready (None rate for no games)."""
    lo, hi = wilson(wins, games)
    return {
        "games": games,
        "wins": round(wins, 6),
        "win_rate": round(wins / games, 6) if games else None,
        "ci95": [round(lo, 6), round(hi, 6)],
    }


BOOTSTRAP_RESAMPLES = 2000


def bootstrap_ratio(
    numerators: Sequence[float], denominators: Sequence[float], *, seed: int = 0, resamples: int = BOOTSTRAP_RESAMPLES
) -> tuple[float, float]:
    """The 95% percentile-bootstrap interval of ``sum(numerators) / sum(denominators)``
    when the pairs are the independent units (one pair per deal: the games replayed on
    one deal share its cards, so they are resampled together, never one by one).

    Resamples whose denominator is 0 are skipped; with no data the interval is (0, 1).
    Deterministic for a ``seed``.

    >>> bootstrap_ratio([1, 1, 1], [1, 1, 1])
    (1.0, 1.0)
    >>> lo, hi = bootstrap_ratio([1, 0] * 50, [1, 1] * 50); lo < 0.5 < hi
    True
    """
    if len(numerators) != len(denominators):
        raise ValueError("one numerator per denominator")
    if not numerators or not sum(denominators):
        return (0.0, 1.0)
    pairs = list(zip(numerators, denominators, strict=True))
    return _bootstrap(pairs, _ratio, seed, resamples) or (0.0, 1.0)


def bootstrap_difference(
    a: Sequence[tuple[float, float]],
    b: Sequence[tuple[float, float]],
    *,
    seed: int = 0,
    resamples: int = BOOTSTRAP_RESAMPLES,
) -> tuple[float, float]:
    """The 95% percentile-bootstrap interval of the difference of two ratios measured on
    the same deals, ``sum(a numerators) / sum(a denominators)`` minus the same of ``b``:
    ``a[i]`` and ``b[i]`` are (numerator, denominator) of deal ``i``, and a resample takes
    both of a deal together (an A/B on the same deals is paired). Resamples with a zero
    denominator are skipped; with no data the interval is (-1, 1).

    >>> bootstrap_difference([(1, 1)] * 3, [(0, 1)] * 3)
    (1.0, 1.0)
    >>> lo, hi = bootstrap_difference([(1, 2)] * 50, [(1, 2), (0, 2)] * 25); lo < 0.25 < hi
    True
    """
    if len(a) != len(b):
        raise ValueError("the two ratios are measured on the same deals")

    def difference(sample: Sequence[tuple[tuple[float, float], tuple[float, float]]]) -> float | None:
        ra, rb = _ratio([x for x, _ in sample]), _ratio([y for _, y in sample])
        return None if ra is None or rb is None else ra - rb

    return _bootstrap(list(zip(a, b, strict=True)), difference, seed, resamples) or (-1.0, 1.0)


def _ratio(sample: Sequence[tuple[float, float]]) -> float | None:
    """``sum(numerators) / sum(denominators)`` of (numerator, denominator) pairs; None for 0."""
    den = sum(d for _, d in sample)
    return sum(x for x, _ in sample) / den if den else None


def _bootstrap(
    units: Sequence[T], statistic: Callable[[Sequence[T]], float | None], seed: int, resamples: int
) -> tuple[float, float] | None:
    """The 95% percentile-bootstrap interval of ``statistic`` over ``units`` resampled with
    replacement (resamples where it is None are skipped); None when every one is."""
    rng = random.Random(seed)
    values = []
    for _ in range(resamples):
        value = statistic(rng.choices(units, k=len(units)))
        if value is not None:
            values.append(value)
    if not values:
        return None
    values.sort()
    return (values[int(0.025 * (len(values) - 1))], values[int(0.975 * (len(values) - 1))])


def percentile(values: Sequence[float], q: int) -> float | None:
    """The ``q``-th percentile (1..99) of ``values``: ``statistics.quantiles(values,
    n=100, method="inclusive")``, which interpolates linearly between order statistics
    (the sample's minimum and maximum are its 0th and 100th percentiles). None for no
    values; a single value is every percentile of itself.

    >>> percentile([1, 2, 3, 4, 5], 50), percentile([1, 2], 99), percentile([7], 99), percentile([], 99)
    (3.0, 1.99, 7, None)
    """
    if not 1 <= q <= 99:
        raise ValueError(f"a percentile is between 1 and 99, not {q}")
    if len(values) < 2:  # statistics.quantiles needs two points before Python 3.13
        return values[0] if values else None
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1]


def histogram(values: Iterable[int]) -> Counter[int]:
    """How many times each value occurs."""
    return Counter(values)


def counts_json(counts: Mapping[int, int]) -> dict[str, int]:
    """A histogram as JSON: string keys in increasing numeric order."""
    return {str(k): counts[k] for k in sorted(counts)}


def spread(values: Sequence[int]) -> dict[str, Any]:
    """Mean, minimum, median, maximum and histogram of some counts (None when empty)."""
    return {
        "mean": statistics.fmean(values) if values else None,
        "min": min(values, default=None),
        "median": statistics.median(values) if values else None,
        "max": max(values, default=None),
        "counts": counts_json(histogram(values)),
    }


def histogram_summary(counts: Mapping[int, int]) -> dict[str, Any]:
    """A histogram given as counts per value: the counts, the mean value and the
    largest value (None when empty).

    >>> histogram_summary(histogram([2, 3, 3]))
    {'counts': {'2': 1, '3': 2}, 'mean': 2.6666666666666665, 'max': 3}
    """
    return {
        "counts": counts_json(counts),
        "mean": statistics.fmean(counts, weights=counts.values()) if counts else None,
        "max": max(counts, default=None),
    }
