"""Where Debian's Python libraries are older than what `pip install` of upstream's requirements gives
today, the behaviour upstream's code meets there, installed before any upstream module is imported.

Each shim names the release whose behaviour it gives and is applied only when the installed library
is older, so the oracle runs the newer library itself wherever one is installed. `install()` returns
the names of the shims applied; the fixtures record them. Each is tested on known values in
test_compat.py."""
import warnings
from collections import namedtuple

import numpy as np


def _release(module):
    """The installed version string; python-Levenshtein 0.12 and bson carry theirs only in metadata."""
    version = getattr(module, "__version__", None)
    if version is None:
        from importlib import metadata

        for dist in (module.__name__, "python-" + module.__name__, "pymongo"):
            try:
                return metadata.version(dist)
            except metadata.PackageNotFoundError:
                continue
    return version or "0"


def _version(module):
    parts = []
    for piece in _release(module).split(".")[:2]:
        digits = "".join(ch for ch in piece if ch.isdigit())
        parts.append(int(digits or 0))
    return tuple(parts)


# --- pandas -------------------------------------------------------------------------------------


def pandas_none_is_na():
    """pandas 2.0 added the string "None" to read_csv's default NA tokens (GH 50286)."""
    from pandas._libs import parsers

    # read_csv hands this very set to its parsers, so adding to it changes every default read.
    parsers.STR_NA_VALUES.add("None")


# --- scikit-learn -------------------------------------------------------------------------------


def _sklearn_metrics():
    import sklearn.metrics
    import sklearn.metrics._classification
    import sklearn.metrics._regression

    return sklearn.metrics, sklearn.metrics._classification, sklearn.metrics._regression


def sklearn_root_mean_squared_error():
    """scikit-learn 1.4's root_mean_squared_error: the square root of each output's MSE, then averaged."""
    metrics, _, regression = _sklearn_metrics()

    def root_mean_squared_error(y_true, y_pred, *, sample_weight=None, multioutput="uniform_average"):
        errors = np.sqrt(
            regression.mean_squared_error(y_true, y_pred, sample_weight=sample_weight, multioutput="raw_values")
        )
        if isinstance(multioutput, str):
            if multioutput == "raw_values":
                return errors
            multioutput = None
        return float(np.average(errors, weights=multioutput))

    metrics.root_mean_squared_error = regression.root_mean_squared_error = root_mean_squared_error


def sklearn_root_mean_squared_log_error():
    """scikit-learn 1.6's root_mean_squared_log_error: values must be finite and above -1 (the domain
    of log1p; before 1.6 any negative value was refused), then the RMSE of log1p of both sides."""
    metrics, _, regression = _sklearn_metrics()

    def root_mean_squared_log_error(y_true, y_pred, *, sample_weight=None, multioutput="uniform_average"):
        _, y_true, y_pred, multioutput = regression._check_reg_targets(y_true, y_pred, multioutput)
        if (y_true <= -1).any() or (y_pred <= -1).any():
            raise ValueError(
                "Root Mean Squared Logarithmic Error cannot be used when targets contain values less than or equal to -1."
            )
        return metrics.root_mean_squared_error(
            np.log1p(y_true), np.log1p(y_pred), sample_weight=sample_weight, multioutput=multioutput
        )

    metrics.root_mean_squared_log_error = regression.root_mean_squared_log_error = root_mean_squared_log_error


def sklearn_log_loss():
    """scikit-learn 1.5's log_loss: probabilities clipped to the dtype's epsilon and no longer
    renormalised per row (1.2 divided each row by its sum), a warning when rows do not sum to one."""
    metrics, classification, _ = _sklearn_metrics()
    from scipy.special import xlogy
    from sklearn.preprocessing import LabelBinarizer
    from sklearn.utils import check_array, check_consistent_length

    def log_loss(y_true, y_pred, *, normalize=True, sample_weight=None, labels=None):
        y_pred = check_array(y_pred, ensure_2d=False, dtype=[np.float64, np.float32, np.float16])
        check_consistent_length(y_pred, y_true, sample_weight)
        binarizer = LabelBinarizer()
        binarizer.fit(labels if labels is not None else y_true)
        if len(binarizer.classes_) == 1:
            if labels is None:
                raise ValueError(
                    "y_true contains only one label ({0}). Please provide the true labels explicitly through the labels argument.".format(
                        binarizer.classes_[0]
                    )
                )
            raise ValueError("The labels array needs to contain at least two labels for log_loss, got {0}.".format(binarizer.classes_))
        truth = binarizer.transform(y_true)
        if truth.shape[1] == 1:
            truth = np.append(1 - truth, truth, axis=1)
        if y_pred.ndim == 1:
            y_pred = y_pred[:, np.newaxis]
        if y_pred.shape[1] == 1:
            y_pred = np.append(1 - y_pred, y_pred, axis=1)
        eps = np.finfo(y_pred.dtype).eps
        y_pred = np.clip(y_pred, eps, 1 - eps)
        truth = check_array(truth)
        if len(binarizer.classes_) != y_pred.shape[1]:
            if labels is None:
                raise ValueError(
                    "y_true and y_pred contain different number of classes {0}, {1}.".format(truth.shape[1], y_pred.shape[1])
                )
            raise ValueError("The number of classes in labels is different from that in y_pred.")
        if not np.allclose(y_pred.sum(axis=1), 1, rtol=np.sqrt(eps)):
            warnings.warn("The y_pred values do not sum to one. Make sure to pass probabilities.", UserWarning)
        loss = -xlogy(truth, y_pred).sum(axis=1)
        if normalize:
            return float(np.average(loss, weights=sample_weight))
        return float(np.sum(loss) if sample_weight is None else np.dot(loss, sample_weight))

    metrics.log_loss = classification.log_loss = log_loss


# --- scipy --------------------------------------------------------------------------------------

PearsonRResult = namedtuple("PearsonRResult", ["statistic", "pvalue"])


def scipy_pearsonr():
    """scipy 1.14+'s pearsonr (as in 1.18) on 1-D input: NaN in, NaN out (scipy <= 1.13 raised through
    scipy.linalg.norm's finiteness check), a constant input gives NaN, inputs promoted to float."""
    import scipy.stats
    import scipy.stats._stats_py as stats_py

    def pearsonr(x, y, *, alternative="two-sided"):
        x = np.asarray(x)
        y = np.asarray(y)
        if np.iscomplexobj(x) or np.iscomplexobj(y):
            raise ValueError("This function does not support complex data")
        dtype = np.result_type(x.dtype, y.dtype)
        if dtype.kind not in "biuf":
            raise TypeError("pearsonr needs numeric input, got %s" % dtype)
        if dtype.kind != "f":
            dtype = np.dtype(np.float64)
        x = x.astype(dtype)
        y = y.astype(dtype)
        if x.ndim != 1 or y.ndim != 1 or x.shape[0] != y.shape[0]:
            raise ValueError("`x` and `y` must have the same length along `axis`.")
        n = x.shape[0]
        if n < 2:
            raise ValueError("`x` and `y` must have length at least 2.")
        constant = bool(np.all(x == x[0]) or np.all(y == y[0]))
        if constant:
            warnings.warn("An input array is constant; the correlation coefficient is not defined.", RuntimeWarning)
            return PearsonRResult(np.float64(np.nan), np.float64(np.nan))
        with np.errstate(invalid="ignore", divide="ignore"):
            xm = x - x.mean()
            ym = y - y.mean()
            xmax = np.max(np.abs(xm))
            ymax = np.max(np.abs(ym))
            normxm = xmax * np.linalg.norm(xm / xmax)
            normym = ymax * np.linalg.norm(ym / ymax)
            r = np.dot(xm / normxm, ym / normym)
        r = np.clip(r, -1.0, 1.0)
        if n == 2:
            r = np.round(r)
        if np.isnan(r):
            return PearsonRResult(np.float64(np.nan), np.float64(np.nan))
        ab = n / 2 - 1
        p = 1.0 if n == 2 else float(2 * scipy.stats.beta(ab, ab, loc=-1, scale=2).sf(abs(r)))
        return PearsonRResult(r, p)

    scipy.stats.pearsonr = stats_py.pearsonr = pearsonr


# --- Levenshtein --------------------------------------------------------------------------------


def levenshtein_sequences():
    """Levenshtein 0.25's distance (the rapidfuzz-based package upstream requires) takes any two
    sequences; python-Levenshtein 0.12 takes only strings. rapidfuzz compares the items of a
    non-string sequence as 64-bit keys: a one-character string is its code point, the integer -1
    is all ones, anything else is its Python hash (so 2**61 - 1 + v equals v). Two strings still
    go to the C function."""
    import Levenshtein

    strings_only = Levenshtein.distance
    mask = (1 << 64) - 1

    def key(item):
        if isinstance(item, str) and len(item) == 1:
            return ord(item)
        if isinstance(item, int) and item == -1:
            return mask
        return hash(item) & mask

    def keys(seq):
        return [ord(c) for c in seq] if isinstance(seq, str) else [key(x) for x in seq]

    def distance(s1, s2, *, weights=None, processor=None, score_cutoff=None, score_hint=None):
        if weights not in (None, (1, 1, 1)) or processor is not None:
            raise NotImplementedError("the stand-in handles unit weights and no processor only")
        if isinstance(s1, str) and isinstance(s2, str):
            d = strings_only(s1, s2)
        else:
            a, b = keys(s1), keys(s2)
            previous = list(range(len(b) + 1))
            for i, x in enumerate(a, 1):
                current = [i]
                for j, y in enumerate(b, 1):
                    current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x != y)))
                previous = current
            d = previous[-1]
        return d if score_cutoff is None or d <= score_cutoff else score_cutoff + 1

    Levenshtein.distance = distance


# --- which apply --------------------------------------------------------------------------------


SHIMS = [
    ("pandas>=2.0 'None' is NA", "pandas", (2, 0), pandas_none_is_na),
    ("scikit-learn>=1.4 root_mean_squared_error", "sklearn", (1, 4), sklearn_root_mean_squared_error),
    ("scikit-learn>=1.6 root_mean_squared_log_error", "sklearn", (1, 6), sklearn_root_mean_squared_log_error),
    ("scikit-learn>=1.5 log_loss", "sklearn", (1, 5), sklearn_log_loss),
    ("scipy>=1.14 pearsonr", "scipy", (1, 14), scipy_pearsonr),
    ("Levenshtein>=0.25 distance of sequences", "Levenshtein", (0, 25), levenshtein_sequences),
]


def install():
    """Apply every shim whose library is installed but older than the release it stands for; their names."""
    import importlib

    applied = []
    for name, module_name, release, apply in SHIMS:
        try:
            module = importlib.import_module(module_name)
        except ImportError:
            continue
        if _version(module) < release:
            apply()
            applied.append(name)
    return applied


def library_versions():
    """Versions of the libraries upstream's graders and preparers use, as installed."""
    import importlib
    import platform

    out = {"python": platform.python_version()}
    for name in ("numpy", "pandas", "sklearn", "scipy", "shapely", "PIL", "Levenshtein", "py7zr", "bson", "yaml"):
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        out[name] = _release(module)
    return out
