"""Two questions answered through one helper that reads the completion, and a class whose
method hands its completion to another method."""

from openai import OpenAI


def answer_of(completion) -> str:
    return (completion.output_text or "").strip()


class Assistant:
    def __init__(self) -> None:
        self.client = OpenAI()

    def ask(self, question: str) -> str:
        completion = self.client.responses.create(
            model="gpt-4o-mini",
            input=question,
        )
        return self._text_of(completion)

    def _text_of(self, completion) -> str:
        return f"{completion.output_text} ({completion.usage.output_tokens} tokens)"


def main() -> None:
    client = OpenAI()
    first = client.responses.create(model="gpt-4o-mini", input="Capital of Peru?")
    print(answer_of(first))
    print(answer_of(client.responses.create(model="gpt-4o-mini", input="And of Chile?")))
    print(Assistant().ask("Which is further south?"))


if __name__ == "__main__":
    main()
