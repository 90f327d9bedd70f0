"""`python -m migrator`: the same as the `migrator` command."""

from migrator.cli import main

if __name__ == "__main__":
    main()
