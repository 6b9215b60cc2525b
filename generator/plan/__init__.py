"""One build, stage by stage: takes games and print options, runs them through spec → art →
layout and hands on the pack to output; skips packs already built, spreads work over the cores."""
