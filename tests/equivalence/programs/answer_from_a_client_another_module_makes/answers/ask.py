from answers.client import client


def ask(question: str):
    return client.chat.completions.create(
        model="gpt-4o-mini",
        messages=[
            {"role": "system", "content": "Answer in one sentence."},
            {"role": "user", "content": question},
        ],
        max_tokens=200,
    )
