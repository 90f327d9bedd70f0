"""Summarise an article: stream the answer into a variable, then report on it."""

from openai import OpenAI

ARTICLE = (
    "The city council voted on Tuesday to turn the old tram depot into a public library. "
    "Construction starts in spring and the library should open two years later."
)

client = OpenAI()


def summarize(text: str) -> str:
    stream = client.responses.create(
        model="gpt-4o-mini",
        instructions="Summarise the article in one sentence.",
        input=text,
        stream=True,
    )
    summary = ""
    for event in stream:
        if event.type == "response.output_text.delta":
            summary += event.delta
    return summary


def main() -> None:
    summary = summarize(ARTICLE)
    print(f"{len(summary.split())} words, {len(summary)} characters")
    print(summary)


if __name__ == "__main__":
    main()
