"""A chat endpoint's generator: yields the answer's text as it comes, as server-sent events,
and the caller joins what it gets."""

from typing import Iterator

from openai import OpenAI

client = OpenAI()


def answer_events(question: str) -> Iterator[dict]:
    completion = client.chat.completions.create(
        model="gpt-4o-mini",
        messages=[{"role": "user", "content": question}],
        stream=True,
    )
    for chunk in completion:
        content = chunk.choices[0].delta.content
        if content is not None:
            yield {"delta": content}


def main() -> None:
    answer = "".join(event["delta"] for event in answer_events("Why stream answers?"))
    print(answer)
    print(f"{len(answer.split())} words")


if __name__ == "__main__":
    main()
