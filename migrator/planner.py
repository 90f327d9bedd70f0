"""Decides, call site by call site, whether a call migrates, and with which rewrites.

A plan is all or nothing: the call, its arguments and every read of its result are rewritten
together, or none of them is and the reasons become findings. Plans are data; ``apply_plans``
in ``migrator.rewrite`` turns them into code.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple, Union

import libcst as cst
from libcst.metadata import CodeRange

from migrator.analysis import CALL, CallSite, ModuleAnalysis, ResultUse
from migrator.model import Confidence, Finding, Options
from migrator.registry import all_rules
from migrator.rule import Block, ParameterHook, Retarget, Rewrite, Rule, UseRewrite
from migrator.shapes import one_line

UNTRACED_RESULT = "untraced_result"
UNRESOLVED_CLIENT = "unresolved_client"
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
    blockers: List[Blocker] = field(default_factory=list)
    exported_functions: List[str] = field(default_factory=list)

    @property
    def rules_used(self) -> set:
        used = {self.rule} | {rule for rule, _ in self.use_rewrites + self.shared_rewrites}
        return used | {a.rule for a in self.arguments if a.rule}

    def migrates(self, options: Options) -> bool:
        return all(b.unsafe is not None and options.unsafe_fixes for b in self.blockers)


@dataclass
class ModulePlan:
    sites: List[SitePlan]
    findings: List[Finding]


def plan_module(analysis: ModuleAnalysis, options: Options) -> ModulePlan:
    rules = {rule_id: rule for rule_id, rule in all_rules().items() if options.is_enabled(rule_id)}
    call_rules = {kind: rule for rule in rules.values() for kind in rule.calls}
    plans: List[SitePlan] = []
    findings: List[Finding] = []
    for site in analysis.call_sites():
        rule = call_rules.get(site.kind)
        if rule is None:
            continue
        if not site.traced and not (options.assume_openai and analysis.imports_openai):
            if analysis.imports_openai and options.is_enabled(UNRESOLVED_CLIENT):
                findings.append(_unresolved_finding(site, analysis))
            continue
        plans.append(_plan_site(site, rule, rules, analysis))
    _block_partly_migrated_shares(plans, analysis, options)
    for plan in plans:
        findings.extend(_site_findings(plan, analysis, options))
    return ModulePlan(sites=[p for p in plans if p.migrates(options)], findings=findings)


def _block_partly_migrated_shares(plans: List[SitePlan], analysis: ModuleAnalysis, options: Options) -> None:
    """A definition shared by several calls is rewritten for all of them or for none."""
    sharing: Dict[cst.CSTNode, List[SitePlan]] = {}
    for plan in plans:
        for _, rewrite in plan.shared_rewrites:
            sharing.setdefault(rewrite.target, []).append(plan)
    changed = True
    while changed:
        changed = False
        for target, owners in sharing.items():
            if all(p.migrates(options) for p in owners):
                continue
            for plan in owners:
                if plan.migrates(options):
                    code = analysis.module.code_for_node(target)
                    reason = f"it shares `{one_line(code)}` with a call that is not migrated"
                    plan.blockers.append(Blocker(plan.rule, reason, analysis.positions[target]))
                    changed = True


def _plan_site(site: CallSite, rule: Rule, rules: Dict[str, Rule], analysis: ModuleAnalysis) -> SitePlan:
    plan = SitePlan(site=site, rule=rule.id)
    target = rule.calls[site.kind](site)
    if isinstance(target, Block):
        plan.blockers.append(Blocker(rule.id, target.reason, site.position))
        return plan
    plan.target = target
    _plan_arguments(plan, rules, analysis)
    _plan_uses(plan, rules, analysis)
    return plan


def _plan_arguments(plan: SitePlan, rules: Dict[str, Rule], analysis: ModuleAnalysis) -> None:
    owners = {name: rule for rule in rules.values() for name, _ in rule.parameters.items()}
    every_owner = {name: rule for rule in all_rules().values() for name in rule.parameters}
    for arg in plan.site.call.args:
        position = analysis.positions[arg]
        plan.arguments.append(ArgumentPlan())
        if arg.keyword is None:
            what = "`**` arguments" if arg.star == "**" else "positional arguments"
            plan.blockers.append(Blocker(plan.rule, f"it passes {what}, which the tool cannot map", position))
            continue
        name = arg.keyword.value
        owner = owners.get(name)
        if owner is None:
            if name in every_owner:
                reason = f"`{name}=` is migrated by rule `{every_owner[name].id}`, which is not selected"
            else:
                reason = f"the tool has no mapping for `{name}=`"
            plan.blockers.append(Blocker(plan.rule, reason, position))
            continue
        hook = owner.parameters[name]
        outcome = hook(name, arg.value, plan.site)
        plan.arguments[-1] = ArgumentPlan(rule=owner.id, hook=hook, unsafe=isinstance(outcome, Block))
        if isinstance(outcome, Block):
            plan.blockers.append(Blocker(owner.id, outcome.reason, position, outcome.unsafe))
        rewrite = outcome.unsafe if isinstance(outcome, Block) else outcome
        if rewrite is not None:
            plan.shared_rewrites.extend((owner.id, edit) for edit in rewrite.elsewhere)


def _plan_uses(plan: SitePlan, rules: Dict[str, Rule], analysis: ModuleAnalysis) -> None:
    site = plan.site
    trace = analysis.trace_result(site.call)
    uses = list(trace.uses)
    if site.wrapper == "with_raw_response":
        uses = []
        for use in trace.uses:
            if use.path[:2] == ("parse", CALL):
                parsed = analysis.trace_result(use.chain[1])
                uses.extend(parsed.uses)
                trace.escapes.extend(parsed.escapes)
                trace.exported_functions.extend(parsed.exported_functions)
            elif not (use.path and use.path[0] in RAW_RESPONSE_ATTRIBUTES):
                trace.escapes.append(_escape_of(use))
    elif site.wrapper == "with_streaming_response":
        plan.blockers.append(Blocker(UNTRACED_RESULT, "results read through `with_streaming_response` are not followed yet", site.position))
        return
    for escape in trace.escapes:
        plan.blockers.append(Blocker(UNTRACED_RESULT, escape.reason, escape.position))
    plan.exported_functions = trace.exported_functions
    for use in uses:
        outcome = _offer_use(use, site, rules)
        if outcome is None:
            plan.blockers.append(Blocker(UNTRACED_RESULT, _escape_of(use).reason, use.position))
        elif isinstance(outcome[1], Block):
            plan.blockers.append(Blocker(outcome[0], outcome[1].reason, use.position))
        else:
            plan.use_rewrites.append((outcome[0], outcome[1]))


def _offer_use(use: ResultUse, site: CallSite, rules: Dict[str, Rule]) -> Optional[Tuple[str, Union[UseRewrite, Block]]]:
    """The first rule that rewrites the use wins; failing that, the first that blocks it."""
    blocked = None
    for rule in rules.values():
        for hook in rule.result_use_hooks:
            outcome = hook(use, site)
            if isinstance(outcome, UseRewrite):
                return rule.id, outcome
            if outcome is not None and blocked is None:
                blocked = rule.id, outcome
    return blocked


def _escape_of(use: ResultUse):
    from migrator.analysis import Escape

    if use.path:
        return Escape(f"its result is read as `{use.code}`, which no rule maps to the Responses API", use.position)
    return Escape(f"its result is used as `{use.code}` in a way the tool cannot follow", use.position)


def _site_findings(plan: SitePlan, analysis: ModuleAnalysis, options: Options) -> List[Finding]:
    site = plan.site
    call_code = analysis.module.code_for_node(site.call.func)
    start = site.position.start
    if plan.migrates(options):
        findings = [
            Finding(
                rule=plan.rule,
                line=start.line,
                column=start.column + 1,
                message=f"`{call_code}` can move to `{plan.target.method}`",
                fixable=True,
            )
        ]
        for name in plan.exported_functions:
            findings.append(
                Finding(
                    rule=UNTRACED_RESULT,
                    line=start.line,
                    column=start.column + 1,
                    message=f"`{name}` will return a Response: callers in other modules must be migrated too",
                    confidence=Confidence.LOW,
                )
            )
        return findings
    findings = []
    for blocker in plan.blockers:
        if blocker.unsafe is not None and options.unsafe_fixes:
            continue
        findings.append(
            Finding(
                rule=blocker.rule,
                line=blocker.position.start.line,
                column=blocker.position.start.column + 1,
                message=f"`{call_code}` not migrated: {blocker.reason}",
                unsafe_fix=blocker.unsafe is not None,
            )
        )
    return findings


def _unresolved_finding(site: CallSite, analysis: ModuleAnalysis) -> Finding:
    call_code = analysis.module.code_for_node(site.call.func)
    receiver = analysis.module.code_for_node(site.receiver)
    start = site.position.start
    return Finding(
        rule=UNRESOLVED_CLIENT,
        line=start.line,
        column=start.column + 1,
        message=f"`{call_code}` looks like a Chat Completions call, but `{receiver}` is not provably an OpenAI client (use --assume-openai to migrate it)",
        confidence=Confidence.LOW,
    )
