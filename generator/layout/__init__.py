"""The layout stage: takes pieces (copies of designs, with their art) and hands on sheets of
paper with every piece placed, marks, backs for duplex or fold, and the ``Pack`` model."""
