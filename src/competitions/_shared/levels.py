"""The yearly level of a daily series, forecast from the means of its earlier years: shared by the
forecasting generators (a level times a calendar pattern)."""
import numpy as np


def level_forecast(means, years, method):
    """The mean level of each forecast year from the means of the training years (index: year), by `method`:
    flat, linear-k, loglinear-k, growth-k (over the last k years) or holt-p (a damped trend, phi p/10)."""
    years = np.asarray(years, dtype=float)
    last_year, last = float(means.index[-1]), float(means.iloc[-1])
    kind, _, k = method.partition("-")
    k = int(k) if k else 0
    tail = means.iloc[-k:] if k else means
    if kind == "flat":
        return np.full(len(years), last)
    if kind == "linear":
        return np.polyval(np.polyfit(tail.index.to_numpy(float), tail.to_numpy(), 1), years)
    if kind == "loglinear":
        return np.exp(np.polyval(np.polyfit(tail.index.to_numpy(float), np.log(tail.to_numpy()), 1), years))
    if kind == "growth":
        g = (tail.iloc[-1] / tail.iloc[0]) ** (1 / (len(tail) - 1))
        return last * g ** (years - last_year)
    if kind == "holt":
        phi = k / 10
        lvl, trend = means.iloc[0], means.iloc[1] - means.iloc[0]
        for v in means.iloc[1:]:
            prev = lvl
            lvl = 0.6 * v + 0.4 * (prev + phi * trend)
            trend = 0.4 * (lvl - prev) + 0.6 * phi * trend
        h = years - last_year
        return lvl + trend * np.array([sum(phi ** i for i in range(1, int(s) + 1)) for s in h])
    raise ValueError(method)
