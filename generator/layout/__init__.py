"""The layout stage: takes pieces (copies of designs, with their art) and hands on sheets of
paper with every piece placed, marks, backs for duplex or fold, and the ``Pack`` model."""

from generator.svg import rlfast

rlfast.defer_paragraph_pattern()  # before any layout module imports reportlab's platypus
