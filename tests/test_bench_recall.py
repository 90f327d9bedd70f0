"""bench/recall.py counts and tallies a small corpus written here, without the network."""

from __future__ import annotations

from tests.bench_scripts import load_bench_script

ASK = '''\
from openai import OpenAI

client = OpenAI()


def ask(question):
    completion = client.chat.completions.create(model="gpt-4o", messages=[{"role": "user", "content": question}])
    return completion.choices[0].message.content


def ask_positionally(question):
    completion = client.chat.completions.create(
        "gpt-4o",
        [{"role": "user", "content": question}],
    )
    return completion.choices[0].message.content
'''
WRAPPER_DOCSTRING = '"""Calls `client.chat.completions.create(...)` for you."""\n'
OTHER_SDK = "from groq import Groq\nreply = Groq().chat.completions.create(model='m', messages=[])\n"


def test_one_migrated_call_one_blocked_call_one_mention_in_a_docstring_and_one_other_sdk_call(tmp_path):
    recall = load_bench_script("recall")
    (tmp_path / "app").mkdir()
    (tmp_path / "app" / "ask.py").write_text(ASK)
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "wrapper.py").write_text(WRAPPER_DOCSTRING)
    (tmp_path / "lib" / "groq_wrapper.py").write_text(OTHER_SDK)
    (tmp_path / "lib" / "no_call.py").write_text("completions = []\n")
    files = recall.corpus_files([("demo", "application", tmp_path / "app"), ("demo", "library", tmp_path / "lib")])
    assert [(file.path.name, file.group, file.sites) for file in files] == [
        ("ask.py", "application", 2),
        ("groq_wrapper.py", "library", 1),
        ("wrapper.py", "library", 1),
    ]

    tallies, disagreements = recall.measure(files, recall.OPTION_SETS["default"], jobs=1)

    assert disagreements == []
    application, library = tallies["application"], tallies["library"]
    assert (application.files, application.sites, application.migrated) == (1, 2, 1)
    # Two positional arguments, reported on a line each: one call, one reason.
    assert application.blockers == {"it passes positional arguments, which the tool cannot map": 1}
    assert (library.files, library.sites, library.migrated) == (2, 2, 0)
    written = "written in a docstring: a Chat Completions call the tool cannot migrate, to update by hand"
    assert library.blockers == {written: 1, recall.NO_FINDING_WITHOUT_OPENAI: 1}
    table = recall.render({name: tallies for name in recall.OPTION_SETS}, markdown=True)
    assert "| application | default | 1 | 2 | 1 | 50.0 % |" in table
    assert "application package" not in table


def test_by_package_shares_out_a_group_without_changing_its_counts(tmp_path):
    recall = load_bench_script("recall")
    for package in ("big", "small"):
        (tmp_path / package).mkdir()
    (tmp_path / "big" / "ask.py").write_text(ASK)
    (tmp_path / "big" / "wrapper.py").write_text(WRAPPER_DOCSTRING)
    (tmp_path / "small" / "ask.py").write_text(ASK)
    files = recall.corpus_files([("big", "application", tmp_path / "big"), ("small", "application", tmp_path / "small")])

    tallies, _ = recall.measure(files, recall.OPTION_SETS["default"], jobs=1)

    application = tallies["application"]
    assert (application.files, application.sites, application.migrated) == (3, 5, 2)
    big, small = application.packages["big"], application.packages["small"]
    assert (big.files, big.sites, big.migrated) == (2, 3, 1)
    assert (small.files, small.sites, small.migrated) == (1, 2, 1)
    assert big.blockers + small.blockers == application.blockers
    table = recall.render({name: tallies for name in recall.OPTION_SETS}, markdown=True, by_package=True)
    # Most call sites first; the reason most often given, once per line, comes last.
    assert table.index("| big | 2 | 3 | 60.0 % | 1 | 1 | it passes positional arguments") < table.index("| small | 1 | 2 | 40.0 % |")


def test_blocker_categories_drop_the_call_names_and_numbers():
    recall = load_bench_script("recall")
    message = "`self.client.chat.completions.create` not migrated: it shares `kwargs` with the call on line 12"
    assert recall.blocker_category(message) == "it shares `…` with the call on line N"
    assert recall.error_kind("syntax error at line 3, column 7: unexpected token") == "syntax error"
    assert recall.error_kind("internal error: KeyError: 'x' (planner.py:12 in f)") == "internal error: KeyError"


LLM = """\
from openai import OpenAI

client = OpenAI()


def complete(question):
    return client.chat.completions.create(model="gpt-4o", messages=[{"role": "user", "content": question}])
"""


def test_a_call_read_in_a_module_without_call_sites_migrates_when_the_folder_is_measured(tmp_path):
    recall = load_bench_script("recall")
    app = tmp_path / "app"
    app.mkdir()
    (app / "llm.py").write_text(LLM)
    (app / "service.py").write_text("from llm import complete\n\nprint(complete('Hi').choices[0].message.content)\n")
    files = recall.corpus_files([("demo", "application", app)])
    assert [file.path.name for file in files] == ["llm.py"]

    alone, _ = recall.measure(files, recall.OPTION_SETS["default"], jobs=1)
    with_folder, disagreements = recall.measure(files, recall.OPTION_SETS["default"], jobs=1, folders=[app])

    assert disagreements == []
    assert alone["application"].migrated == 0  # its reader is not in the run
    assert (with_folder["application"].files, with_folder["application"].sites, with_folder["application"].migrated) == (1, 1, 1)
