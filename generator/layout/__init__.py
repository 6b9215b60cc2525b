"""The layout stage: takes pieces (copies of designs, with their art) and hands on sheets of
paper with every piece placed, marks, backs for duplex or fold, and the ``Pack`` model."""

from generator.svg import rlfast

# before any module imports reportlab's platypus: layout's own, and output's inventory, which
# every importer (plan, output, check) imports after layout
rlfast.defer_paragraph_pattern()
