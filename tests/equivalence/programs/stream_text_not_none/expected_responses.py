"""A release-notes drafter: streams the draft to the terminal and keeps every piece of it."""

from openai import OpenAI

client = OpenAI()


def draft(changes: str) -> str:
    stream = client.responses.create(
        model="gpt-4o-mini",
        input=f"Draft release notes for: {changes}",
        stream=True,
    )
    pieces = []
    for event in stream:
        if event.type == "response.output_text.delta":
            print(event.delta, end="", flush=True)
            pieces.append(event.delta)
    print()
    return "".join(pieces)


def main() -> None:
    notes = draft("faster start-up; a probe command")
    print(f"{len(notes.split())} words")


if __name__ == "__main__":
    main()
