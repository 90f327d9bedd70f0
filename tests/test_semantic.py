"""The semantic model. Reaching definitions: each case marks reads with ``# NAME <- LINES``, the lines of the
bindings of NAME that may hold when that line's read of NAME runs (none: unreachable)."""

import re
import textwrap

import libcst as cst
import pytest

from migrator.libcst_internals import Positions, resolve_scopes
from migrator.semantic.reaching import ReachingDefinitions
from migrator.shapes import is_name

MARK = re.compile(r"#\s*(\w+)\s*<-\s*([\d ,]*)$")

CASES = {
    "rebinding": """
        r = 1
        print(r)  # r <- 1
        r = 2
        print(r)  # r <- 3
    """,
    "if_else_joins": """
        if c:
            r = 1
        else:
            r = 2
        print(r)  # r <- 2, 4
    """,
    "if_without_else_keeps_the_earlier_binding": """
        r = 0
        if c:
            r = 1
        print(r)  # r <- 1, 3
    """,
    "elif_chain": """
        if a:
            r = 1
        elif b:
            r = 2
        print(r)  # r <- 2, 4
    """,
    "del_unbinds": """
        r = 1
        del r
        r = 2
        print(r)  # r <- 3
    """,
    "loop_carries_the_last_iteration": """
        r = None
        for x in xs:
            print(r)  # r <- 1, 4
            r = x
        print(r)  # r <- 1, 4
    """,
    "continue_and_break": """
        for i in xs:
            if i:
                r = 1
                continue
            print(r)  # r <- 3
            r = 2
            break
        print(r)  # r <- 3, 6
    """,
    "for_else_runs_when_the_loop_ends": """
        r = 0
        for i in xs:
            r = 1
            break
        else:
            r = 2
        print(r)  # r <- 3, 6
    """,
    "while_true_leaves_by_break_only": """
        r = 0
        while True:
            r = 1
            if c:
                break
            r = 2
        print(r)  # r <- 3
    """,
    "while_loop_test_sees_every_iteration": """
        r = 0
        while r:  # r <- 1, 3
            r = 1
        print(r)  # r <- 1, 3
    """,
    "except_starts_from_any_point_of_the_body": """
        r = 0
        try:
            r = 1
            r = 2
        except E:
            print(r)  # r <- 1, 3, 4
        print(r)  # r <- 1, 3, 4
    """,
    "try_else": """
        try:
            r = 1
        except E:
            r = 2
        else:
            print(r)  # r <- 2
        print(r)  # r <- 2, 4
    """,
    "finally_binding_reaches_past_a_break": """
        while True:
            try:
                r = 1
                break
            finally:
                r = 2
        print(r)  # r <- 6
    """,
    "return_ends_the_path": """
        def f(a):
            if a:
                r = 1
                return r  # r <- 3
            r = 2
            return r  # r <- 5
            print(r)  # r <-
    """,
    "raise_ends_the_path": """
        r = 1
        if c:
            r = 2
            raise E
        print(r)  # r <- 1
    """,
    "parameters_bind_at_entry": """
        def f(a):
            print(a)  # a <- 1
            a = 2
            print(a)  # a <- 3
    """,
    "augmented_assignment_reads_then_binds": """
        n = 0
        n += 1  # n <- 1
        print(n)  # n <- 2
    """,
    "walrus_is_seen_in_its_own_statement": """
        if (m := f()) and m.x:  # m <- 1
            print(m)  # m <- 1
    """,
    "with_may_swallow_an_exception": """
        r = 0
        with suppress(E):
            r = 1
            r = 2
        print(r)  # r <- 1, 3, 4
    """,
    "with_target": """
        with open(p) as f:
            print(f)  # f <- 1
    """,
    "match_cases": """
        r = 0
        match v:
            case 1:
                r = 1
            case [x] if x:
                r = x
        print(r)  # r <- 1, 4, 6
    """,
    "except_name_is_unbound_after_the_clause": """
        e = 1
        try:
            pass
        except E as e:
            pass
        print(e)  # e <- 1
    """,
    "comprehension_runs_at_once": """
        r = 1
        xs = [r for _ in ys]  # r <- 1
        r = 2
    """,
    "nested_function_sees_every_binding": """
        r = 1
        def f():
            return r  # r <- 1, 4
        r = 2
    """,
    "generator_expression_runs_later": """
        r = 1
        g = (r for _ in ys)  # r <- 1, 3
        r = 2
    """,
    "global_from_a_function_is_not_followed": """
        r = 1
        def f():
            global r
            r = 2
        f()
        print(r)  # r <- 1, 4
    """,
    "class_body_runs_at_once": """
        r = 1
        class C:
            x = r  # r <- 1
        r = 2
    """,
    "annotation_without_value_binds_nothing": """
        r: int
        r = 1
        print(r)  # r <- 2
    """,
}


@pytest.mark.parametrize("source", CASES.values(), ids=CASES.keys())
def test_reaching_definitions(source):
    source = textwrap.dedent(source).lstrip("\n")
    module = cst.parse_module(source)
    reaching = ReachingDefinitions(module, resolve_scopes(module))
    positions = Positions(module)
    reads_by_line = {}
    for node in _names(module):
        if reaching.reaching(node) or reaching.answered(node):
            reads_by_line.setdefault((positions[node].start.line, node.value), node)
    checked = 0
    for number, line in enumerate(source.splitlines(), start=1):
        mark = MARK.search(line)
        if mark is None:
            continue
        name, lines = mark.group(1), mark.group(2)
        read = reads_by_line[(number, name)]
        found = sorted(positions[binding.node].start.line for binding in reaching.reaching(read))
        assert found == [int(n) for n in re.findall(r"\d+", lines)], f"line {number}: {line.strip()}"
        checked += 1
    assert checked


def test_reads_reached_by_a_binding():
    source = "r = 1\nprint(r)\nr = 2\nprint(r)\nr += 1\n"
    module = cst.parse_module(source)
    scopes = resolve_scopes(module)
    reaching = ReachingDefinitions(module, scopes)
    positions = Positions(module)
    first, second, _ = sorted(scopes[module].assignments["r"], key=lambda b: positions[b.node].start.line)
    assert [positions[n].start.line for n in reaching.reads_reached_by(first)] == [2]
    assert sorted(positions[n].start.line for n in reaching.reads_reached_by(second)) == [4, 5]


HOLDING_CASES = {
    # what holds at the read of `m` on the last line: r's bindings, by line (None: cannot tell)
    "rebound_after_the_read_inside_a_branch": ("""
        def f(c):
            r = a()
            m = r.x
            if c:
                print(m)
                r = b()
            print(m)
    """, [2, 6]),
    "rebound_only_after_every_read": ("""
        def f(c):
            r = a()
            m = r.x
            if c:
                print(m)
                r = b()
    """, [2]),
    "walrus_in_the_same_statement": ("""
        r = a()
        m = r.x
        print(m, (r := b()))
    """, [1, 3]),
    "bound_by_a_nested_function": ("""
        def f():
            r = a()
            m = r.x
            def g():
                nonlocal r
                r = b()
            g()
            print(m)
    """, None),
    "read_later_in_a_lambda": ("""
        r = a()
        m = r.x
        k = lambda: m
    """, None),
}


@pytest.mark.parametrize("source, expected", HOLDING_CASES.values(), ids=HOLDING_CASES.keys())
def test_what_else_holds_where_a_name_is_read(source, expected):
    source = textwrap.dedent(source).lstrip("\n")
    module = cst.parse_module(source)
    reaching = ReachingDefinitions(module, resolve_scopes(module))
    positions = Positions(module)
    last = max(positions[node].start.line for node in _names(module) if node.value == "m")
    read = next(node for node in _names(module) if node.value == "m" and positions[node].start.line == last)
    found = reaching.holding_at(read, "r")
    assert (None if found is None else sorted(positions[binding.node].start.line for binding in found)) == expected


def _names(module):
    stack = [module]
    while stack:
        node = stack.pop()
        if isinstance(node, cst.Name):
            yield node
        stack.extend(node.children)


def _analysis(source):
    from migrator.analysis import ModuleAnalysis

    return ModuleAnalysis(cst.parse_module(textwrap.dedent(source).lstrip("\n")))


def _read_on_line(analysis, name, line):
    return next(
        node for node in analysis.nodes.nodes_of(cst.Name)
        if node.value == name and analysis.nodes.positions[node].start.line == line and analysis.bindings.reaching(node)
    )


def test_a_definition_is_a_binding_whose_reads_see_it_alone():
    analysis = _analysis("""
        params = {"model": "a"}
        send(**params)
        params = {"model": "b"}
        if c:
            params = {"model": "c"}
        send(**params)
    """)
    first = analysis.bindings.definition(_read_on_line(analysis, "params", 2))
    assert first is not None and analysis.nodes.positions[first.statement].start.line == 1
    assert analysis.bindings.definition(_read_on_line(analysis, "params", 6)) is None  # two may reach it


def test_value_sources_follow_augmented_assignments():
    analysis = _analysis("""
        history = [{"role": "system"}]
        history += [{"role": "user"}]
        send(history)
    """)
    sources = analysis.bindings.value_sources(_read_on_line(analysis, "history", 3))
    assert sorted(analysis.nodes.positions[b.node].start.line for b in sources) == [1, 2]


def _built(source, line):
    from migrator.semantic.dicts import built_dict

    analysis = _analysis(source)
    return analysis, built_dict(_read_on_line(analysis, "params", line), analysis.flow)


def test_a_dict_built_key_by_key_knows_each_write_and_whether_it_runs_before_the_read():
    analysis, built = _built("""
        params = dict(model="a")
        params["top_p"] = 1
        if c:
            params["temperature"] = 0
        params.update({"user": "u"})
        for retry in range(2):
            params.update(seed=retry)
        try:
            params["store"] = False
        except KeyError:
            pass
        with lock: params["top_p"] = 0.5
        send(**params)
    """, 13)
    writes = [(w.key, analysis.nodes.positions[w.entry].start.line, w.runs_first) for w in built.writes]
    assert writes == [
        ("model", 1, True), ("top_p", 2, True), ("temperature", 4, False), ("user", 5, True),
        ("seed", 7, False), ("store", 9, False), ("top_p", 12, False),
    ]


def _unpacked(analysis, line):
    from migrator.semantic.dicts import unpacked_dict

    argument = next(
        node for node in analysis.nodes.nodes_of(cst.Arg)
        if node.star == "**" and analysis.nodes.positions[node].start.line == line
    )
    return unpacked_dict(argument.value, analysis.flow)


def test_a_dict_unpacked_where_it_is_made_knows_each_write_and_the_functions_returning_it():
    analysis = _analysis("""
        def sampling(t):
            if t is None:
                return {"top_p": 1}
            return dict(temperature=t)
        def request(q):
            params = {"model": "a"}
            params["messages"] = q
            return params
        send(**({"user": "u"} if c else {}))
        send(**sampling(t))
        send(**request(q))
    """)
    chosen = _unpacked(analysis, 9)
    assert [(w.key, w.runs_first) for w in chosen.writes] == [("user", False)] and chosen.functions == ()
    returned = _unpacked(analysis, 10)
    assert [(w.key, w.runs_first) for w in returned.writes] == [("top_p", False), ("temperature", False)]
    assert [f.name.value for f in returned.functions] == ["sampling"]
    built = _unpacked(analysis, 11)
    assert [(w.key, w.runs_first) for w in built.writes] == [("model", True), ("messages", True)]


def test_the_calls_that_unpack_what_a_call_returns():
    from migrator.semantic.dicts import unpacking_calls

    analysis = _analysis("""
        send(**make())
        params = make()
        params["a"] = 1
        send(**params)
        keep(make())
    """)
    made = sorted((call for call in analysis.nodes.nodes_of(cst.Call) if is_name(call.func, "make")), key=analysis.nodes.order)
    found = [unpacking_calls(call, analysis.flow) for call in made]
    lines = [None if calls is None else [analysis.nodes.positions[c].start.line for c in calls] for calls in found]
    assert lines == [[1], [4], None]


@pytest.mark.parametrize(
    "source, reason",
    [
        pytest.param('params = {"model": "a"}\nparams.pop("model")\nsend(**params)\n', "also used by `params.pop", id="pop"),
        pytest.param('params = {"model": "a"}\nparams[key] = 1\nsend(**params)\n', "cannot read as a string", id="key-from-a-variable"),
        pytest.param('params = {**base}\nsend(**params)\n', "does not spell out its keys", id="unpacked-base"),
        pytest.param('params = dict(base)\nsend(**params)\n', "does not spell out its keys", id="dict-of-a-name"),
        pytest.param('def f(params):\n    send(**params)\n', "is a parameter", id="parameter"),
        pytest.param('params = {}\nif c:\n    params = {"a": 1}\nsend(**params)\n', "on lines 1, 3", id="two-bindings"),
        pytest.param('params = {}\nkeep(params)\nsend(**params)\n', "also used by `keep(params)` on line 2", id="passed-on"),
    ],
)
def test_a_dict_whose_keys_cannot_all_be_known_says_why(source, reason):
    from migrator.semantic.dicts import UnseenDict, built_dict

    analysis = _analysis(source)
    read = next(n for n in analysis.nodes.nodes_of(cst.Name) if getattr(analysis.nodes.parents[n], "star", "") == "**")
    found = built_dict(read, analysis.flow)
    assert isinstance(found, UnseenDict) and reason in found.reason, found


@pytest.mark.parametrize(
    "source, expected",
    [
        pytest.param("def f(s):\n    r = send(flag=s)\n    if s:\n        here(r)\n", True, id="body"),
        pytest.param("def f(s):\n    r = send(flag=s)\n    if s:\n        pass\n    else:\n        here(r)\n", False, id="else"),
        pytest.param("def f(q):\n    r = send(flag=not q)\n    if q:\n        here(r)\n", False, id="negated-flag"),
        pytest.param("def f(q):\n    r = send(flag=not q)\n    if not q:\n        here(r)\n", True, id="both-negated"),
        pytest.param("def f(s):\n    r = send(flag=s)\n    if s:\n        pass\n    elif c:\n        here(r)\n", False, id="elif"),
        pytest.param("def f(s):\n    r = send(flag=s)\n    here(r)\n", None, id="no-test"),
        pytest.param("def f(s):\n    r = send(flag=s)\n    if c:\n        s = not s\n    if s:\n        here(r)\n", None, id="rebound-between"),
        pytest.param("def f(s):\n    if c:\n        r = send(flag=s)\n    if s:\n        here(r)\n", None, id="call-may-not-run"),
        pytest.param("def f(s):\n    for x in xs:\n        if s:\n            here(r)\n        r = send(flag=s)\n        s = x\n", None, id="test-before-call-in-a-loop"),
        pytest.param("def f(s):\n    r = send(flag=s)\n    def g():\n        nonlocal s\n        s = 1\n    g()\n    if s:\n        here(r)\n", None, id="nonlocal"),
        pytest.param("def f(s):\n    r = send(flag=s)\n    if not s:\n        return r\n    here(r)\n", True, id="after-an-early-return"),
        pytest.param("def f(s):\n    r = send(flag=s)\n    if s:\n        raise E\n    here(r)\n", False, id="after-an-early-raise"),
        pytest.param("def f(s):\n    for x in xs:\n        r = send(flag=s)\n        if not s:\n            continue\n        here(r)\n", True, id="after-a-continue"),
        pytest.param("def f(s):\n    r = send(flag=s)\n    if not s:\n        log(r)\n    here(r)\n", None, id="after-an-if-that-goes-on"),
        pytest.param("def f(s):\n    r = send(flag=s)\n    if not s:\n        return r\n    else:\n        pass\n    here(r)\n", None, id="after-an-if-with-else"),
        pytest.param("def f(s):\n    if not s:\n        return\n    r = send(flag=s)\n    here(r)\n", None, id="early-return-before-the-call"),
    ],
)
def test_a_branch_knows_what_a_condition_read_before_it_was(source, expected):
    from migrator.semantic.branches import truth_where

    analysis = _analysis(source)
    calls = {c.func.value: c for c in analysis.nodes.nodes_of(cst.Call) if isinstance(c.func, cst.Name)}
    condition = calls["send"].args[0].value
    assert truth_where(analysis.nodes, analysis.bindings, condition, calls["here"]) is expected


def _flow(source: str, kind: str = "make"):
    """A value flow over ``source``, following the values calls of ``kind()`` make."""
    from migrator.semantic.bindings import Bindings
    from migrator.semantic.flow import ValueFlow
    from migrator.semantic.imports import Imports
    from migrator.semantic.nodes import Nodes

    module = cst.parse_module(textwrap.dedent(source))
    nodes = Nodes(module, module.bytes)
    bindings = Bindings(module, nodes)
    same_kind = lambda expr: expr if isinstance(expr, cst.Call) and is_name(expr.func, kind) else None  # noqa: E731
    flow = ValueFlow(module, nodes, bindings, Imports(nodes, bindings), same_kind=same_kind, parts_passed_whole=(("part",),))
    made = next(node for node in nodes.nodes_of(cst.Call) if same_kind(node) is not None)
    return module, flow.trace_result(made)


def test_a_part_passed_to_a_function_called_only_there_is_followed_as_the_whole_value():
    module, trace = _flow(
        """
        def show(piece):
            print(piece.text)

        value = make()
        alias = value.part
        show(alias)
        """
    )
    assert [module.code_for_node(use.outer) for use in trace.passed_parts] == ["alias"]
    (read,) = trace.uses
    assert read.path == ("part", "text") and read.alias_depth == 1 and module.code_for_node(read.base) == "piece"
    assert not trace.escapes


@pytest.mark.parametrize(
    "source",
    [
        "def show(piece):\n    print(piece.text)\n\nvalue = make()\nshow(value.part)\nshow(other.part)\n",  # called twice
        "def show(piece: Part):\n    print(piece.text)\n\nvalue = make()\nshow(value.part)\n",  # typed as the part
        "def show(piece):\n    print(piece.text)\n\nvalue = make()\nshow(value.other)\n",  # not a part passed whole
    ],
    ids=["called-twice", "annotated", "other-part"],
)
def test_a_part_is_not_followed_where_the_function_may_be_given_something_else(source):
    module, trace = _flow(source)
    assert not trace.passed_parts
    assert [module.code_for_node(use.outer) for use in trace.uses] == [next(code for code in ("value.part", "value.other") if code in source)]


@pytest.mark.parametrize(
    "source, expected",
    [
        ("print(first)\nsecond()\n", True),
        ("second()\nprint(first)\n", False),
        ("for _ in range(2):\n    print(first)\n    second()\n", False),
        ("if x:\n    print(first)\nsecond()\n", True),
        ("def f():\n    print(first)\nsecond()\n", False),
        ("print([first for _ in y])\nsecond()\n", False),
        ("while first:\n    second()\n", False),
        ("try:\n    print(first)\n    second()\nexcept ValueError:\n    pass\n", True),
    ],
    ids=["before", "after", "in-a-loop", "in-a-branch-before", "in-a-function", "in-a-comprehension", "loop-test", "in-a-try"],
)
def test_a_node_that_never_runs_after_another(source, expected):
    analysis = _analysis(source)
    first = next(node for node in analysis.nodes.nodes_of(cst.Name) if node.value == "first")
    second = next(node for node in analysis.nodes.nodes_of(cst.Call) if is_name(node.func, "second"))
    assert analysis.nodes.never_after(first, second) is expected
