"""Decides, call site by call site, whether a call migrates, and with which rewrites.

A plan is all or nothing: the call, its arguments and every read of its result are rewritten
together, or none of them is and the reasons become findings. Plans are data; ``apply_plans``
in ``migrator.rewrite`` turns them into code.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Callable, Dict, List, Optional, Sequence, Set, Tuple, Union

import libcst as cst
from libcst.metadata import CodeRange

from migrator.analysis import AnnotationUse, CallSite, ImportedResultSite, MethodReference, ModuleAnalysis
from migrator.semantic.dicts import BuiltDict, KeyWrite, UnseenDict
from migrator.semantic.flow import CALL, ResultUse
from migrator.model import Confidence, Finding, ImportedResult, Options, Position, ResultReaders
from migrator.prefilter import ModuleNeeds, holds
from migrator.registry import all_rules
from migrator.rule import Block, GuardHook, NewArgument, ParameterHook, Report, Retarget, Rewrite, Rule, UseRewrite
from migrator.shapes import chain_root, code_of, one_line, separator, string_like
from migrator.suppression import Suppressions

UNTRACED_RESULT = "untraced_result"
UNRESOLVED_CLIENT = "unresolved_client"
CALLS_IN_TEXT = "calls_in_text"
METHOD_REFERENCES = "method_references"
# What a raw response (``with_raw_response``) offers besides ``.parse()`` that does not
# depend on which API answered.
RAW_RESPONSE_ATTRIBUTES = frozenset(
    {"headers", "status_code", "url", "method", "http_version", "elapsed", "retries_taken", "request_id"}
)


@dataclass
class Blocker:
    rule: str
    reason: str
    position: CodeRange
    unsafe: Optional[Rewrite] = None


@dataclass
class ArgumentPlan:
    """What happens to one argument of the call: kept as it is, or handed to a rule's hook."""

    rule: Optional[str] = None
    hook: Optional[ParameterHook] = None
    unsafe: bool = False  # the hook's rewrite is the unsafe one of a Block


@dataclass
class SitePlan:
    site: CallSite
    rule: str  # the rule that migrates this kind of call
    target: Optional[Retarget] = None  # what to call instead
    arguments: List[ArgumentPlan] = field(default_factory=list)
    use_rewrites: List[Tuple[str, UseRewrite]] = field(default_factory=list)
    # Rewrites outside the call (a definition it reads), which other calls may share.
    shared_rewrites: List[Tuple[str, UseRewrite]] = field(default_factory=list)
    # For a call a guard keeps as it is (its client talks to another server, say): the
    # rewrites outside it that its arguments would need, which no other call may make alone;
    # worked out (``held``) only in a module where some call migrates.
    held_rewrites: List[Tuple[str, UseRewrite]] = field(default_factory=list)
    held: Optional[Callable[[], List[Tuple[str, UseRewrite]]]] = None
    blockers: List[Blocker] = field(default_factory=list)
    exported_functions: List[str] = field(default_factory=list)
    exported_parameters: List[str] = field(default_factory=list)
    co_bound: List[cst.Call] = field(default_factory=list)  # calls whose results share its names
    # The functions returning its result whose importers' reads are migrated with it.
    read_elsewhere: List[ResultReaders] = field(default_factory=list)

    def migrates(self, options: Options) -> bool:
        if isinstance(self.site, ImportedResultSite) and not self.site.imported.migrated:
            return False  # its reads go with the call in the other module, which stays
        return all(b.unsafe is not None and options.unsafe_fixes for b in self.blockers)


@dataclass
class ModulePlan:
    sites: List[SitePlan]
    findings: List[Finding]
    fixes: List[UseRewrite] = field(default_factory=list)  # what the module hooks' reports fix
    returned_results: List[list] = field(default_factory=list)  # see ``SourceResult``
    unmapped_reads: List[list] = field(default_factory=list)


def plan_module(analysis: ModuleAnalysis, options: Options) -> ModulePlan:
    rules = {rule_id: rule for rule_id, rule in all_rules().items() if options.is_enabled(rule_id)}
    call_rules = {kind: rule for rule in rules.values() for kind in rule.calls}
    plans: List[SitePlan] = []
    findings: List[Finding] = []
    suppressions = Suppressions.of(analysis.nodes.nodes_of(cst.Comment), lambda comment: analysis.nodes.positions[comment].start.line)
    for site in analysis.call_sites():
        rule = call_rules.get(site.kind)
        if rule is None:
            continue
        if site.other_sdk:
            continue  # Groq's `chat.completions.create` is no Chat Completions call, even with --assume-openai
        if not site.traced and not (options.assume_openai and analysis.imports_openai):
            # Reported in any module: a client made in another module is often used where openai is not imported.
            if options.is_enabled(UNRESOLVED_CLIENT):
                findings.append(_unresolved_finding(site, analysis))
            continue
        plans.append(_plan_site(site, rule, rules, analysis))
    plans.extend(_plan_imported_results(call_rules, rules, analysis))
    if options.is_enabled(METHOD_REFERENCES):
        # Another SDK's method handed on is no Chat Completions method, as its calls are none.
        findings.extend(_reference_finding(each, analysis) for each in analysis.method_references() if not each.other_sdk)
    if options.is_enabled(CALLS_IN_TEXT):
        findings.extend(_written_call_findings(analysis, suppressions))
    _block_suppressed_edits(plans, suppressions, analysis, options)
    _block_openai_imports_at_load(plans, analysis, options)
    _block_partly_migrated_shares(plans, analysis, options)
    for plan in plans:
        findings.extend(_site_findings(plan, analysis, options))
    module_findings, fixes = _module_findings(rules, plans, findings, analysis, options, suppressions)
    findings.extend(module_findings)
    # A guard keeps its calls as they are whatever is selected; its findings follow the selection.
    silenced = {rule_id for rule_id, _ in _guards() if not options.is_enabled(rule_id)}
    findings = [f for f in findings if f.rule not in silenced and not suppressions.hides(f.rule, f.line)]
    return ModulePlan(
        sites=[p for p in plans if p.migrates(options)],
        findings=findings,
        fixes=fixes,
        returned_results=[entry for plan in plans for entry in _returned_results(plan, analysis, options)],
        unmapped_reads=[
            *(entry for plan in plans for entry in _unmapped_reads(plan, analysis, options)),
            *_rebound_imported_results(analysis),
        ],
    )


def _plan_imported_results(call_rules: Dict[str, Rule], rules: Dict[str, Rule], analysis: ModuleAnalysis) -> List[SitePlan]:
    """The calls of functions other modules define to return a legacy call's result: their
    results' reads here are planned like that call's, to migrate with it or not at all."""
    if not analysis.project.facts.results:
        return []
    plans = []
    for node, imported in analysis.imported_result_names():
        call = analysis.nodes.parents.get(node)
        rule = call_rules.get(imported.kind)
        if rule is None:
            continue
        if not (isinstance(call, cst.Call) and call.func is node):
            plans.append(_used_otherwise(node, imported, rule, analysis))
            continue
        site = ImportedResultSite(
            call=call, kind=imported.kind, receiver=call.func, resource=(), wrapper=None, traced=True, other_sdk=False,
            statement=analysis.nodes.enclosing_statement(call), analysis=analysis, imported=imported,
        )
        plan = SitePlan(site=site, rule=rule.id)
        _plan_uses(plan, rules, analysis)
        for keyword in sorted(site.consulted):
            reason = f"how its result is read depends on `{keyword}=`, which the call at `{imported.call}` may pass: arguments are not read across modules"
            plan.blockers.append(Blocker(UNTRACED_RESULT, reason, site.position))
        plans.append(plan)
    return plans


def _used_otherwise(node: cst.CSTNode, imported: ImportedResult, rule: Rule, analysis: ModuleAnalysis) -> SitePlan:
    """A plan that never migrates, for a use of the function other than a call, which may pass
    it where its results are read unseen."""
    site = ImportedResultSite(
        call=node, kind=imported.kind, receiver=node, resource=(), wrapper=None, traced=True, other_sdk=False,
        statement=analysis.nodes.enclosing_statement(node), analysis=analysis, imported=imported,
    )
    code = one_line(analysis.module.code_for_node(node))
    if imported.method:
        reason = f"`{code}` is used in a way that may call its `{imported.method}` where what it returns is read unseen"
    else:
        reason = f"`{code}` is used other than by calling it, so what it returns may be read where the tool cannot see"
    return SitePlan(site=site, rule=rule.id, blockers=[Blocker(UNTRACED_RESULT, reason, analysis.nodes.positions[node])])


def _returned_results(plan: SitePlan, analysis: ModuleAnalysis, options: Options) -> List[list]:
    """What ``SourceResult.returned_results`` holds of ``plan``'s call."""
    names = [name for name in dict.fromkeys(plan.exported_functions) if name.count(".") <= 1]
    if plan.target is None or not names:
        return []
    call = plan.site.call
    keywords = None if any(arg.star for arg in call.args) else [arg.keyword.value for arg in call.args if arg.keyword is not None]
    line = plan.site.position.start.line
    code = analysis.module.code_for_node(call.func)
    return [[name, plan.site.kind, keywords, line, code, plan.migrates(options)] for name in names]


def _unmapped_reads(plan: SitePlan, analysis: ModuleAnalysis, options: Options) -> List[list]:
    """What ``SourceResult.unmapped_reads`` holds of ``plan``, a call of an imported function."""
    blockers = [b for b in plan.blockers if b.unsafe is None or not options.unsafe_fixes]
    if not isinstance(plan.site, ImportedResultSite) or not blockers:
        return []
    return [[plan.site.imported.name, blockers[0].position.start.line, blockers[0].reason]]


def _rebound_imported_results(analysis: ModuleAnalysis) -> List[list]:
    """What ``SourceResult.unmapped_reads`` holds of the names that may hold a function
    returning another module's call's result or a value bound here: the tool reads neither."""
    return [
        [imported.name, analysis.nodes.positions[node].start.line, f"`{node.value}` may also hold a value bound in this module, and the tool does not follow what it gives"]
        for node, imported in analysis.imported_results_rebound()
    ]


def _guards() -> List[Tuple[str, GuardHook]]:
    """Every rule's guards, selected or not, by rule id: the first that blocks a call gives the
    reason, whatever order the rules were loaded in."""
    rules = all_rules()
    return [(rule_id, hook) for rule_id in sorted(rules) for hook in rules[rule_id].guard_hooks]


def _block_openai_imports_at_load(plans: List[SitePlan], analysis: ModuleAnalysis, options: Options) -> None:
    """A module that imports openai only where it uses it loads without it (a provider it may
    not need, ``try: import openai`` with a fallback): a rewrite needing an import from openai,
    which goes with the module's imports, would make loading the module need it."""
    if not analysis.loads_without_openai:
        return
    for plan in plans:
        if not plan.migrates(options):
            continue
        for rule_id, rewrite in plan.use_rewrites + plan.shared_rewrites:
            if any(needed.module.split(".")[0] == "openai" for needed in rewrite.add_imports):
                reason = "the module imports openai only where it uses it, and the rewrite needs an import from openai where the module's imports are, which would make loading the module need it"
                plan.blockers.append(Blocker(rule_id, reason, plan.site.position))
                break


def _block_suppressed_edits(
    plans: List[SitePlan], suppressions: Suppressions, analysis: ModuleAnalysis, options: Options
) -> None:
    """`apply` never rewrites a line whose ``# migrator: ignore`` comment suppresses the rule
    that would rewrite it: the call stays as it is, with its uses (the finding it makes there
    is suppressed too)."""
    for plan in plans:
        if not plan.migrates(options):
            continue
        edits = [(plan.rule, plan.site.call)]
        edits += [(argument.rule, arg) for arg, argument in zip(plan.site.call.args, plan.arguments) if argument.rule]
        edits += [(rule_id, rewrite.target) for rule_id, rewrite in plan.use_rewrites + plan.shared_rewrites]
        for rule_id, node in edits:
            position = analysis.nodes.positions[node]
            if suppressions.hides(rule_id, position.start.line):
                reason = f"a `# migrator: ignore` comment on line {position.start.line} keeps it as it is"
                plan.blockers.append(Blocker(rule_id, reason, position))
                break


def _module_findings(
    rules: Dict[str, Rule],
    plans: List[SitePlan],
    call_findings: List[Finding],
    analysis: ModuleAnalysis,
    options: Options,
    suppressions: Suppressions,
) -> Tuple[List[Finding], List[UseRewrite]]:
    """What the rules' module hooks report, but for what the migrated calls rewrite and what
    a call's own finding already points at; and what their reports fix (each hook's fixes
    together, unless a comment keeps one of its reports), whose findings are then fixable."""
    rewritten = set()
    for plan in plans:
        if plan.migrates(options):
            rewritten.add(plan.site.call)
            rewritten.update(rewrite.target for _, rewrite in plan.use_rewrites + plan.shared_rewrites)
    taken = {(f.line, f.column) for f in call_findings}
    findings: List[Finding] = []
    fixes: List[UseRewrite] = []
    for rule in rules.values():
        if not rule.module_hooks or not offers(rule, analysis):
            continue
        for hook in rule.module_hooks:
            reports = [r for r in hook(analysis) if not (rewritten and _all_inside(r.resolving_nodes(), rewritten, analysis))]
            fixed = [r for r in reports if r.fix]
            applied = bool(fixed) and not any(suppressions.hides(rule.id, _report_finding(rule.id, r, analysis).line) for r in fixed)
            if applied:
                fixes.extend(rewrite for report in fixed for rewrite in report.fix)
            for report in reports:
                finding = _report_finding(rule.id, report, analysis, fixable=applied and bool(report.fix))
                if (finding.line, finding.column) not in taken:
                    findings.append(finding)
    return findings, fixes


def offers(rule: Rule, analysis: ModuleAnalysis) -> bool:
    """Is the module one the rule's module hooks may find something in, by what the rule
    declares? ``migrator.screen`` passes LibCST only the modules some rule is offered."""
    return (
        holds(analysis.source, ModuleNeeds.declared(rule.needs, rule.needs_imports, rule.needs_in_strings))
        and (not rule.needs_imports or analysis.imports.imports_reach(rule.needs_imports))
        and all(analysis.nodes.strings_hold(text) for text in rule.needs_in_strings)
        and (not rule.needs_calls_from or analysis.calls_names_from(rule.needs_calls_from))
    )


def _all_inside(nodes: Sequence[cst.CSTNode], ancestors: set, analysis: ModuleAnalysis) -> bool:
    """Are there ``nodes``, each inside one of ``ancestors``?"""
    return bool(nodes) and all(_inside(node, ancestors, analysis) for node in nodes)


def _inside(node: cst.CSTNode, ancestors: set, analysis: ModuleAnalysis) -> bool:
    current: Optional[cst.CSTNode] = node
    while current is not None:
        if current in ancestors:
            return True
        current = analysis.nodes.parents.get(current)
    return False


def _block_partly_migrated_shares(plans: List[SitePlan], analysis: ModuleAnalysis, options: Options) -> None:
    """A node several calls rewrite (a definition they share, a read of one call's result that
    another call's history holds) is rewritten for all of them or for none."""
    planned = {plan.site.call: plan for plan in plans}
    if any(plan.migrates(options) for plan in plans):
        for plan in plans:
            if plan.held is not None:
                plan.held_rewrites = plan.held()
    sharing: Dict[cst.CSTNode, List[SitePlan]] = {}
    for plan in plans:
        for _, rewrite in plan.shared_rewrites + plan.use_rewrites + plan.held_rewrites:
            sharing.setdefault(rewrite.target, []).append(plan)
    _share_with_other_calls(plans, sharing, analysis)
    _share_returned_dicts(plans, sharing, analysis, options)
    changed = True
    while changed:
        changed = False
        for plan in plans:
            # A name may hold the result of either call where it is read: they migrate together.
            left = [call for call in plan.co_bound if call not in planned or not planned[call].migrates(options)]
            if left and plan.migrates(options):
                line = analysis.nodes.positions[left[0]].start.line
                reason = f"a name holding its result may also hold the result of the call on line {line}, which is not migrated"
                plan.blockers.append(Blocker(UNTRACED_RESULT, reason, plan.site.position))
                changed = True
        for target, owners in sharing.items():
            if all(p.migrates(options) for p in owners):
                continue
            for plan in owners:
                if plan.migrates(options):
                    code = analysis.module.code_for_node(target)
                    reason = f"it shares `{one_line(code)}` with a call that is not migrated"
                    plan.blockers.append(Blocker(plan.rule, reason, analysis.nodes.positions[target]))
                    changed = True


def _share_with_other_calls(plans: List[SitePlan], sharing: Dict[cst.CSTNode, List[SitePlan]], analysis: ModuleAnalysis) -> None:
    """A read rewritten inside another call's arguments belongs to that call's plan too, even
    where that plan gave no rewrite for it (it was blocked first)."""
    by_call = {plan.site.call: plan for plan in plans}
    for plan in plans:
        for _, rewrite in plan.use_rewrites + plan.shared_rewrites:
            for call in rewrite.shared_with:
                owners = sharing[rewrite.target]
                if call not in by_call:
                    line = analysis.nodes.positions[call].start.line
                    reason = f"its answer is sent by the call on line {line}, which is not migrated"
                    plan.blockers.append(Blocker(plan.rule, reason, analysis.nodes.positions[rewrite.target]))
                elif by_call[call] not in owners:
                    owners.append(by_call[call])


def _share_returned_dicts(
    plans: List[SitePlan], sharing: Dict[cst.CSTNode, List[SitePlan]], analysis: ModuleAnalysis, options: Options
) -> None:
    """A function that returns a request dict gives it to each call of it: its keys are
    rewritten for all of them, the same way, or for none."""
    by_call = {plan.site.call: plan for plan in plans}
    for plan in plans:
        if isinstance(plan.site, ImportedResultSite):
            continue  # it passes no request dict of its own
        for call in analysis.dict_sharers(plan.site.call):
            if call not in by_call:
                line = analysis.nodes.positions[call].start.line
                reason = f"the dict it unpacks is also unpacked by the call on line {line}, which is not migrated"
                plan.blockers.append(Blocker(plan.rule, reason, plan.site.position))
                continue
            for _, rewrite in plan.shared_rewrites:
                owners = sharing.setdefault(rewrite.target, [])
                if by_call[call] not in owners:
                    owners.append(by_call[call])
    for target, owners in sharing.items():
        made = [
            _nodes_made(rewrite.build(target))
            for owner in owners
            for _, rewrite in owner.shared_rewrites
            if rewrite.target is target and owner.migrates(options)
        ]
        if any(not _same_nodes(made[0], other) for other in made[1:]):  # ``create`` and ``parse`` map ``response_format`` differently
            for owner in owners:
                code = one_line(analysis.module.code_for_node(target))
                reason = f"`{code}` is unpacked by calls that would each rewrite it differently"
                owner.blockers.append(Blocker(owner.rule, reason, analysis.nodes.positions[target]))


def _nodes_made(built: Union[cst.CSTNode, cst.RemovalSentinel, cst.FlattenSentinel]) -> Tuple[cst.CSTNode, ...]:
    if isinstance(built, cst.FlattenSentinel):
        return tuple(built.nodes)
    return () if isinstance(built, cst.RemovalSentinel) else (built,)


def _same_nodes(one: Tuple[cst.CSTNode, ...], other: Tuple[cst.CSTNode, ...]) -> bool:
    return len(one) == len(other) and all(a.deep_equals(b) for a, b in zip(one, other))


def _plan_site(site: CallSite, rule: Rule, rules: Dict[str, Rule], analysis: ModuleAnalysis) -> SitePlan:
    plan = SitePlan(site=site, rule=rule.id)
    for guard_rule, guard in _guards():
        block = guard(site)
        if block is None:
            continue
        owner = block.rule or guard_rule
        # A guard's unsafe fix changes code the call depends on (the client it is made on):
        # only a selected rule's, and only shared by every call that depends on it.
        unsafe = block.unsafe if site.analysis.options.is_enabled(owner) else None
        plan.blockers.append(Blocker(owner, block.reason, site.position, unsafe))
        if unsafe is None:
            plan.held = lambda: _rewrites_outside(site, rule, rules, analysis)
            return plan
        plan.shared_rewrites.extend((owner, edit) for edit in unsafe.elsewhere)
    target = rule.calls[site.kind](site)
    if isinstance(target, Block):
        plan.blockers.append(Blocker(rule.id, target.reason, site.position))
        return plan
    plan.target = target
    _plan_arguments(plan, rules, analysis)
    _plan_uses(plan, rules, analysis)
    _block_uncertain_keys(plan, analysis)
    return plan


def _rewrites_outside(site: CallSite, rule: Rule, rules: Dict[str, Rule], analysis: ModuleAnalysis) -> List[Tuple[str, UseRewrite]]:
    """The rewrites outside ``site`` (a tool list it shares, say) that its arguments would need
    were it migrated: another call changing them alone would change what this one sends."""
    scratch = SitePlan(site=site, rule=rule.id)
    target = rule.calls[site.kind](site)
    if isinstance(target, Block):
        return []
    scratch.target = target
    _plan_arguments(scratch, rules, analysis)
    return scratch.shared_rewrites


def _plan_arguments(plan: SitePlan, rules: Dict[str, Rule], analysis: ModuleAnalysis) -> None:
    owners = {name: rule for rule in rules.values() for name in rule.parameters}
    passed: List[str] = []  # the keyword arguments the migrated call is given
    for arg in plan.site.call.args:
        position = analysis.nodes.positions[arg]
        plan.arguments.append(ArgumentPlan())
        if arg.keyword is None:
            if arg.star != "**":
                plan.blockers.append(Blocker(plan.rule, "it passes positional arguments, which the tool cannot map", position))
            continue
        name = arg.keyword.value
        owner = owners.get(name)
        if owner is None:
            plan.blockers.append(Blocker(plan.rule, _unmapped(name, f"`{name}=`"), position))
            continue
        hook = owner.parameters[name]
        outcome = hook(name, arg.value, plan.site)
        plan.arguments[-1] = ArgumentPlan(rule=owner.id, hook=hook, unsafe=isinstance(outcome, Block))
        if isinstance(outcome, Block):
            plan.blockers.append(Blocker(outcome.rule or owner.id, outcome.reason, position, outcome.unsafe))
        rewrite = outcome.unsafe if isinstance(outcome, Block) else outcome
        if rewrite is not None:
            plan.shared_rewrites.extend((owner.id, edit) for edit in rewrite.elsewhere)
            passed.extend(new.keyword for new in rewrite.arguments)
    request = plan.site.request_dict()
    if request is not None:
        _plan_request_dict(plan, request, owners, passed, analysis)


def _unmapped(name: str, spelled: str) -> str:
    """Why the parameter ``name`` (passed as ``spelled`` says) keeps its call as it is."""
    owner = next((rule for rule in all_rules().values() if name in rule.parameters), None)
    if owner is not None:
        return f"{spelled} is migrated by rule `{owner.id}`, which is not selected"
    return f"the tool has no mapping for {spelled}"


# What to write instead, for a ``**`` dict the tool cannot see every key of.
REQUEST_DICT_ADVICE = (
    "pass the parameters by name, or build the dict beside the call from string keys "
    "(a literal or `dict(...)`, then `d[\"key\"] = value` or `d.update(...)`)"
)


def _plan_request_dict(
    plan: SitePlan, request: Union[BuiltDict, UnseenDict], owners: Dict[str, Rule], passed: List[str], analysis: ModuleAnalysis
) -> None:
    """``create(**params)``: each key of ``params`` is planned like a keyword argument, with the
    hook of its parameter, and rewritten where it is written."""
    unpacked = next(arg for arg in plan.site.call.args if arg.star == "**")
    if isinstance(request, UnseenDict):
        unpacked = request.node or unpacked
        shown = f"`**{one_line(code_of(unpacked.value), limit=40)}`"
        reason = (
            f"it passes {shown}, which the tool maps only when it sees every key written and nothing else "
            f"uses the dict: {request.reason}; {REQUEST_DICT_ADVICE}"
        )
        plan.blockers.append(Blocker(plan.rule, reason, analysis.nodes.positions[unpacked]))
        return
    shown = f"`**{request.name}`"
    made: Dict[str, Set[Tuple[str, ...]]] = {}  # each key -> the parameters each of its writes becomes
    for write in request.writes:
        position = analysis.nodes.positions[write.entry]
        owner = owners.get(write.key)
        if owner is None:
            plan.blockers.append(Blocker(plan.rule, _unmapped(write.key, f"`{write.key}` in {shown}"), position))
            continue
        outcome = owner.parameters[write.key](write.key, write.value, replace(plan.site, focus=write))
        if isinstance(outcome, Block):
            plan.blockers.append(Blocker(outcome.rule or owner.id, outcome.reason, position, outcome.unsafe))
        rewrite = outcome.unsafe if isinstance(outcome, Block) else outcome
        if rewrite is not None:
            plan.shared_rewrites.extend((owner.id, edit) for edit in rewrite.elsewhere)
            made.setdefault(write.key, set()).add(tuple(new.keyword for new in rewrite.arguments))
    position = analysis.nodes.positions[unpacked]
    for key, shapes in made.items():
        if len(shapes) > 1:  # ``messages`` with and without a system message: ``instructions`` would stay
            reason = f"`{key}` is written in {shown} several times, as different Responses parameters: what one write sets, another would leave in place"
            plan.blockers.append(Blocker(plan.rule, reason, position))
    keys: Dict[str, List[str]] = {}  # each Responses parameter -> the keys that become it
    for key, shapes in made.items():
        for keyword in sorted({keyword for shape in shapes for keyword in shape}):
            keys.setdefault(keyword, []).append(key)
    for keyword in dict.fromkeys([*keys, *passed]):
        written = keys.get(keyword, [])
        if len(written) + passed.count(keyword) < 2:
            continue
        # ``max_tokens`` for one model and ``max_completion_tokens`` for another, in the arms of an ``if``
        if not passed.count(keyword) and all(
            request.never_together(first, second, analysis.nodes) for index, first in enumerate(written) for second in written[index + 1 :]
        ):
            continue
        spelled = [f"{' and '.join(f'`{key}`' for key in written)} in {shown}"] if written else []
        spelled += ["an argument"] * passed.count(keyword)
        reason = f"{' and '.join(spelled)} would both become the Responses parameter `{keyword}`"
        plan.blockers.append(Blocker(plan.rule, reason, position))
    for container in dict.fromkeys(write.container for write in request.writes):
        writes = [write for write in request.writes if write.container is container]
        plan.shared_rewrites.append((plan.rule, _rewritten_writes(container, writes, owners, plan.site, analysis)))


def _block_uncertain_keys(plan: SitePlan, analysis: ModuleAnalysis) -> None:
    """A rule asked whether the request dict holds a key it holds on some paths only, or with
    several values: the answer would be a guess."""
    if analysis.options.store_false:
        plan.site.has_argument("store")  # the rewrite asks it too, to add ``store=False`` where none is passed
    request = plan.site.request_dict()
    for key in sorted(plan.site.uncertain_keys):
        write = request.writes_of(key)[0]
        reason = (
            f"`{key}` is in `**{request.name}` on some paths only, or with several values, and how the call "
            f"is migrated depends on it; set it once, before the call, or pass it by name"
        )
        plan.blockers.append(Blocker(plan.rule, reason, analysis.nodes.positions[write.entry]))


def _rewritten_writes(
    container: cst.CSTNode, writes: List[KeyWrite], owners: Dict[str, Rule], site: CallSite, analysis: ModuleAnalysis
) -> UseRewrite:
    """The rewrite of what holds ``writes``: a dict literal's entries, a call's keyword arguments,
    or ``params["key"] = value`` (on a line of its own, each parameter it becomes on a line)."""

    def mapped(write: KeyWrite, value: cst.BaseExpression) -> Tuple[NewArgument, ...]:
        outcome = owners[write.key].parameters[write.key](write.key, value, replace(site, focus=write))
        if isinstance(outcome, Block):
            assert outcome.unsafe is not None, "a blocked plan is never applied"
            return outcome.unsafe.arguments
        return outcome.arguments

    if isinstance(container, cst.Dict):
        def build_dict(updated: cst.Dict) -> cst.Dict:
            made = [(element, mapped(write, element.value)) for write, element in zip(writes, updated.elements)]
            entries = _entries(made, separator(updated), lambda old, new: old.with_changes(key=string_like(old.key, new.keyword), value=new.value))
            return updated.with_changes(elements=entries)

        return UseRewrite(target=container, build=build_dict)
    if isinstance(container, cst.Call):
        # ``dict(k=v)`` and ``update(k=v)`` write a key with each argument; a call of a function
        # with a ``**`` parameter, with those of its arguments that name no other parameter.
        written = {id(write.entry): write for write in writes}

        def build_call(updated: cst.Call) -> cst.Call:
            made = [
                (arg, mapped(written[id(original)], arg.value) if id(original) in written else None)
                for original, arg in zip(container.args, updated.args)
            ]
            arguments = _entries(made, separator(updated), lambda old, new: old.with_changes(keyword=cst.Name(new.keyword), value=new.value))
            return updated.with_changes(args=arguments)

        return UseRewrite(target=container, build=build_call)
    (write,) = writes
    line = analysis.nodes.parents[container]
    alone = isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1

    def build_assignment(updated: cst.CSTNode) -> Union[cst.CSTNode, cst.RemovalSentinel, cst.FlattenSentinel]:
        assignment = updated.body[0] if alone else updated
        target = assignment.targets[0].target
        index = target.slice[0].slice
        assignments = [
            assignment.with_changes(
                targets=[assignment.targets[0].with_changes(target=target.with_changes(
                    slice=[target.slice[0].with_changes(slice=index.with_changes(value=string_like(index.value, new.keyword)))]
                ))],
                value=new.value,
            )
            for new in mapped(write, assignment.value)
        ]
        if not assignments:
            return cst.RemoveFromParent()
        if not alone:
            return cst.FlattenSentinel(assignments) if len(assignments) > 1 else assignments[0]
        lines = [updated.with_changes(body=[each], leading_lines=()) for each in assignments]
        lines[0] = lines[0].with_changes(leading_lines=updated.leading_lines)
        return cst.FlattenSentinel(lines) if len(lines) > 1 else lines[0]

    return UseRewrite(target=line if alone else container, build=build_assignment)


def _entries(made, comma: cst.Comma, make) -> list:
    """The entries (dict elements or arguments) each original one becomes, in its place (None:
    it stays as it is): those made from one take ``comma`` between them and its own after the
    last; the last one made takes the comma of the last original one."""
    entries = []
    for old, arguments in made:
        if arguments is None:
            entries.append(old)
            continue
        for index, new in enumerate(arguments):
            entries.append(make(old, new).with_changes(comma=comma if index < len(arguments) - 1 else old.comma))
    if entries and made and made[-1][1] is not None and not made[-1][1]:  # the last one was dropped: keep its closing style
        entries[-1] = entries[-1].with_changes(comma=made[-1][0].comma)
    return entries


def _plan_uses(plan: SitePlan, rules: Dict[str, Rule], analysis: ModuleAnalysis) -> None:
    site = plan.site
    trace = analysis.flow.trace_result(site.call)
    uses = list(trace.uses)
    if site.wrapper == "with_raw_response":
        uses = []
        for use in trace.uses:
            if use.path[:2] == ("parse", CALL):
                parsed = analysis.flow.trace_result(use.chain[1])
                uses.extend(parsed.uses)
                trace.escapes.extend(parsed.escapes)
                trace.exported_functions.extend(parsed.exported_functions)
                trace.annotations.extend(parsed.annotations)
                trace.aliases.extend(parsed.aliases)
            elif not (use.path and use.path[0] in RAW_RESPONSE_ATTRIBUTES):
                trace.escapes.append(_escape_of(use))
    elif site.wrapper == "with_streaming_response":
        plan.blockers.append(Blocker(UNTRACED_RESULT, "results read through `with_streaming_response` are not followed yet", site.position))
        return
    plan.exported_functions = trace.exported_functions
    plan.exported_parameters = trace.exported_parameters
    plan.co_bound = trace.co_bound
    for part in trace.passed_parts:  # the function is given the result, and reads the part of it
        plan.use_rewrites.append((plan.rule, part.replace(len(part.path), "{base}")))
    pending = [(use, site) for use in uses]
    through_aliases: List[Tuple[ResultUse, Optional[Tuple[str, Union[UseRewrite, Block]]]]] = []  # reads of a name the trace inlines
    while pending:
        use, use_site = pending.pop(0)
        outcome = _offer_use(use, use_site, rules)
        if isinstance(use, ResultUse) and use.alias_depth:
            through_aliases.append((use, outcome))
        if outcome is None:
            plan.blockers.append(Blocker(UNTRACED_RESULT, _escape_of(use).reason, use.position))
        elif isinstance(outcome[1], Block):
            block = outcome[1]
            plan.blockers.append(Blocker(block.rule or outcome[0], block.reason, use.position, block.unsafe))
            if block.unsafe is not None:  # applied only where the call migrates, so with unsafe fixes
                plan.use_rewrites.extend((outcome[0], each) for each in block.unsafe.elsewhere)
        elif _shows_its_code(outcome[1].target, analysis):
            reason = f"`{use.code}` is in an f-string's `{{...=}}`, which prints the expression's code too: a rewrite would change what it prints"
            plan.blockers.append(Blocker(outcome[0], reason, use.position))
        else:
            rule_id, rewrite = outcome
            plan.use_rewrites.extend((rule_id, each) for each in (rewrite, *rewrite.more))
            if rewrite.follow is not None:
                # A value read like another call's result: its uses are offered with that kind.
                followed = analysis.flow.trace_result(rewrite.follow.node)
                trace.escapes.extend(followed.escapes)
                trace.exported_functions.extend(followed.exported_functions)
                trace.exported_parameters.extend(followed.exported_parameters)
                trace.annotations.extend(followed.annotations)
                trace.aliases.extend(followed.aliases)
                pending.extend((each, replace(site, kind=rewrite.follow.kind)) for each in followed.uses)
    for escape in trace.escapes:
        plan.blockers.append(Blocker(UNTRACED_RESULT, escape.reason, escape.position))
    kept = _aliases_kept(trace.aliases, through_aliases, analysis)
    for line, alias in kept.items():
        plan.use_rewrites = [(r, each) for r, each in plan.use_rewrites if each.target not in alias.reads]
        for target, (rule_id, code) in alias.reads.items():
            if code is not None:
                plan.use_rewrites.append((rule_id, UseRewrite(target=target, build=lambda node, code=code: cst.parse_expression(code))))
        if alias.value is not None:
            rule_id, value = alias.value
            plan.use_rewrites.append((rule_id, UseRewrite(target=line.body[0].value, build=lambda node, value=value: value)))
    for line in trace.aliases:  # its reads become reads of the result itself
        if line not in kept:
            plan.use_rewrites.append((plan.rule, UseRewrite(target=line, build=lambda node: cst.RemoveFromParent())))
    _block_results_read_elsewhere(plan, analysis)
    _plan_annotations(plan, rules, analysis, trace.annotations)


@dataclass
class _KeptAlias:
    """An alias line that stays: the rule giving its new value and that value (None: it stays
    as it is), and the code each of its reads becomes (None: the read stays as it is)."""

    value: Optional[Tuple[str, cst.BaseExpression]]
    reads: Dict[cst.CSTNode, Tuple[str, Optional[str]]]  # rewrite target -> (rule, new code)


def _aliases_kept(
    lines: List[cst.SimpleStatementLine],
    through: List[Tuple[ResultUse, Optional[Tuple[str, Union[UseRewrite, Block]]]]],
    analysis: ModuleAnalysis,
) -> Dict[cst.SimpleStatementLine, _KeptAlias]:
    """The alias lines that stay. A name the whole of whose every read is replaced by the same
    code (``text = resp.choices[0].message.content``, read as ``text``) keeps its line, given
    that code (``text = resp.output_text``). A name whose value stays valid (``usage =
    resp.usage``) keeps it as it is when each read into it becomes code that reads into that
    value (``usage.prompt_tokens`` -> ``resp.usage.input_tokens``, written
    ``usage.input_tokens``). Otherwise the line goes and its reads are rewritten through it
    (``message = resp.choices[0].message``: a Response has no message)."""
    kept = {}
    for line in lines:
        name = line.body[0].targets[0].target
        assignment = analysis.bindings.assignment_of(name, name.value)
        reads = analysis.bindings.reads_of(assignment) if assignment is not None else []
        mine = [(use, outcome) for use, outcome in through if use.chain[0] in reads]
        if not reads or len(mine) != len(reads) or chain_root(line.body[0].value) is None:
            continue
        original = analysis.module.code_for_node(line.body[0].value)
        whole: Dict[cst.CSTNode, Tuple[str, str]] = {}
        into: Dict[cst.CSTNode, Tuple[str, str]] = {}
        for use, offered in mine:
            rule_id, outcome = offered if offered is not None else ("", None)
            if _left_as_it_is(outcome) and len(use.path) == use.alias_depth:
                # Read whole and left as it is by an unsafe fix (``print(usage)``): it reads
                # the name, which must then stay, holding what it held.
                whole[use.chain[use.alias_depth - 1]] = (rule_id, original)
                continue
            if not _plain_rewrite(outcome) or not any(outcome.target is node for node in use.chain[use.alias_depth - 1 :]):
                break
            code = analysis.module.code_for_node(outcome.build(outcome.target))
            if len(use.path) == use.alias_depth:
                whole[outcome.target] = (rule_id, code)
            elif code.startswith(original) and code[len(original) : len(original) + 1] in (".", "["):
                into[outcome.target] = (rule_id, name.value + code[len(original) :])
            else:
                break
        else:
            values = {code for _, code in whole.values()}
            rules = {rule_id for rule_id, _ in whole.values()}
            if into and values <= {original}:
                reads_kept = {target: (rule_id, None) for target, (rule_id, _) in whole.items()}
                kept[line] = _KeptAlias(None, {**reads_kept, **into})
            elif not into and len(values) == 1 and len(rules) == 1:
                value = (rules.pop(), cst.parse_expression(values.pop()))
                kept[line] = _KeptAlias(value, {target: (rule_id, None) for target, (rule_id, _) in whole.items()})
    return kept


def _left_as_it_is(outcome: Union[UseRewrite, Block, None]) -> bool:
    """A read an unsafe fix leaves as it is, noting only what it now shows."""
    return isinstance(outcome, Block) and outcome.unsafe is not None and not outcome.unsafe.arguments and not outcome.unsafe.elsewhere


def _plain_rewrite(outcome: Union[UseRewrite, Block, None]) -> bool:
    """A rewrite of the read alone: nothing elsewhere, no import or helper to add."""
    return isinstance(outcome, UseRewrite) and not (
        outcome.more or outcome.follow or outcome.shared_with or outcome.add_imports or outcome.add_definitions
        or outcome.remove_unused_imports
    )


def _block_results_read_elsewhere(plan: SitePlan, analysis: ModuleAnalysis) -> None:
    """A result that leaves the module through a function other modules of the project import
    is handled there by code this module's migration does not change: the call stays as it is
    (migrated, the function would hand those modules a Response where they read a completion)."""
    leaving = [(name, "returned from", "code there reads what it returns") for name in plan.exported_functions]
    leaving += [(name, "passed to", "calls there may pass it other values") for name in plan.exported_parameters]
    for name, how, why in dict.fromkeys(leaving):
        shown = analysis.project.where_imported(name.split(".")[0])
        if shown is None:
            continue
        # A function or a method of the module whose results the importers read mappably
        # takes them along: they are migrated in the same run.
        together = how == "returned from" and plan.target is not None
        readers = analysis.project.readers_of(name) if together else None
        if readers is not None and readers.blocked is None:
            plan.read_elsewhere.append(readers)
            continue
        if readers is not None:
            reason = f"it is returned from `{name}`, which other modules import ({shown}): {readers.blocked}"
        else:
            reason = f"it is {how} `{name}`, which other modules import ({shown}): {why}, and the tool does not migrate them with this call"
        plan.blockers.append(Blocker(UNTRACED_RESULT, reason, plan.site.position))


def _plan_annotations(
    plan: SitePlan, rules: Dict[str, Rule], analysis: ModuleAnalysis, result_annotations: List[cst.Annotation]
) -> None:
    """Offer the annotations that type the call's result, and those of the names it passes as
    arguments. Unclaimed ones stay as they are; a rewritten one may be shared with other calls."""
    uses = [AnnotationUse(a, None, analysis.nodes.positions[a]) for a in result_annotations]
    passed = [] if isinstance(plan.site, ImportedResultSite) else plan.site.call.args  # not the call's own arguments
    for arg in passed:
        if arg.keyword is not None and isinstance(arg.value, (cst.Name, cst.Attribute)):
            for annotation in analysis.bindings.annotations_of(arg.value):
                uses.append(AnnotationUse(annotation, arg.keyword.value, analysis.nodes.positions[annotation]))
    for use in uses:
        outcome = _offer_use(use, plan.site, rules, hooks_of=lambda rule: rule.annotation_hooks)
        if outcome is None:
            continue
        rule_id, decision = outcome
        if isinstance(decision, Block):
            plan.blockers.append(Blocker(rule_id, decision.reason, use.position))
        else:
            plan.shared_rewrites.append((rule_id, decision))


def _offer_use(
    use: Union[ResultUse, AnnotationUse],
    site: CallSite,
    rules: Dict[str, Rule],
    hooks_of: Callable[[Rule], list] = lambda rule: rule.result_use_hooks,
) -> Optional[Tuple[str, Union[UseRewrite, Block]]]:
    """The rule that rewrites the use wins; failing that, of those that block it, the first by id.

    A rule that reads every field of a response blocks the reads it cannot map, and so do the
    rules for one field each (``finish_reason``, say): the reason reported must not depend on
    the order the rules were loaded in.
    """
    blocked = None
    for rule in rules.values():
        for hook in hooks_of(rule):
            outcome = hook(use, site)
            if isinstance(outcome, UseRewrite):
                return rule.id, outcome
            if outcome is not None and (blocked is None or rule.id < blocked[0]):
                blocked = rule.id, outcome
    return blocked


def _shows_its_code(node: cst.CSTNode, analysis: ModuleAnalysis) -> bool:
    """Is ``node`` inside ``f"{expression=}"``, whose text the f-string prints?"""
    parent = analysis.nodes.parents.get(node)
    while parent is not None and not isinstance(parent, cst.BaseStatement):
        if isinstance(parent, cst.FormattedStringExpression) and isinstance(parent.equal, cst.AssignEqual):
            return True
        parent = analysis.nodes.parents.get(parent)
    return False


def _escape_of(use: ResultUse):
    from migrator.semantic.flow import Escape

    if use.path:
        return Escape(f"its result is read as `{use.code}`, which no rule maps to the Responses API", use.position)
    return Escape(f"its result is used as `{use.code}` in a way the tool cannot follow", use.position)


def _site_findings(plan: SitePlan, analysis: ModuleAnalysis, options: Options) -> List[Finding]:
    site = plan.site
    call = _start_of(site)
    if isinstance(site, ImportedResultSite):
        return _imported_result_findings(plan, site.imported, call, analysis.module.code_for_node(site.receiver), options)
    call_code = analysis.module.code_for_node(site.call.func)
    if plan.migrates(options):
        at_call = dict(line=call.line, column=call.column, call=call)
        together = {readers.name for readers in plan.read_elsewhere}
        exported = [
            *(f"`{name}` will return a Response" for name in plan.exported_functions if name not in together),
            *(f"`{name}` will be passed what `{plan.target.method}` returns" for name in plan.exported_parameters),
        ]
        return [
            Finding(rule=plan.rule, message=f"`{call_code}` can move to `{plan.target.method}`", fixable=True, **at_call),
            *(
                Finding(
                    rule=UNTRACED_RESULT,
                    message=f"{change}: no other module of the project imports it, but callers outside the project must be migrated too",
                    confidence=Confidence.LOW,
                    **at_call,
                )
                for change in exported
            ),
            *(
                Finding(
                    rule=plan.rule,
                    message=f"`{readers.name}` will return a Response: the reads of what it returns in "
                    + ", ".join(f"`{module}`" for module in readers.modules)
                    + " are migrated with this call",
                    fixable=True,
                    **at_call,
                )
                for readers in plan.read_elsewhere
            ),
        ]
    findings = []
    # An unsafe fix is on offer only where it lets the call migrate: no other blocker holds it.
    unsafe_migrates = plan.migrates(replace(options, unsafe_fixes=True))
    for blocker in plan.blockers:
        if blocker.unsafe is not None and options.unsafe_fixes:
            continue
        findings.append(
            Finding(
                rule=blocker.rule,
                line=blocker.position.start.line,
                column=blocker.position.start.column + 1,
                message=f"`{call_code}` not migrated: {blocker.reason}",
                unsafe_fix=blocker.unsafe is not None and unsafe_migrates,
                call=call,
            )
        )
    return findings


def _imported_result_findings(
    plan: SitePlan, imported: ImportedResult, call: Position, call_code: str, options: Options
) -> List[Finding]:
    """A call of an imported function: its reads are migrated with the call that makes its
    result, in the other module, or none is; the reads that hold that call back are reported."""
    origin = f"`{call_code}` returns what `{imported.code}` at `{imported.call}` returns"
    if plan.migrates(options) and imported.migrated:
        message = f"{origin}, which is migrated: the reads of it here are migrated with it"
        return [Finding(rule=plan.rule, line=call.line, column=call.column, message=message, fixable=True, call=call)]
    return [
        Finding(
            rule=blocker.rule,
            line=blocker.position.start.line,
            column=blocker.position.start.column + 1,
            message=f"{origin}, which is not migrated with its reads here: {blocker.reason}",
            call=call,
        )
        for blocker in plan.blockers
        if blocker.unsafe is None or not options.unsafe_fixes
    ]


def _start_of(site: CallSite) -> Position:
    start = site.position.start
    return Position(line=start.line, column=start.column + 1)


def _report_finding(rule_id: str, report: Report, analysis: ModuleAnalysis, fixable: bool = False) -> Finding:
    start = analysis.nodes.positions[report.node].start
    return Finding(
        rule=rule_id, line=start.line, column=start.column + 1, message=report.message, confidence=report.confidence, fixable=fixable
    )


def _written_call_findings(analysis: ModuleAnalysis, suppressions: Suppressions) -> List[Finding]:
    """The legacy calls written in strings and comments. A line inside a string over several
    lines cannot hold a comment: the string's last line suppresses them, as in ruff."""
    findings = []
    for written in analysis.written_calls():
        last_line = analysis.nodes.positions[written.node].end.line
        if suppressions.hides(CALLS_IN_TEXT, last_line):
            continue
        findings.append(
            Finding(
                rule=CALLS_IN_TEXT,
                line=written.line,
                column=written.column,
                message=f"`{written.code}` written in a {written.place}: a Chat Completions call the tool cannot migrate, "
                "to update by hand",
                confidence=Confidence.LOW,
            )
        )
    return findings


def _unresolved_finding(site: CallSite, analysis: ModuleAnalysis) -> Finding:
    call_code = analysis.module.code_for_node(site.call.func)
    receiver = analysis.module.code_for_node(site.receiver)
    call = _start_of(site)
    # --assume-openai vouches for receivers only in modules that import openai.
    remedy = "use --assume-openai to migrate it" if analysis.imports_openai else "the module does not import openai"
    return Finding(
        rule=UNRESOLVED_CLIENT,
        line=call.line,
        column=call.column,
        call=call,
        message=f"`{call_code}` looks like a Chat Completions call, but `{receiver}` is not provably an OpenAI client ({remedy})",
        confidence=Confidence.LOW,
    )


def _reference_finding(reference: MethodReference, analysis: ModuleAnalysis) -> Finding:
    code = one_line(analysis.module.code_for_node(reference.node), limit=100)
    receiver = one_line(analysis.module.code_for_node(reference.receiver))
    method = reference.kind.rpartition(".")[2]
    responses = ".".join([receiver, "responses", *([reference.wrapper] if reference.wrapper else []), method])
    remedy = f"migrate them by hand, calling `{responses}(...)` in place (in a `lambda:` where a function is wanted)"
    if not reference.traced:
        remedy = f"`{receiver}` is not provably an OpenAI client: if it is one, {remedy}"
    start = analysis.nodes.positions[reference.node].start
    return Finding(
        rule=METHOD_REFERENCES,
        line=start.line,
        column=start.column + 1,
        message=f"`{code}` is {_handed_on(reference.node, analysis)} uncalled: the tool migrates only calls written "
        f"in place, so it leaves this one, and the reads of its result, as they are; {remedy}",
        confidence=Confidence.HIGH if reference.traced else Confidence.LOW,
    )


def _handed_on(node: cst.CSTNode, analysis: ModuleAnalysis) -> str:
    """How a method read as a value goes on: "passed to `asyncio.to_thread`", say."""
    parent = analysis.nodes.parents.get(node)
    if isinstance(parent, cst.Arg):
        call = analysis.nodes.parents.get(parent)
        if isinstance(call, cst.Call):
            return f"passed to `{one_line(analysis.module.code_for_node(call.func))}`"
    if isinstance(parent, (cst.Assign, cst.AnnAssign)) and parent.value is node:
        targets = parent.targets if isinstance(parent, cst.Assign) else [parent]
        names = ", ".join(f"`{one_line(analysis.module.code_for_node(each.target))}`" for each in targets)
        return f"assigned to {names}"
    if isinstance(parent, cst.Return):
        return "returned"
    return "used as a value"
