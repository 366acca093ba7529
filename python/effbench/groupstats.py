"""Distribution-free statistics over independent launches (docs/statistics.md).

- The median of a group's run values with a confidence interval from order statistics: the
  sample median's interval [x(l), x(n+1-l)], whose coverage is exactly
  1 - 2 P(B <= l-1) for B ~ Binomial(n, 1/2), whatever the distribution of the runs (Le Boudec,
  "Performance Evaluation of Computer and Communication Systems", 2010, Theorem 2.1; the method
  Hoefler and Belli, SC15, ask for).
- Two groups: the Mann-Whitney U test (Mann and Whitney 1947), exact from the permutation
  distribution of U when no value is tied and both groups have at most EXACT_MAX runs, else
  the normal approximation with tie and continuity correction; and a confidence interval for
  the ratio B/A from the Hodges-Lehmann / Moses interval of the shift of the logarithms (the
  order statistics of the m*n differences log b - log a, cut at the U distribution's critical
  value; Hollander, Wolfe and Chicken, "Nonparametric Statistical Methods", 3rd ed., 2014,
  section 4.3).

Every probability of the exact methods is computed with integers and Fractions: the levels
and coverages printed are exact, not rounded table values.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from statistics import NormalDist

EXACT_MAX = 50  # runs per group up to which U's distribution is computed exactly


def median(values: list[float]) -> float:
    xs = sorted(values)
    n = len(xs)
    if n == 0:
        raise ValueError("the median of no values")
    mid = n // 2
    return xs[mid] if n % 2 else (xs[mid - 1] + xs[mid]) / 2


# --- the median and its interval --------------------------------------------------------------

@dataclass
class MedianInterval:
    n: int
    median: float
    low: float | None  # None: too few values for the confidence asked
    high: float | None
    rank: int | None  # l: the interval is [x(l), x(n+1-l)], 1-based ranks
    coverage: Fraction | None  # exact: 1 - 2 P(Binomial(n, 1/2) <= l - 1)
    needed: int  # the fewest values that give an interval at this confidence


def _binomial_tail(n: int, k: int) -> Fraction:
    """P(B <= k) for B ~ Binomial(n, 1/2)."""
    return Fraction(sum(math.comb(n, i) for i in range(k + 1)), 2 ** n)


def median_rank(n: int, confidence: Fraction) -> tuple[int, Fraction] | None:
    """The largest l (1 <= l <= n/2) whose interval [x(l), x(n+1-l)] covers the median with
    probability >= CONFIDENCE, and that probability; None when even [x(1), x(n)] does not."""
    best = None
    for rank in range(1, n // 2 + 1):
        coverage = 1 - 2 * _binomial_tail(n, rank - 1)
        if coverage < confidence:
            break
        best = (rank, coverage)
    return best


def runs_needed(confidence: Fraction) -> int:
    """The fewest values whose [min, max] covers the median with probability >= CONFIDENCE:
    the smallest n with 1 - 2^(1-n) >= CONFIDENCE (6 for 95 %, 8 for 99 %)."""
    n = 2
    while 1 - Fraction(2, 2 ** n) < confidence:
        n += 1
    return n


def median_interval(values: list[float], confidence: Fraction) -> MedianInterval:
    xs = sorted(values)
    n = len(xs)
    found = median_rank(n, confidence)
    if found is None:
        return MedianInterval(n, median(xs), None, None, None, None, runs_needed(confidence))
    rank, coverage = found
    return MedianInterval(n, median(xs), xs[rank - 1], xs[n - rank], rank, coverage,
                          runs_needed(confidence))


# --- Mann-Whitney U ---------------------------------------------------------------------------

def u_counts(m: int, n: int) -> list[int]:
    """How many of the C(m+n, m) equally likely arrangements of two groups of M and N distinct
    values give U = 0, 1, ..., m*n: the coefficients of the Gaussian binomial coefficient
    [m+n choose m]_q = prod_{i=1..m} (1 - q^(n+i)) / (1 - q^i)."""
    size = m * n + 1
    c = [0] * size
    c[0] = 1
    for i in range(1, m + 1):
        step = n + i  # times (1 - q^(n+i)), from the top down
        for k in range(size - 1, step - 1, -1):
            c[k] -= c[k - step]
        for k in range(i, size):  # divided by (1 - q^i): a running sum with stride i
            c[k] += c[k - i]
    return c


def u_statistic(a: list[float], b: list[float]) -> float:
    """U of B against A: the pairs (a, b) with b > a, ties counted one half."""
    return sum(1.0 if y > x else 0.5 if y == x else 0.0 for x in a for y in b)


def has_ties(a: list[float], b: list[float]) -> bool:
    values = list(a) + list(b)
    return len(set(values)) < len(values)


@dataclass
class MannWhitney:
    u: float  # U of B against A (m*n - u is A's)
    p: float  # two-sided
    method: str  # "exact" or "normal"


def mann_whitney(a: list[float], b: list[float]) -> MannWhitney:
    """Two-sided Mann-Whitney U test of A against B."""
    m, n = len(a), len(b)
    u = u_statistic(a, b)
    if not has_ties(a, b) and max(m, n) <= EXACT_MAX:
        counts = u_counts(m, n)
        total = math.comb(m + n, m)
        k = int(u)
        lower = Fraction(sum(counts[:k + 1]), total)  # P(U <= u)
        upper = Fraction(sum(counts[k:]), total)  # P(U >= u)
        return MannWhitney(u, float(min(Fraction(1), 2 * min(lower, upper))), "exact")
    return MannWhitney(u, normal_p(a, b, u), "normal")


def normal_p(a: list[float], b: list[float], u: float) -> float:
    """The normal approximation: mean m n / 2, variance m n / 12 ((N + 1) - sum(t^3 - t) /
    (N (N - 1))) over the groups of t tied values, and a continuity correction of 1/2."""
    m, n = len(a), len(b)
    big_n = m + n
    counts: dict[float, int] = {}
    for v in list(a) + list(b):
        counts[v] = counts.get(v, 0) + 1
    ties = sum(t ** 3 - t for t in counts.values())
    variance = m * n / 12 * ((big_n + 1) - ties / (big_n * (big_n - 1)))
    if variance <= 0:  # every value the same: nothing tells the groups apart
        return 1.0
    z = (abs(u - m * n / 2) - 0.5) / math.sqrt(variance)
    return min(1.0, math.erfc(z / math.sqrt(2)))


# --- the ratio B/A and its interval -------------------------------------------------------------

@dataclass
class RatioInterval:
    ratio: float  # median(B) / median(A)
    low: float | None  # None: too few runs for the confidence asked
    high: float | None
    rank: int | None  # k: [D(k), D(mn+1-k)] of the sorted log differences, 1-based
    coverage: float | None  # exact (Fraction's value) up to EXACT_MAX runs, else nominal
    exact: bool


def u_critical(m: int, n: int, confidence: Fraction) -> tuple[int, Fraction | float] | None:
    """The largest k >= 1 with P(U <= k - 1) <= (1 - CONFIDENCE) / 2 and the coverage
    1 - 2 P(U <= k - 1) of [D(k), D(mn+1-k)]; None when P(U = 0) alone is too likely.
    Beyond EXACT_MAX runs: k = floor(m n / 2 - z sqrt(m n (m + n + 1) / 12)), nominal."""
    alpha_half = (1 - confidence) / 2
    if max(m, n) > EXACT_MAX:
        z = NormalDist().inv_cdf(1 - float(alpha_half))
        k = math.floor(m * n / 2 - z * math.sqrt(m * n * (m + n + 1) / 12))
        return (k, float(confidence)) if k >= 1 else None
    counts = u_counts(m, n)
    total = math.comb(m + n, m)
    k, below = 0, 0  # below: arrangements with U <= k - 1
    while k < len(counts) and Fraction(below + counts[k], total) <= alpha_half:
        below += counts[k]
        k += 1
    if k == 0:
        return None
    return k, 1 - 2 * Fraction(below, total)


def ratio_interval(a: list[float], b: list[float], confidence: Fraction) -> RatioInterval:
    """median(B) / median(A) and the interval for the ratio from the m*n log ratios."""
    ratio = median(b) / median(a)
    m, n = len(a), len(b)
    found = u_critical(m, n, confidence)
    if found is None:
        return RatioInterval(ratio, None, None, None, None, max(m, n) <= EXACT_MAX)
    k, coverage = found
    # sorted by the log ratio, each kept as the ratio y / x itself (no exp(log) rounding)
    pairs = sorted(((math.log(y) - math.log(x), y / x) for x in a for y in b))
    return RatioInterval(ratio, pairs[k - 1][1], pairs[m * n - k][1], k, float(coverage),
                         max(m, n) <= EXACT_MAX)


def fewest_pair(confidence: Fraction) -> int:
    """The fewest runs per group (equal sizes) that give the ratio an interval at CONFIDENCE:
    the smallest m with 2 / C(2m, m) <= 1 - CONFIDENCE (4 for 95 %)."""
    m = 1
    while Fraction(2, math.comb(2 * m, m)) > 1 - confidence:
        m += 1
    return m


def verdict(interval: RatioInterval, metric: str, threshold: float) -> str:
    """What the interval shows about B against A: "no difference shown" when it holds 1,
    else "B slower"/"B faster" (lower times and higher bandwidths are faster), "REGRESSION"
    when B is slower and its median worse than A's by more than THRESHOLD (a fraction)."""
    if interval.low is None:
        return "too few runs"
    if interval.low <= 1 <= interval.high:
        return "no difference shown"
    higher = interval.low > 1
    slower = higher if metric == "time" else not higher
    if not slower:
        return "B faster"
    worse_by = interval.ratio - 1 if metric == "time" else 1 / interval.ratio - 1
    return "REGRESSION" if worse_by > threshold else "B slower"
