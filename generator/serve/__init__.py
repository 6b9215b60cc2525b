"""The live preview (``pnp serve``): takes a game folder and the print options a page asks
for, plans the game as a build does (re-rendering only the designs whose inputs changed) and
hands on, over HTTP on the loopback address, every piece and every sheet as PNG with the
check's findings, pushed to the page whenever a file of the game changes."""
