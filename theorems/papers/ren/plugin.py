"""What the ren plugin declares, collected as its modules are imported (:class:`theorems.Plugin`)."""

from theorems import Plugin
from theorems.papers import paper

PLUGIN = Plugin(paper("ren", "Ren & Li -- On the Importance of Contrastive Loss in Multimodal Learning",
                      ("002_1392d7a5a1d595de.txt",), "theorems.papers.ren", __file__))
PAPER = PLUGIN.paper
