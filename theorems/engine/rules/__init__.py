"""The verdict authority: every rule that turns measurements into a verdict, in one place.

Checks gather evidence -- :mod:`theorems.engine.check` (statements, experiments), the probe and the
search (values on subjects), :mod:`theorems.engine.proof_check` (proof steps), ``clcheck replay``
(witnesses) -- and ask the rules here; a paper's code measures and certifies, never decides. Each rule
is registered by name in :data:`RULES` with its statement (its docstring); ``clcheck rules`` prints
the table, ``tests/test_verdict_rules.py`` has a row for every name, and ``tests/rule_breakages.py``
breaks each rule by hand to see a row fail. The rooms:

* :mod:`~theorems.engine.rules.compare` -- the tolerance policy: screening, violation, confirmation
  across precisions, strict parts, brackets, the extended reals, measured relations of experiments;
* :mod:`~theorems.engine.rules.informative` -- when a subject could not have failed;
* :mod:`~theorems.engine.rules.statement` -- a statement claim's verdict, part statuses, proof chains;
* :mod:`~theorems.engine.rules.asymptotic` -- which witness families count under a prefix, what their ratios say;
* :mod:`~theorems.engine.rules.reach` -- whether a conclusion is reachable at all, read with the prefix;
* :mod:`~theorems.engine.rules.experiment` -- an experiment claim's verdict (seeds, maps, growth);
* :mod:`~theorems.engine.rules.proof` -- the status of a printed proof's step;
* :mod:`~theorems.engine.rules.gate` -- readings, the headline, what is expected, pass or fail;
* :mod:`~theorems.engine.rules.kinds` -- verdicts fixed by the claim's kind, and errors;
* :mod:`~theorems.engine.rules.mutate` -- what a mutant's audits say of it, and a part's sensitivity.
"""

from theorems.engine.rules import (asymptotic, compare, experiment, gate, informative, kinds, mutate,  # noqa: F401
                                   proof, reach, statement)
from theorems.engine.rules.table import RULES, ROOMS, Judgement, Rule

__all__ = ["RULES", "ROOMS", "Judgement", "Rule", "asymptotic", "compare", "experiment", "gate", "informative", "kinds",
           "mutate", "proof", "reach", "statement"]
