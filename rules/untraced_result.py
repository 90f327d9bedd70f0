"""
## What it does
Reports a Chat Completions call whose result goes somewhere the tool cannot follow, and so
cannot be migrated: passed to a function, stored in an attribute or a container, returned from
a lambda, a decorated function or a generator, read through a path no rule maps
(`choices[1]`, `model_dump()`, `system_fingerprint`, ...), or held in a name that is also
assigned something else. A result returned from a function (or passed to one) that other
modules of the project import is left alone too, and the finding says where they import it:
they read what it returns as a completion. When no module of the project imports it, the call
is migrated and the finding notes that callers outside the project then receive a `Response`.

## Why
A call is migrated together with every read of its result, or not at all. Migrating the call
while some code still reads `choices` breaks that code at run time.

## Example
```python
resp = client.chat.completions.create(model="gpt-4o", messages=msgs)
save(resp)
```

```python
# llm.py, whose `complete` another module imports (`from llm import complete`)
def complete(messages):
    return client.chat.completions.create(model="gpt-4o", messages=messages)
```

## Use instead
Migrate by hand what `save` does with the response, then run the tool again, or migrate the
call and its readers together.

## Fix safety
Manual: the tool only reports.

What the tool follows: the name the result is assigned to (in every scope that reads it), a
`return` of it from a function whose calls in the same module are followed in turn (methods
through `self.` and through instances made in the module; decorated only by the caches of
`functools`, `tenacity.retry` told nothing about results, `backoff.on_exception`, or a tracing
decorator told what to record by constants: langsmith's `traceable`, langfuse's `observe`,
`weave.op`, `logfire.instrument`, opik's `track`, `mlflow.trace`, langtrace's
`with_langtrace_root_span`; a function given to one may read the result), `await`, and the raw response of
`with_raw_response` (its `.parse()` and its HTTP metadata). The model's message
(`resp.choices[0].message`, or a name holding it) given to a function of the module whose
every call gives it the message of a Chat call, and whose parameter is not annotated, is
followed there as the response: the function is given the response, and its reads of the
message become reads of the response (`message.tool_calls` in `handle_tool_calls(message)`
reads the response's function calls); the calls giving it messages migrate together. Where other modules import a
function is looked up in the whole project the file belongs to (the folder up from it with a
`pyproject.toml` or `.git`), not only in the paths given. A function whose importers all read
what it returns by reads the rules map, in files among the paths given, takes them along: the
call and those reads migrate together. Otherwise the call is reported here, with the place in
the other module that holds it back, and that module reports its reads with the call.
"""

from migrator.model import FixSafety
from migrator.rule import Example, Rule

RULE = Rule(
    title="Result that cannot be followed",
    safety=FixSafety.MANUAL,
    needs=("completions",),
    examples=[
        Example(
            before=(
                "import openai\n"
                'r = openai.chat.completions.create(model="gpt-4o", messages=m)\n'
                "save(r)\n"
            ),
            finding="cannot follow",
        ),
    ],
)
