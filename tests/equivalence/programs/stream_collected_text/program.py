"""Summarise an article: stream the answer into a variable, then report on it."""

from openai import OpenAI

ARTICLE = (
    "The city council voted on Tuesday to turn the old tram depot into a public library. "
    "Construction starts in spring and the library should open two years later."
)

client = OpenAI()


def summarize(text: str) -> str:
    stream = client.chat.completions.create(
        model="gpt-4o-mini",
        messages=[
            {"role": "system", "content": "Summarise the article in one sentence."},
            {"role": "user", "content": text},
        ],
        stream=True,
    )
    summary = ""
    for chunk in stream:
        delta = chunk.choices[0].delta
        summary += delta.content or ""
    return summary


def main() -> None:
    summary = summarize(ARTICLE)
    print(f"{len(summary.split())} words, {len(summary)} characters")
    print(summary)


if __name__ == "__main__":
    main()
