"""A terminal storyteller: writes each piece of the story as it arrives and flushes the terminal."""

import sys

from openai import OpenAI

client = OpenAI()


def tell(topic: str) -> None:
    stream = client.chat.completions.create(
        model="gpt-4o-mini",
        messages=[{"role": "user", "content": f"A two-line story about {topic}"}],
        stream=True,
    )
    for chunk in stream:
        sys.stdout.write(chunk.choices[0].delta.content or "")
        sys.stdout.flush()
    print()


if __name__ == "__main__":
    tell("a lighthouse keeper")
