from answers.client import get_client


def ask(question: str):
    client = get_client()
    return client.chat.completions.create(
        model="gpt-4o-mini",
        messages=[
            {"role": "system", "content": "Answer in one sentence."},
            {"role": "user", "content": question},
        ],
        max_tokens=200,
    )
