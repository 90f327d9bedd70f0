"""A commit-message writer: streams each draft through a helper that echoes it as it comes."""

import sys

from openai import OpenAI

client = OpenAI()


def collect(stream, echo: bool = False) -> str:
    text = ""
    for event in stream:
        if event.type == "response.output_text.delta":
            piece = event.delta
            text += piece
            if echo:
                print(piece, end="", flush=True)
            else:
                sys.stdout.write(piece)
    print()
    return text


def draft(diff: str, echo: bool) -> str:
    stream = client.responses.create(
        model="gpt-4o-mini",
        input=f"Write a commit message for: {diff}",
        stream=True,
    )
    return collect(stream, echo=echo)


def main() -> None:
    subject = draft("rename the cache folder", echo=True)
    body = draft("explain why the cache moved", echo=False)
    print(f"{len(subject)} + {len(body)} characters")


if __name__ == "__main__":
    main()
