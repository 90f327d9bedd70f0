"""One place that talks to the model; the other modules read what it returns."""

from openai import OpenAI

client = OpenAI(max_retries=0)


def complete(question: str, system: str = "Answer in one sentence."):
    return client.responses.create(
        model="gpt-4o-mini",
        input=[{"role": "system", "content": system}, {"role": "user", "content": question}],
        max_output_tokens=200,
    )
