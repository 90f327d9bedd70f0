"""A terminal storyteller: writes each piece of the story as it arrives and flushes the terminal."""

import sys

from openai import OpenAI

client = OpenAI()


def tell(topic: str) -> None:
    stream = client.responses.create(
        model="gpt-4o-mini",
        input=f"A two-line story about {topic}",
        stream=True,
    )
    for event in stream:
        if event.type == "response.output_text.delta":
            sys.stdout.write(event.delta)
            sys.stdout.flush()
    print()


if __name__ == "__main__":
    tell("a lighthouse keeper")
