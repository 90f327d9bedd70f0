from agents.agent import run_agent


def reply(name: str, question: str) -> str:
    return run_agent(
        [
            {"role": "developer", "content": f"Address the user as {name}."},
            {"role": "assistant", "content": "How can I help?"},
            {"role": "user", "content": question},
        ],
        [],
        {},
    )
