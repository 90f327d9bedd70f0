"""`python -m migrator`: the same as the `migrator` command."""

from migrator.quick import main

if __name__ == "__main__":
    main()
