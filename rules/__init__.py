"""The migration rules: one module per rule, its file name is its id (see migrator/rule.py)."""
