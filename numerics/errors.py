"""The one exception type for bad input: its message names the violated assumption."""


class AssumptionError(ValueError):
    """An input violates an assumption of the paper or of the numerics.

    Messages repeat the offending value and say what is required, e.g.
    ``rho[2] = 0.0: the paper requires rho(c) > 0 for every class (Merad et al. Section 3)``.
    """


class PrecisionUnavailable(Exception):
    """A quantity has no high-precision evaluation for this input (e.g. too large to enumerate).

    The engine then leaves a float candidate unconfirmed and reports it as such: without a
    high-precision value nothing is refuted, and nothing is hidden either (the count is shown).
    """


class InputFileError(ValueError):
    """A file handed to the tool cannot be used: missing, not a regular file, too large, not the
    expected format. The message names the file."""
