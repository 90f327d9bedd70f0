"""Moderate requests with structured outputs; the model refuses one of them."""

from openai import OpenAI
from pydantic import BaseModel


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
        completion = client.chat.completions.parse(
            model="gpt-4o-mini",
            messages=[{"role": "user", "content": request}],
            response_format=Advice,
        )
        if completion.choices[0].message.refusal:
            print("Refused:", completion.choices[0].message.refusal)
            continue
        advice = completion.choices[0].message.parsed
        if advice is not None:
            print("Allowed" if advice.allowed else "Not allowed", "-", advice.explanation)
    print("done")


if __name__ == "__main__":
    main()
