"""What the huang plugin declares, collected as its modules are imported (:class:`theorems.Plugin`)."""

from theorems import Plugin
from theorems.papers import paper

PLUGIN = Plugin(paper("huang", "Huang, Yi, Zhao, Jiang -- The Generalization of Contrastive Self-Supervised Learning (ICLR 2023)",
                      ("004_86d461343230f9e1.txt",), "theorems.papers.huang", __file__))
PAPER = PLUGIN.paper
