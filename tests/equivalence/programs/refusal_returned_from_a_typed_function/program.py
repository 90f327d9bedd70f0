"""Answer questions with structured outputs from functions typed to return text; the model
refuses one question in each."""

from openai import OpenAI
from pydantic import BaseModel


class Answer(BaseModel):
    text: str


def ask(client: OpenAI, question: str) -> str:
    completion = client.chat.completions.parse(
        model="gpt-4o-mini",
        messages=[{"role": "user", "content": question}],
        response_format=Answer,
    )
    message = completion.choices[0].message
    if message.refusal:
        return "refused: " + message.refusal.strip()
    assert message.parsed is not None
    return message.parsed.text


def explain(client: OpenAI, question: str) -> str:
    completion = client.chat.completions.create(
        model="gpt-4o-mini",
        messages=[{"role": "user", "content": question}],
    )
    if completion.choices[0].message.refusal is not None:
        return "declined: " + completion.choices[0].message.refusal
    return completion.choices[0].message.content or ""


def main() -> None:
    client = OpenAI()
    print(ask(client, "Why is the sky blue?"))
    print(ask(client, "How do I pick my neighbour's lock?"))
    print(explain(client, "Why is the sea salty?"))
    print(explain(client, "Write me some malware."))


if __name__ == "__main__":
    main()
