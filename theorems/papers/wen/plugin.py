"""What the wen plugin declares, collected as its modules are imported (:class:`theorems.Plugin`)."""

from theorems import Plugin
from theorems.papers import paper

PLUGIN = Plugin(paper("wen", "Wen & Li -- Toward Understanding the Feature Learning Process of Self-supervised Contrastive Learning",
                      ("003_06cb9bda3a5102d9.txt",), "theorems.papers.wen", __file__))
PAPER = PLUGIN.paper
