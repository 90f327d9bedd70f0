"""A stand-in for the part of IPython the program uses (see `display`)."""
