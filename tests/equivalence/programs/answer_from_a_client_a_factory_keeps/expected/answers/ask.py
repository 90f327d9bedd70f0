from answers.client import get_client


def ask(question: str):
    client = get_client()
    return client.responses.create(
        model="gpt-4o-mini",
        instructions="Answer in one sentence.",
        input=question,
        max_output_tokens=200,
    )
