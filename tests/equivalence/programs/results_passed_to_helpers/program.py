"""Two questions answered through one helper that reads the completion, and a class whose
method hands its completion to another method."""

from openai import OpenAI


def answer_of(completion) -> str:
    return (completion.choices[0].message.content or "").strip()


class Assistant:
    def __init__(self) -> None:
        self.client = OpenAI()

    def ask(self, question: str) -> str:
        completion = self.client.chat.completions.create(
            model="gpt-4o-mini",
            messages=[{"role": "user", "content": question}],
        )
        return self._text_of(completion)

    def _text_of(self, completion) -> str:
        return f"{completion.choices[0].message.content} ({completion.usage.completion_tokens} tokens)"


def main() -> None:
    client = OpenAI()
    first = client.chat.completions.create(model="gpt-4o-mini", messages=[{"role": "user", "content": "Capital of Peru?"}])
    print(answer_of(first))
    print(answer_of(client.chat.completions.create(model="gpt-4o-mini", messages=[{"role": "user", "content": "And of Chile?"}])))
    print(Assistant().ask("Which is further south?"))


if __name__ == "__main__":
    main()
