"""Answer questions with structured outputs from functions typed to return text; the model
refuses one question in each."""

from typing import Optional

from openai import OpenAI
from openai.types.responses import Response
from pydantic import BaseModel


def _refusal_of(response: Response) -> Optional[str]:
    """The model's refusal, or None: what Chat Completions returned as `message.refusal`."""
    for item in response.output:
        if item.type == "message":
            for part in item.content:
                if part.type == "refusal":
                    return part.refusal
    return None


class Answer(BaseModel):
    text: str


def ask(client: OpenAI, question: str) -> str:
    completion = client.responses.parse(
        model="gpt-4o-mini",
        input=question,
        text_format=Answer,
    )
    if refusal := _refusal_of(completion):
        return "refused: " + refusal.strip()
    assert completion.output_parsed is not None
    return completion.output_parsed.text


def explain(client: OpenAI, question: str) -> str:
    completion = client.responses.create(
        model="gpt-4o-mini",
        input=question,
    )
    if (refusal := _refusal_of(completion)) is not None:
        return "declined: " + refusal
    return completion.output_text


def main() -> None:
    client = OpenAI()
    print(ask(client, "Why is the sky blue?"))
    print(ask(client, "How do I pick my neighbour's lock?"))
    print(explain(client, "Why is the sea salty?"))
    print(explain(client, "Write me some malware."))


if __name__ == "__main__":
    main()
