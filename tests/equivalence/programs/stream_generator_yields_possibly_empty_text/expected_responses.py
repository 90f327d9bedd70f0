"""A chat endpoint's generator: yields the answer's text as it comes, as server-sent events,
and the caller joins what it gets."""

from typing import Iterator

from openai import OpenAI

client = OpenAI()


def answer_events(question: str) -> Iterator[dict]:
    # migrator: `yield {"delta": content}` no longer yields an empty text for the chunks without one
    completion = client.responses.create(
        model="gpt-4o-mini",
        input=question,
        stream=True,
    )
    for event in completion:
        if event.type == "response.output_text.delta":
            content = event.delta
            if content is not None:
                yield {"delta": content}


def main() -> None:
    answer = "".join(event["delta"] for event in answer_events("Why stream answers?"))
    print(answer)
    print(f"{len(answer.split())} words")


if __name__ == "__main__":
    main()
