#!/usr/bin/python3
"""The version shims of compat.py on known values: numbers from the libraries' documentation,
from the issues that changed them, or worked out by hand in the comments. Run with Debian's
interpreter: /usr/bin/python3 -m unittest scripts/golden/upstream/test_compat.py"""
import io
import math
import os
import sys
import unittest
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import compat  # noqa: E402

APPLIED = compat.install()


class PandasNa(unittest.TestCase):
    def test_none_is_missing(self):
        import pandas as pd

        df = pd.read_csv(io.StringIO("a,b\nNone,x\n1.5,None\n"))
        self.assertTrue(math.isnan(df["a"][0]))
        self.assertEqual(df["a"][1], 1.5)
        self.assertTrue(df["b"].isna().tolist() == [False, True])

    def test_other_spellings_stay_text(self):
        import pandas as pd

        df = pd.read_csv(io.StringIO("a\nnone\nNONE\n"))
        self.assertEqual(df["a"].tolist(), ["none", "NONE"])


class RootMeanSquaredError(unittest.TestCase):
    def test_documented_examples(self):
        from sklearn.metrics import root_mean_squared_error

        # sqrt((0.25 + 0.25 + 0 + 1) / 4) = sqrt(0.375)
        self.assertAlmostEqual(root_mean_squared_error([3, -0.5, 2, 7], [2.5, 0.0, 2, 8]), math.sqrt(0.375), places=15)
        y_true = [[0.5, 1], [-1, 1], [7, -6]]
        y_pred = [[0, 2], [-1, 2], [8, -5]]
        # column errors: (0.5, 0, 1) -> sqrt(1.25 / 3); (1, 1, 1) -> 1
        raw = root_mean_squared_error(y_true, y_pred, multioutput="raw_values")
        self.assertAlmostEqual(raw[0], math.sqrt(1.25 / 3), places=15)
        self.assertAlmostEqual(raw[1], 1.0, places=15)
        self.assertAlmostEqual(root_mean_squared_error(y_true, y_pred), (math.sqrt(1.25 / 3) + 1) / 2, places=15)

    def test_refuses_nan(self):
        from sklearn.metrics import root_mean_squared_error

        with self.assertRaises(ValueError):
            root_mean_squared_error([1.0, 2.0], [1.0, float("nan")])


class RootMeanSquaredLogError(unittest.TestCase):
    def test_documented_example(self):
        from sklearn.metrics import root_mean_squared_log_error

        by_hand = math.sqrt(
            sum((math.log1p(t) - math.log1p(p)) ** 2 for t, p in [(3, 2.5), (5, 5), (2.5, 4), (7, 8)]) / 4
        )
        self.assertAlmostEqual(root_mean_squared_log_error([3, 5, 2.5, 7], [2.5, 5, 4, 8]), by_hand, places=15)
        self.assertAlmostEqual(by_hand, 0.199, places=3)  # the value scikit-learn's documentation prints

    def test_domain_is_above_minus_one(self):
        from sklearn.metrics import root_mean_squared_log_error

        # log1p(-0.5) = -log(2): accepted since 1.6.
        self.assertAlmostEqual(root_mean_squared_log_error([-0.5], [0.0]), math.log(2), places=15)
        with self.assertRaises(ValueError):
            root_mean_squared_log_error([-1.0], [0.0])
        with self.assertRaises(ValueError):
            root_mean_squared_log_error([0.0], [-2.0])


class LogLoss(unittest.TestCase):
    def test_documented_example(self):
        from sklearn.metrics import log_loss

        value = log_loss(["spam", "ham", "ham", "spam"], [[0.1, 0.9], [0.9, 0.1], [0.8, 0.2], [0.35, 0.65]])
        by_hand = -(math.log(0.9) + math.log(0.9) + math.log(0.8) + math.log(0.65)) / 4
        self.assertAlmostEqual(value, by_hand, places=15)
        self.assertAlmostEqual(value, 0.21616, places=5)

    def test_no_renormalisation(self):
        from sklearn.metrics import log_loss

        # scikit-learn issue 24515: [[0.2, 0.3]] for class 1 is -log(0.3) = 1.2039728, where 1.2
        # renormalised the row to 0.6 and gave 0.5108256.
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            value = log_loss([1], [[0.2, 0.3]], labels=[0, 1])
        self.assertAlmostEqual(value, 1.2039728043259361, places=15)
        self.assertTrue(any("do not sum to one" in str(w.message) for w in caught))

    def test_clipped_to_float_epsilon(self):
        from sklearn.metrics import log_loss

        eps = 2.220446049250313e-16
        self.assertAlmostEqual(log_loss([0, 1], [[1.0, 0.0], [1.0, 0.0]]), -math.log(eps) / 2, places=12)

    def test_refusals(self):
        from sklearn.metrics import log_loss

        with self.assertRaises(ValueError):
            log_loss([0, 1, 2], [[0.5, 0.5], [0.5, 0.5], [0.5, 0.5]])  # 3 classes, 2 columns
        with self.assertRaises(ValueError):
            log_loss([1, 1], [[0.5, 0.5], [0.5, 0.5]])  # one class without labels
        with self.assertRaises(ValueError):
            log_loss([0, 1], [[0.5, float("nan")], [0.5, 0.5]])


class Pearsonr(unittest.TestCase):
    def test_known_correlations(self):
        from scipy.stats import pearsonr

        self.assertEqual(pearsonr([1, 2, 3, 4], [2, 4, 6, 8])[0], 1.0)
        self.assertAlmostEqual(pearsonr([1, 2, 3], [3, 2, 1])[0], -1.0, places=15)
        # x = (1, 2, 3), y = (1, 3, 2): sum xm*ym = 1, |xm| = |ym| = sqrt(2) -> 0.5
        self.assertAlmostEqual(pearsonr([1, 2, 3], [1, 3, 2])[0], 0.5, places=15)

    def test_nan_and_constant_give_nan(self):
        from scipy.stats import pearsonr

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            self.assertTrue(math.isnan(pearsonr([1.0, float("nan"), 3.0], [1.0, 2.0, 3.0])[0]))
            self.assertTrue(math.isnan(pearsonr([1.0, 1.0, 1.0], [1.0, 2.0, 3.0])[0]))

    def test_refusals(self):
        from scipy.stats import pearsonr

        with self.assertRaises(ValueError):
            pearsonr([1.0], [1.0])
        with self.assertRaises(ValueError):
            pearsonr([1.0, 2.0], [1.0, 2.0, 3.0])
        with self.assertRaises(TypeError):
            pearsonr(["1", "2"], [1.0, 2.0])


def _has(module):
    import importlib.util

    return importlib.util.find_spec(module) is not None


@unittest.skipUnless(_has("Levenshtein"), "python3-levenshtein is not installed")
class LevenshteinSequences(unittest.TestCase):
    def test_strings_and_lists(self):
        import Levenshtein

        self.assertEqual(Levenshtein.distance("kitten", "sitting"), 3)
        self.assertEqual(Levenshtein.distance([1, 2, 3], [1, 3]), 1)
        self.assertEqual(Levenshtein.distance([4, 5, 6], [6, 5, 4]), 2)
        self.assertEqual(Levenshtein.distance(["a", "b"], "ab"), 0)  # one-character strings are code points

    def test_items_compared_as_rapidfuzz_keys(self):
        import Levenshtein

        # Python hashes -1 and -2 alike; rapidfuzz keeps -1 apart.
        self.assertEqual(Levenshtein.distance([-1], [-2]), 1)
        # Integers are compared by hash, which is taken modulo 2**61 - 1.
        self.assertEqual(Levenshtein.distance([2**61 - 1 + 5], [5]), 0)


if __name__ == "__main__":
    print("shims applied:", ", ".join(APPLIED) or "none")
    unittest.main()
