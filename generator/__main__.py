"""``python -m generator`` works the same as the ``pnp`` console script."""

from generator.cli import main

if __name__ == "__main__":
    main()
