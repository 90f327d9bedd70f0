"""The equivalence bench: a fake OpenAI server, model-turn scenarios, and a harness that runs a
program before and after migration against it and compares what the two runs did.

Modules: ``scenario`` (model turns), ``fake_openai`` (the HTTP server), ``chat_wire`` and
``responses_wire`` (how a turn looks on each API), ``wire`` (what both share), ``validation``
(what the real services reject), ``harness`` (running programs, comparing runs), ``preloaded``
(the process that forks each program with the SDK already imported, warmed up by ``warm_up/``).
Program fixtures live in ``programs/`` (see ``programs/README.md``).
"""
