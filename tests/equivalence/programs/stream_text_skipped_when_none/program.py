"""A changelog reader: streams the summary, skipping the chunks that carry no text, and counts
the pieces' characters."""

from openai import OpenAI

client = OpenAI()


def summarise(changes: str) -> int:
    stream = client.chat.completions.create(
        model="gpt-4o-mini",
        messages=[{"role": "user", "content": f"Summarise: {changes}"}],
        stream=True,
    )
    shown = 0
    for chunk in stream:
        text = chunk.choices[0].delta.content
        if text is None:
            continue
        print(text, end="", flush=True)
        shown += len(text)
    print()
    return shown


def headline(changes: str) -> None:
    stream = client.chat.completions.create(
        model="gpt-4o-mini",
        messages=[{"role": "user", "content": f"One headline for: {changes}"}],
        stream=True,
    )
    for chunk in stream:
        if not chunk.choices[0].delta.content:
            continue
        print(chunk.choices[0].delta.content.upper(), end="")
    print()


def main() -> None:
    print(f"{summarise('a faster cache; fewer false alarms')} characters")
    headline("a faster cache")


if __name__ == "__main__":
    main()
