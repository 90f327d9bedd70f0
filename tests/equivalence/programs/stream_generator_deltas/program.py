"""A generator yields the pieces of a streamed answer; its caller prints and keeps them."""

from typing import Iterator, List

from openai import OpenAI

client = OpenAI()


def stream_reply(question: str) -> Iterator[str]:
    stream = client.chat.completions.create(
        model="gpt-4o-mini",
        messages=[{"role": "user", "content": question}],
        stream=True,
    )
    for chunk in stream:
        content = chunk.choices[0].delta.content
        if content:
            yield content


def main() -> None:
    pieces: List[str] = []
    for piece in stream_reply("Name three rivers in Europe."):
        print(piece, end="", flush=True)
        pieces.append(piece)
    print()
    print(f"received {len(''.join(pieces))} characters")


if __name__ == "__main__":
    main()
