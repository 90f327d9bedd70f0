"""A small code-review helper that keeps its client on the instance."""

from openai import OpenAI

SNIPPETS = [
    "def add(a, b):\n    return a+b\n",
    "for i in range(len(items)):\n    print(items[i])\n",
]


class ReviewBot:
    def __init__(self, model: str = "gpt-4o-mini") -> None:
        self.client = OpenAI()
        self.model = model

    def review(self, snippet: str) -> str:
        completion = self.client.responses.create(
            model=self.model,
            instructions="You review Python code. Reply with one suggestion.",
            input=snippet,
            max_output_tokens=120,
        )
        return completion.output_text


def main() -> None:
    bot = ReviewBot()
    for number, snippet in enumerate(SNIPPETS, start=1):
        print(f"#{number}: {bot.review(snippet)}")


if __name__ == "__main__":
    main()
