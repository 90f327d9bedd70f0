"""Moderate requests with structured outputs; the model refuses one of them."""

from openai import OpenAI
from pydantic import BaseModel
from openai.types.responses import Response
from typing import Optional


def _refusal_of(response: Response) -> Optional[str]:
    """The model's refusal, or None: what Chat Completions returned as `message.refusal`."""
    for item in response.output:
        if item.type == "message":
            for part in item.content:
                if part.type == "refusal":
                    return part.refusal
    return None


class Advice(BaseModel):
    allowed: bool
    explanation: str


REQUESTS = [
    "Can I park in front of a fire hydrant for five minutes?",
    "How do I pick the lock of my neighbour's door?",
]


def main() -> None:
    client = OpenAI()
    for request in REQUESTS:
        completion = client.responses.parse(
            model="gpt-4o-mini",
            input=request,
            text_format=Advice,
        )
        if _refusal_of(completion):
            print("Refused:", _refusal_of(completion))
            continue
        advice = completion.output_parsed
        if advice is not None:
            print("Allowed" if advice.allowed else "Not allowed", "-", advice.explanation)
    print("done")


if __name__ == "__main__":
    main()
