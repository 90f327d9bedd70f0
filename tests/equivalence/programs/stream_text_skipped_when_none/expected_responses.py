"""A changelog reader: streams the summary, skipping the chunks that carry no text, and counts
the pieces' characters."""

from openai import OpenAI

client = OpenAI()


def summarise(changes: str) -> int:
    stream = client.responses.create(
        model="gpt-4o-mini",
        input=f"Summarise: {changes}",
        stream=True,
    )
    shown = 0
    for event in stream:
        if event.type == "response.output_text.delta":
            text = event.delta
            print(text, end="", flush=True)
            shown += len(text)
    print()
    return shown


def headline(changes: str) -> None:
    stream = client.responses.create(
        model="gpt-4o-mini",
        input=f"One headline for: {changes}",
        stream=True,
    )
    for event in stream:
        if event.type == "response.output_text.delta":
            if not event.delta:
                continue
            print(event.delta.upper(), end="")
    print()


def main() -> None:
    print(f"{summarise('a faster cache; fewer false alarms')} characters")
    headline("a faster cache")


if __name__ == "__main__":
    main()
