"""A haiku writer: shows the poem as it arrives, then reports on the whole of it."""

import sys

from openai import OpenAI

client = OpenAI()


def write_haiku(topic: str) -> str:
    stream = client.responses.create(
        model="gpt-4o-mini",
        input=f"Write a haiku about {topic}.",
        stream=True,
    )
    chunks = []
    for event in stream:
        if event.type == "response.output_text.delta":
            chunk_message = event.delta
            print(chunk_message, end="", flush=True, file=sys.stdout)
            chunks.append(chunk_message)
    print()
    return "".join(chunks)


def main() -> None:
    poem = write_haiku("autumn")
    print(f"{len(poem.splitlines())} lines, {len(poem)} characters")


if __name__ == "__main__":
    main()
