"""A release-notes drafter: streams the draft to the terminal and keeps every piece of it."""

from openai import OpenAI

client = OpenAI()


def draft(changes: str) -> str:
    stream = client.chat.completions.create(
        model="gpt-4o-mini",
        messages=[{"role": "user", "content": f"Draft release notes for: {changes}"}],
        stream=True,
    )
    pieces = []
    for chunk in stream:
        if chunk.choices and chunk.choices[0].delta.content is not None:
            print(chunk.choices[0].delta.content, end="", flush=True)
            pieces.append(chunk.choices[0].delta.content)
    print()
    return "".join(pieces)


def main() -> None:
    notes = draft("faster start-up; a probe command")
    print(f"{len(notes.split())} words")


if __name__ == "__main__":
    main()
