from answers.client import client


def ask(question: str):
    return client.responses.create(
        model="gpt-4o-mini",
        instructions="Answer in one sentence.",
        input=question,
        max_output_tokens=200,
    )
