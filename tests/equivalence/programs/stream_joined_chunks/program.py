"""A haiku writer: shows the poem as it arrives, then reports on the whole of it."""

import sys

from openai import OpenAI

client = OpenAI()


def write_haiku(topic: str) -> str:
    stream = client.chat.completions.create(
        model="gpt-4o-mini",
        messages=[{"role": "user", "content": f"Write a haiku about {topic}."}],
        stream=True,
    )
    chunks = []
    for chunk in stream:
        chunk_message = chunk.choices[0].delta.content or ""
        print(chunk_message, end="", flush=True, file=sys.stdout)
        chunks.append(chunk_message)
    print()
    return "".join(chunks)


def main() -> None:
    poem = write_haiku("autumn")
    print(f"{len(poem.splitlines())} lines, {len(poem)} characters")


if __name__ == "__main__":
    main()
