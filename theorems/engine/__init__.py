"""The engine: claim types, quantities, evaluation, search, confirmation, shrinking, witnesses,
verdicts (with informative coverage and vacuity), the registry, errors and experiment
statistics. It knows no paper; papers are plugins that register claims through
:mod:`theorems.engine.registry`."""
