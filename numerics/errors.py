"""The user-facing errors: one base, :class:`ClcheckError`, whose message names what is wrong.

The command line turns a ClcheckError into a one- or two-line message and exit code 2; anything else is
an internal error (exit 3). The engine's own kinds (ClaimError, PluginError, WitnessError, ...) derive
from it in :mod:`theorems.engine.errors`.
"""


class ClcheckError(Exception):
    """A user-facing error: bad input, a bad option, a file or a plugin that cannot be used. The message
    names the offending value or file and says what is needed."""


class AssumptionError(ClcheckError, ValueError):
    """An input violates an assumption of the paper or of the numerics.

    Messages repeat the offending value and say what is required, e.g.
    ``rho[2] = 0.0: the paper requires rho(c) > 0 for every class (Merad et al. Section 3)``.
    """


class OutputError(ClcheckError, OSError):
    """A report, witness or checkpoint cannot be written where it was asked to go (the message names the
    path and the system's reason)."""


class PrecisionUnavailable(Exception):
    """A quantity has no high-precision evaluation for this input (e.g. too large to enumerate).

    The engine then leaves a float candidate unconfirmed and reports it as such: without a
    high-precision value nothing is refuted, and nothing is hidden either (the count is shown).
    """


class InputFileError(ClcheckError, ValueError):
    """A file handed to the tool cannot be used: missing, not a regular file, too large, not the
    expected format. The message names the file."""
