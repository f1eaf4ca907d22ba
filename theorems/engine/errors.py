"""The engine's errors: one type per kind of user mistake, each a :class:`ClcheckError` (the command line's
exit 2), each message naming what is wrong.

* :class:`ClaimError` -- a claim, a quantity or a subject family is ill-formed (raised at
  registration, before any evaluation);
* :class:`PluginError` -- a plugin module named by an entry point or ``CLCHECK_PLUGINS``
  could not be imported (the message names the module and its import error);
* :class:`WitnessError` -- a witness file does not match its claim or family (replay refuses it);
* :class:`UndefinedValue` -- a quantity or a side is NaN or complex on a subject (the check of
  that claim is an ``error``, not a user mistake);
* :class:`~numerics.errors.AssumptionError` -- a subject violates an assumption of the paper
  or of the numerics (re-exported here).
"""

from __future__ import annotations

from numerics.errors import AssumptionError, ClcheckError, InputFileError, OutputError


class ClaimError(ClcheckError, ValueError):
    """A claim, quantity or subject family is ill-formed; the message says which and why."""


class PluginError(ClcheckError, ImportError):
    """A plugin module could not be imported; the message names the module and the cause."""


class WitnessError(ClcheckError, ValueError):
    """A witness does not match its claim or its subject family."""


class ExecutorUnavailable(ClcheckError, ValueError):
    """The executor asked for cannot run here (Ray not installed); the message says what to install."""


class OptionError(ClcheckError, ValueError):
    """A command-line option or its value cannot be used (the message names the option)."""


class UnknownClaim(ClcheckError, KeyError):
    """A claim id or paper prefix that no registered plugin declares."""

    def __str__(self) -> str:  # a KeyError's str is the repr of its argument: show the message itself
        return str(self.args[0]) if self.args else ""


class UndefinedValue(ArithmeticError):
    """A side of a statement has no real value on a subject (NaN, complex) in the backend that
    decides: the claim's check is an error, never evidence either way (the message names the
    part, the quantities, the subject and the backend)."""


__all__ = ["AssumptionError", "ClaimError", "ClcheckError", "ExecutorUnavailable", "InputFileError", "OptionError",
           "OutputError", "PluginError", "UndefinedValue", "UnknownClaim", "WitnessError"]


class CulpritError(ClaimError):
    """A claim's own code failed on a subject -- a quantity, a hypothesis or a part raised, returned what is not a
    number, changed its subject or gave two values for one subject: the message names it, the subject and the
    backend; ``at`` is where in the plugin's code it happened (file:line (function)), when known."""

    def __init__(self, message: str, at: str = "") -> None:
        super().__init__(message + (f" (at {at})" if at else ""))
        self.at = at
